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
 * every action is a button. */
export function selectionFor(gameId: string, legal: LegalAction[]): Selection {
  const game = GAMES[gameId];
  return new Selection(game ? legal : legal.map((a) => ({ ...a, cells: [] })), game?.renderer.commonFirst === true);
}
