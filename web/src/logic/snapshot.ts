// The client's model of a game, built from the server's `snapshot` and `update` messages
// (docs/protocol.md). Pure logic: merging events, detecting gaps, deriving the move list.

import type { GameMessage } from '../wire/server/GameMessage';
import type { GameEvent } from '../wire/server/GameEvent';
import type { SeatInfo } from '../wire/server/SeatInfo';
import type { ClockState } from '../wire/server/ClockState';
import type { Actor } from '../wire/core/Actor';
import type { Outcome } from '../wire/core/Outcome';
import type { ToAct } from '../wire/core/ToAct';

// The messages' types are generated from the server's (crates/server/src/wire/game.rs).
export type { Actor, ClockState as ClockInfo, GameEvent, Outcome, SeatInfo, ToAct };

/** A game as one observer sees it: the last snapshot, with the updates since merged in. */
export type Snapshot = GameMessage;

export interface MoveEntry {
  seq: number;
  actor: Actor;
  notation: string | null;
  /** The cells the action involves (none when hidden or chosen by a button). */
  cells: string[];
  /** The action in plain words (none from a server that sends none). */
  words?: string | null;
  /** The turn it belongs to (none when unknown). */
  turn?: number | null;
}

/** Merges a server message into the current model. Returns the new model and whether a gap was seen
 * (the client must then send `sync`). A `snapshot` replaces events only when it carries the whole log. */
export function merge(current: Snapshot | null, msg: GameMessage): { model: Snapshot; gap: boolean } {
  const incoming = msg.events;
  if (!current || current.id !== msg.id) {
    const events = [...incoming].sort((a, b) => a.seq - b.seq);
    return { model: { ...msg, events }, gap: false };
  }
  const known = new Map<number, GameEvent>();
  for (const e of current.events) known.set(e.seq, e);
  for (const e of incoming) known.set(e.seq, e);
  const events = [...known.values()].sort((a, b) => a.seq - b.seq);
  // A gap: an update whose first event does not follow the last seq this client had. (A snapshot
  // answers a connect or a sync and is complete by definition.)
  let gap = false;
  if (msg.type === 'update' && incoming.length > 0) {
    const first = Math.min(...incoming.map((e) => e.seq));
    gap = first > current.seq + 1;
  }
  return { model: { ...msg, events }, gap };
}

/** An `action` event. */
export type ActionEvent = Extract<GameEvent, { kind: 'action' }>;

/** The move list: every `action` event by a seat, and chance events whose outcome this observer sees. */
export function moveList(events: GameEvent[]): MoveEntry[] {
  return standingActions(events)
    .map((e) => ({
      seq: e.seq,
      actor: e.actor,
      notation: e.notation,
      cells: e.cells,
      words: e.words,
      turn: e.turn,
    }));
}

/** The action events of the game as it stands: a `takeback` event (its `to_seq`, the last event kept)
 * undoes the actions after it, which stay in the log but are no longer the game's moves. */
export function standingActions(events: GameEvent[]): ActionEvent[] {
  const out: ActionEvent[] = [];
  for (const e of events) {
    if (e.kind === 'action') out.push(e);
    else if (e.kind === 'takeback') {
      const keep = e.to_seq;
      while (out.length && out[out.length - 1].seq > keep) out.pop();
    }
  }
  return out;
}

/** The last takeback answer since the last action or offer: who declined (`declined`), or the seat
 * whose turn was taken back (`done`); null when there is none to tell. */
export function lastTakeback(s: Snapshot): { declined: number } | { done: number } | null {
  for (let i = s.events.length - 1; i >= 0; i--) {
    const e = s.events[i];
    if (e.kind === 'takeback_decline') return { declined: e.seat };
    if (e.kind === 'takeback') return { done: e.seat };
    if (e.kind === 'action' || e.kind === 'takeback_offer') return null;
  }
  return null;
}

/** The last chance outcomes since the last seat action (dice rolls to show). */
export function recentChance(events: GameEvent[]): string[] {
  const out: string[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.kind !== 'action') continue;
    if (e.actor !== 'chance') break;
    // The engine's words ("Dice: 3 and 5"); the notation only from a server that sends no words.
    const text = e.words?.trim() || e.notation;
    if (text) out.unshift(text);
  }
  return out;
}

export function mySeat(s: Snapshot): number | null {
  return typeof s.you === 'object' && s.you !== null ? s.you.seat : null;
}

