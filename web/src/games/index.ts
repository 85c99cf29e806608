// What the pages ask of a game by its id, from the one list in `register.ts`; games without an entry
// use the generic view.

import { Selection, type LegalAction } from '../logic/select';
import { genericRenderer } from './generic';
import { GAMES } from './register';
import type { Renderer } from './types';

export function rendererFor(gameId: string): Renderer {
  return GAMES[gameId]?.renderer ?? genericRenderer;
}

/** The click selection over `legal` for this game's board. The generic view draws no board, so there
 * every action is a button. `oneGesture`: the common variant is made at once where the engine lists it
 * first (the game page); without it every choice between variants is asked (the lessons, which teach
 * those choices: "leave one chip behind for a Mana move"). */
export function selectionFor(gameId: string, legal: LegalAction[], oneGesture = true): Selection {
  const game = GAMES[gameId];
  return new Selection(game ? legal : legal.map((a) => ({ ...a, cells: [] })), oneGesture && game?.renderer.commonFirst === true);
}
