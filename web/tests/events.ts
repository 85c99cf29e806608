// Test fixtures: a game event as the server sends it (GameEvent), from the fields a test cares about.

import type { GameEvent } from '../src/logic/snapshot';

/** An event with `at` 0 and, for an action, no cells, words or turn unless given. */
export function ev(e: { seq: number; kind: GameEvent['kind'] } & Record<string, unknown>): GameEvent {
  const action = e.kind === 'action' ? { notation: null, cells: [], words: null, turn: null } : {};
  return { at: 0, ...action, ...e } as GameEvent;
}