/** Seats that owe a decision now. */
export function seatsToAct(t: ToAct): number[] {
  if (typeof t !== 'object' || t === null) return [];
  if ('seat' in t) return [t.seat];
  if ('seats' in t) return t.seats;
  return [];
}

export function outcomeOf(s: Snapshot): Outcome | null {
  if (s.result) return s.result;
  const t = s.to_act;
  return typeof t === 'object' && t !== null && 'over' in t ? t.over : null;
}

/** A human sentence about who must act now, addressed to the seat looking (`you`) when it plays. */
export function statusLine(s: Snapshot): string {
  const name = (i: number) => s.seats[i]?.name ?? `Seat ${i + 1}`;
  const me = mySeat(s);
  const over = outcomeOf(s);
  if (over) {
    const why = over.reason ? ` — ${over.reason.charAt(0).toUpperCase()}${over.reason.slice(1)}` : '';
    const winners = over.results.flatMap((r, i) => (r === 'win' ? [i] : []));
    if (winners.length === 0) return `Draw${why}`;
    if (me !== null && winners.includes(me)) {
      const others = winners.filter((w) => w !== me).map(name);
      return others.length ? `You and ${others.join(' and ')} win${why}` : `You win${why}`;
    }
    if (me !== null && over.results[me] === 'loss' && winners.length === 1) return `You lose${why}: ${name(winners[0])} wins`;
    return `${winners.map(name).join(' and ')} ${winners.length > 1 ? 'win' : 'wins'}${why}`;
  }
  if (s.status === 'waiting') {
    const open = s.seats.filter((x) => x.kind === 'human' && !x.joined);
    if (me === null) return `Waiting for players to join: ${open.map((x) => x.name).join(', ')}`;
    if (open.length === 1) return `Waiting for your opponent to join (${open[0].name})`;
    return `Waiting for ${open.length} more players to join (${open.map((x) => x.name).join(', ')})`;
  }
  if (s.to_act === 'chance') return 'Rolling / dealing…';
  const seats = seatsToAct(s.to_act);
  if (me !== null && seats.includes(me)) {
    return seats.length > 1 ? 'Your decision (the others decide at the same time, unseen)' : 'Your move';
  }
  return `Waiting for ${seats.map(name).join(', ')}`;
}

/** What the status line says, for styling and for tests: the game is over, waits for players to join,
 * waits for this seat's decision, or for someone else's. */
export type StatusState = 'over' | 'waiting' | 'yours' | 'others';

export function statusState(s: Snapshot): StatusState {
  if (outcomeOf(s)) return 'over';
  if (s.status === 'waiting') return 'waiting';
  const me = mySeat(s);
  return me !== null && seatsToAct(s.to_act).includes(me) ? 'yours' : 'others';
}

/** The seats shown as "to act" beside their names: nobody while the game waits for players or is over. */
export function seatsMarkedToAct(s: Snapshot): number[] {
  return s.status === 'waiting' || outcomeOf(s) ? [] : seatsToAct(s.to_act);
}

/** The last answer to a draw offer, when it is the latest thing that happened (no move since): the
 * seat that declined, or null. */
export function drawDeclinedBy(s: Snapshot): number | null {
  for (let i = s.events.length - 1; i >= 0; i--) {
    const e = s.events[i];
    if (e.kind === 'draw_decline') return e.seat;
    if (e.kind === 'action' || e.kind === 'draw_offer' || e.kind === 'draw_accept') return null;
  }
  return null;
}

/** My result, for the game-over dialog. */
export function myResult(over: Outcome, seat: number | null): string {
  if (seat === null) return 'Game over';
  const r = over.results[seat];
  if (r === 'win') return 'You win!';
  if (r === 'draw') return 'Draw';
  if (r === 'loss') return 'You lose';
  return 'Game over';
}

/** Whether a clock shows as low (red): under 10 seconds on a Fischer clock (a correspondence clock counts
 * days: under an hour). */
export function clockIsLow(ms: number, kind: string): boolean {
  return ms < (kind === 'correspondence' ? 3_600_000 : 10_000);
}

/** Formats a clock's remaining time as m:ss (h:mm:ss past an hour, days for correspondence). */
export function formatClock(ms: number): string {
  const t = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(t / 86400);
  const hh = Math.floor((t % 86400) / 3600);
  const mm = Math.floor((t % 3600) / 60);
  const ss = t % 60;
  const p = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${d}d ${hh}h`;
  if (hh > 0) return `${hh}:${p(mm)}:${p(ss)}`;
  return `${mm}:${p(ss)}`;
}
