// Replay navigation: stepping through the positions of a game (finished, imported or live) with the
// server's `GET /api/games/{id}/view/{n}` (docs/protocol.md): the observer's view after the first n
// action events (chance included), 0 <= n <= total. Pure logic with an injected fetcher, so it is unit
// tested without a server. Fetched positions are cached (a position after n events never changes for a
// given observer); a step that a later step overtakes is dropped, so fast clicking never draws an older
// position last.

import type { MoveEntry } from './snapshot';
import type { Position } from '../wire/server/Position';
import type { PositionLast } from '../wire/server/PositionLast';

/** One position of a replay, as the server sends it (generated from `wire::api::Position`). */
export type { Position };

/** Who asks: a seat with its token, or a spectator. */
export interface ViewCredential {
  seat: number;
  token: string;
}

/** The query and headers of a request as `cred`'s seat (the token goes in a header, not in the URL):
 * a position, a snapshot. */
export function viewRequest(cred: ViewCredential | null): { query: { seat?: number }; headers: Record<string, string> } {
  if (!cred) return { query: {}, headers: {} };
  return { query: { seat: cred.seat }, headers: { authorization: `Bearer ${cred.token}` } };
}

export type Fetcher = (n: number) => Promise<Position>;

/** Where a replay stands and how it moves. */
export class ReplayNav {
  /** The position shown (or being fetched). */
  n: number;
  /** The number of action events known (grows while a live game goes on). */
  total: number;
  private readonly cache = new Map<number, Position>();
  private readonly inflight = new Map<number, Promise<Position>>();
  private ticket = 0;

  constructor(private readonly fetcher: Fetcher, total: number, n = total) {
    this.total = Math.max(0, total);
    this.n = this.clamp(n);
  }

  clamp(k: number): number {
    if (!Number.isFinite(k)) return this.total;
    return Math.max(0, Math.min(this.total, Math.trunc(k)));
  }

  /** A live game went on: more positions exist. (The total never shrinks.) */
  setTotal(total: number): void {
    if (total > this.total) this.total = total;
  }

  cached(k: number): Position | undefined {
    return this.cache.get(k);
  }

  /** How many positions are cached (for tests and diagnostics). */
  get cachedCount(): number {
    return this.cache.size;
  }

  /** The position after k events, from the cache or the server (one request per position at a time). */
  fetch(k: number): Promise<Position> {
    const hit = this.cache.get(k);
    if (hit) return Promise.resolve(hit);
    const running = this.inflight.get(k);
    if (running) return running;
    const p = this.fetcher(k).then(
      (pos) => {
        this.inflight.delete(k);
        if (pos.n !== k) throw new Error(`asked for position ${k}, the server sent ${pos.n}`);
        this.cache.set(k, pos);
        this.setTotal(pos.total);
        return pos;
      },
      (e: unknown) => {
        this.inflight.delete(k);
        throw e;
      },
    );
    this.inflight.set(k, p);
    return p;
  }

  /** Goes to position k (clamped). Resolves with the position, or null when a later step overtook this
   * one (the caller then draws nothing). Rejects with the server's error (the position stays where the
   * request was aimed, so stepping on works). */
  async goto(k: number): Promise<Position | null> {
    const target = this.clamp(k);
    this.n = target;
    const mine = ++this.ticket;
    let pos: Position;
    try {
      pos = await this.fetch(target);
    } catch (e) {
      if (mine !== this.ticket) return null; // overtaken: its failure is no longer news
      throw e;
    }
    if (mine !== this.ticket) return null;
    return pos;
  }

  first(): Promise<Position | null> {
    return this.goto(0);
  }

  prev(): Promise<Position | null> {
    return this.goto(this.n - 1);
  }

  next(): Promise<Position | null> {
    return this.goto(this.n + 1);
  }

  last(): Promise<Position | null> {
    return this.goto(this.total);
  }

  atStart(): boolean {
    return this.n <= 0;
  }

  atEnd(): boolean {
    return this.n >= this.total;
  }
}

/** The position a click on move `index` (0-based) of the move list shows: after that move. The move list
 * holds every action event, hidden and chance ones included, so move i is event i+1. */
export function positionOfMove(index: number): number {
  return index + 1;
}

/** The cells to highlight as the last move before position n: those of the last turn, i.e. the run of
 * consecutive actions of the seat that acted last (a Kyo chain and its `end`, a Territories build then
 * `end`), skipping chance. Each action's cells come from the server (hidden actions and buttons, such as
 * a whole Cyvasse army, have none). Falls back to the server's `last` when the move list is shorter
 * than n. */
export function lastMoveCells(moves: MoveEntry[], n: number, last: PositionLast | null = null): string[] {
  if (n > moves.length) return last && last.actor !== 'chance' ? [...last.cells] : [];
  let seat: number | null = null;
  const out: string[] = [];
  for (let i = Math.min(n, moves.length) - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.actor === 'chance') continue;
    if (seat === null) seat = m.actor.seat;
    else if (m.actor.seat !== seat) break;
    for (const c of m.cells) if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** The turn of the last seat move before position n, as a key ("turn:seat"; the move's seq when the
 * game does not number its turns), or undefined when there is none: the steps of one turn share one
 * animation budget. */
export function lastTurnKey(moves: MoveEntry[], n: number): string | undefined {
  for (let i = Math.min(n, moves.length) - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.actor === 'chance') continue;
    return typeof m.turn === 'number' ? `${m.turn}:${m.actor.seat}` : `seq ${m.seq}`;
  }
  return undefined;
}

/** The chance outcomes (dice, draws) right before position n, after the last seat move. */
export function chanceAt(moves: MoveEntry[], n: number): string[] {
  const out: string[] = [];
  for (let i = Math.min(n, moves.length) - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.actor !== 'chance') break;
    if (m.notation) out.unshift(m.notation);
  }
  return out;
}
