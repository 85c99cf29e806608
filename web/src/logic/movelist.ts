// The move list of a game page: one numbered line per turn, its steps together, each step in the plain
// words the game crate sends (`words`), or in engine notation when the player prefers it (a switch kept
// on the device). The client words nothing itself: the words come from the server, per observer.

import type { Actor, MoveEntry, SeatInfo } from './snapshot';

const KEY = 'tabula:move-notation';

/** One step of a line: the action's index in the move list (0-based) and the action. */
export interface Step {
  index: number;
  move: MoveEntry;
}

/** One line of the move list: the actions of one turn by one actor, in order. */
export interface MoveLine {
  turn: number | null;
  actor: Actor;
  steps: Step[];
}

function sameActor(a: Actor, b: Actor): boolean {
  if (a === 'chance' || b === 'chance') return a === b;
  return a.seat === b.seat;
}

/** Groups the actions by turn: a new line starts when the turn number or the actor changes. Chance
 * actions (dice, a coin toss) get a line of their own. */
export function groupByTurn(moves: MoveEntry[]): MoveLine[] {
  const lines: MoveLine[] = [];
  moves.forEach((move, index) => {
    const last = lines[lines.length - 1];
    const turn = move.turn ?? null;
    if (last && turn !== null && last.turn === turn && sameActor(last.actor, move.actor)) {
      last.steps.push({ index, move });
    } else {
      lines.push({ turn, actor: move.actor, steps: [{ index, move }] });
    }
  });
  return lines;
}

/** Whether a line is shown folded (its first and last steps, the count between, expandable): a turn
 * of three steps or more. */
export function collapsible(line: MoveLine): boolean {
  return line.steps.length >= 3;
}

export function actorName(actor: Actor, seats: SeatInfo[]): string {
  return actor === 'chance' ? 'Chance' : (seats[actor.seat]?.name ?? `Seat ${actor.seat + 1}`);
}

/** The text of the step at position `k` of its line. In words, a later step drops the actor's name
 * its line already gave ("Gold: Heavy D0 → C1", then "Heavy C1 → B2"); in notation, the line starts
 * with the actor's name and each step is its notation ("(hidden)" when hidden from this observer). */
export function stepText(m: MoveEntry, k: number, seats: SeatInfo[], notation: boolean): string {
  const who = actorName(m.actor, seats);
  if (notation || m.words == null) {
    const n = m.notation ?? '(hidden)';
    return k === 0 ? `${who}: ${n}` : n;
  }
  if (k > 0 && m.words.startsWith(`${who}: `)) return m.words.slice(who.length + 2);
  return m.words;
}

/** Whether the player chose engine notation over words (kept on this device). */
export function prefersNotation(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function setPrefersNotation(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    /* storage disabled: the switch holds for this page only */
  }
}
