// The seat's requests about the game as a whole: resign, draw and takeback offers and answers (over the
// seat's socket), the record's download and the rematch (over HTTP). No DOM.

import { routes, type Call } from '../../api';
import type { ClientOp } from '../../conn';
import type { Snapshot } from '../../logic/snapshot';
import type { SeatCredential } from '../../store';
import type { JsonRecord } from '../../logic/record';

/** What the seat operations need of the page. */
export interface OpsHost {
  model(): Snapshot | null;
  /** This device's seats (hot-seat: several). */
  creds(): SeatCredential[];
  /** Sends on `seat`'s socket. */
  send(msg: ClientOp, seat: number): void;
  call: Call;
  saveSeat(game: string, cred: SeatCredential): void;
  download(rec: JsonRecord): void;
  navigate(path: string): void;
  /** Shows an error and redraws. */
  error(text: string): void;
  /** Clears the error shown (drawn with the next change). */
  clearError(): void;
}

export class SeatOps {
  constructor(private readonly id: string, private readonly host: OpsHost) {}

  resign(seat: number): void {
    this.host.send({ type: 'resign' }, seat);
  }

  drawOp(op: 'offer' | 'accept' | 'decline', seat: number): void {
    this.host.send({ type: 'draw', op }, seat);
  }

  takebackOp(op: 'offer' | 'accept' | 'decline', seat: number): void {
    if (op === 'offer') this.host.clearError();
    this.host.send({ type: 'takeback', op }, seat);
  }

  /** Whether every seat but `me` is played by the AI (a takeback is then immediate). */
  againstAi(me: number): boolean {
    return !!this.host.model()?.seats.every((s) => s.seat === me || s.kind === 'ai');
  }

  async exportRecord(): Promise<void> {
    try {
      this.host.download(await this.host.call(routes['GET /api/games/{id}/record'], { params: { id: this.id } }));
    } catch (e) {
      this.host.error(e instanceof Error ? e.message : String(e));
    }
  }

  /** Every seat of this device asks (the first creates the rematch, the others join it), so a
   * hot-seat rematch starts at once, again on this device, the sides swapped. */
  async rematch(): Promise<void> {
    const creds = this.host.creds();
    if (!creds.length) return;
    try {
      let next = '';
      for (const c of creds) {
        const r = await this.host.call(routes['POST /api/games/{id}/rematch'], { params: { id: this.id }, body: { seat: c.seat, token: c.token } });
        this.host.saveSeat(r.id, { seat: r.seat, token: r.token });
        next = r.id;
      }
      this.host.navigate(`/game/${next}`);
    } catch (e) {
      this.host.error(e instanceof Error ? e.message : String(e));
    }
  }
}
