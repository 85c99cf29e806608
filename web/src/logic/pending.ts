// The action this page sent and is waiting for. It stays pending until the server has answered it — an
// `ack` (once the page's state has caught up with the acknowledged seq), an update carrying this seat's
// action, an `error` for it, or a full snapshot — and not merely until any update arrives (a join, a
// draw offer or the opponent's chance roll may come first): so the board never offers the old position's
// moves again while the sent one is on its way.

import type { GameEvent } from './snapshot';

export class PendingAction {
  private active = false;
  private id: number | null = null;
  private ackSeq: number | null = null;

  get pending(): boolean {
    return this.active;
  }

  /** An action went out over the WebSocket with this id (null: over HTTP, answered by its response). */
  sent(id: number | null): void {
    this.active = true;
    this.id = id;
    this.ackSeq = null;
  }

  clear(): void {
    this.active = false;
    this.id = null;
    this.ackSeq = null;
  }

  /** A snapshot or update arrived; `seq` is the page's state after it, `events` the new events. */
  onState(kind: 'snapshot' | 'update', seq: number, events: GameEvent[], me: number | null): void {
    if (!this.active) return;
    if (kind === 'snapshot') return this.clear(); // a connect or a sync: the state is complete and current
    if (this.ackSeq !== null && seq >= this.ackSeq) return this.clear();
    const mine = me !== null && events.some((e) => e.kind === 'action' && typeof e.actor === 'object' && e.actor?.seat === me);
    if (mine) this.clear();
  }

  /** The server acknowledged request `id` as event `seq`; `modelSeq` is the page's state now. */
  onAck(id: number, seq: number, modelSeq: number): void {
    if (!this.active || id !== this.id) return;
    if (modelSeq >= seq) this.clear();
    else this.ackSeq = seq;
  }

  /** The server refused request `id` (null: a message it could not read). */
  onError(id: number | null): void {
    if (!this.active) return;
    if (id === null || id === this.id) this.clear();
  }
}
