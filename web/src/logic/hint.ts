// The engine's hints (docs/protocol.md: `POST /api/games/{id}/hint`, `POST /api/lessons/{game}/{n}/hint`):
// when a page offers the Hint button, and reading the answer. Pure logic, unit tested.

import { mySeat, outcomeOf, seatsToAct, type Snapshot } from './snapshot';

/** The engine's preferred action for a seat's current decision. */
export interface Hint {
  seat: number;
  notation: string;
  /** Its cells on the board (as legal actions carry them; none for a button). */
  cells: string[];
  /** The seat's winning chance with it (none for a hidden setup). */
  estimate: number | null;
}

/** Reads a hint answer; throws a clear error on anything else. */
export function parseHint(data: unknown): Hint {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('the server sent no hint');
  const d = data as Record<string, unknown>;
  if (typeof d.notation !== 'string' || !d.notation) throw new Error('the hint names no action');
  return {
    seat: typeof d.seat === 'number' ? d.seat : -1,
    notation: d.notation,
    cells: Array.isArray(d.cells) ? d.cells.filter((c): c is string => typeof c === 'string') : [],
    estimate: typeof d.estimate === 'number' && Number.isFinite(d.estimate) ? d.estimate : null,
  };
}

/** Whether the game page offers a hint: to a player (never a spectator) of a running casual game
 * against the AI, for the decision that player owes now. Rated games and games between people never
 * show the control (the server refuses them too). */
export function canAskHint(s: Snapshot): boolean {
  const me = mySeat(s);
  if (me === null || s.rated === true || s.status !== 'running' || outcomeOf(s)) return false;
  if (!s.seats.some((x) => x.kind === 'ai')) return false;
  if (s.seats[me]?.kind === 'ai') return false;
  return seatsToAct(s.to_act).includes(me) && s.legal.length > 0;
}
