// The engine's hints (docs/protocol.md: `POST /api/games/{id}/hint`, `POST /api/lessons/{game}/{n}/hint`):
// when a page offers the Hint button. Pure logic, unit tested.

import type { Hint } from '../wire/ai/Hint';
import { mySeat, outcomeOf, seatsToAct, type Snapshot } from './snapshot';

/** The engine's preferred action for a seat's current decision (generated from `tabula_ai::analysis::Hint`). */
export type { Hint };

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
