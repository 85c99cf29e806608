// Which of this device's seats the page shows (hot-seat: several seats on one device, one WebSocket
// each): the one owing the decision, once every local seat's state is at the same position; passing
// the device between seats whose views differ covers the board first. No DOM.

import { inStep, needsCover, seatToShow } from '../../logic/hotseat';
import { outcomeOf, seatsToAct, type Snapshot } from '../../logic/snapshot';
import type { SeatCredential } from '../../store';

/** The key of the spectator's connection (seats are 0, 1, …). */
export const SPECTATOR = -1;

export class LocalSeats {
  readonly local: number[];
  readonly hotseat: boolean;
  /** The seat shown (hot-seat: chosen once every seat's state is in; null: none yet, or spectating). */
  shown: number | null;
  cred: SeatCredential | null;
  /** Hot-seat: the seat the device must be handed to before its board shows, or null. */
  cover: number | null = null;

  constructor(readonly creds: SeatCredential[]) {
    this.local = creds.map((c) => c.seat);
    this.hotseat = this.local.length > 1;
    this.shown = this.hotseat ? null : (this.local[0] ?? null);
    this.cred = this.hotseat ? null : (creds[0] ?? null);
  }

  /** The connection key of a seat (the spectator's for null). */
  static key(seat: number | null): number {
    return seat ?? SPECTATOR;
  }

  get shownKey(): number {
    return LocalSeats.key(this.shown);
  }

  /** Hot-seat: once every local seat's state is at the same position, shows the seat owing the
   * decision. Returns whether the shown seat changed. */
  choose(models: Map<number, Snapshot>): boolean {
    if (!this.hotseat) return false;
    const states = this.local.map((s) => models.get(s));
    if (!inStep(states)) return false;
    const now = models.get(this.local[0]);
    if (!now) return false;
    const next = seatToShow(this.local, outcomeOf(now) ? [] : seatsToAct(now.to_act), this.shown);
    if (next === null || next === this.shown) return false;
    const first = this.shown === null;
    const target = models.get(next);
    // On opening the page the other seats' views are compared with it (someone else may be looking).
    const others = first ? this.local.filter((s) => s !== next) : [this.shown as number];
    this.cover = others.some((s) => needsCover(models.get(s), target)) ? next : null;
    this.shown = next;
    this.cred = this.creds.find((c) => c.seat === next) ?? null;
    return true;
  }

  /** The seats of this device that answer an offer (hot-seat: each local seat; else the shown one). */
  answering(me: number | null, accepted: number[]): number[] {
    return (this.hotseat ? this.local : me !== null ? [me] : []).filter((s) => !accepted.includes(s));
  }
}
