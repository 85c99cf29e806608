// What the pages ask of a game by its id, from the one list in `register.ts`; games without an entry
// use the generic view.

import { genericRenderer } from './generic';
import { GAMES } from './register';
import type { Renderer } from './types';

export function rendererFor(gameId: string): Renderer {
  return GAMES[gameId]?.renderer ?? genericRenderer;
}

/** The game's plain-language hint for an action's notation ('' when there is none). */
export function choiceHint(gameId: string, notation: string): string {
  return GAMES[gameId]?.hint?.(notation) ?? '';
}
