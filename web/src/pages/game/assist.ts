// The engine's help at the shown seat's decision: a hint (games against the AI, casual; the server
// says when in the snapshot's `may.hint`) and why a click led to no legal action (`explain`). No DOM.

import { routes, type Call } from '../../api';
import type { Hint } from '../../logic/hint';
import type { ExplainReq } from '../../wire/server/ExplainReq';
import type { SeatCredential } from '../../store';

/** What the assistant needs of the page: the live position and the HTTP calls. */
export interface AssistHost {
  /** The shown seat's position now (seq), and its seat; null before the first snapshot. */
  at(): { seq: number; seat: number | null } | null;
  cred(): SeatCredential | null;
  call: Call;
  redraw(regions?: ('header' | 'board' | 'side')[]): void;
  error(text: string): void;
}

export class Assist {
  /** The hint for the decision at `seq` (valid while the game stays there). */
  hint: (Hint & { seq: number }) | null = null;
  busy = false;
  /** Why the last click led to no legal action (the engine's words), shown until the next click. */
  explained: string | null = null;
  private asked = 0;

  constructor(private readonly gameId: string, private readonly host: AssistHost) {}

  /** A new state came: a hint or explanation for an older position goes. */
  onState(seq: number, seat: number | null, prevSeq: number | null): void {
    if (prevSeq !== null && prevSeq !== seq) this.explained = null;
    if (this.hint && (this.hint.seq !== seq || this.hint.seat !== seat)) this.hint = null;
  }

  /** A click: the previous explanation goes. */
  clearExplanation(): void {
    this.explained = null;
  }

  async askHint(): Promise<void> {
    const at = this.host.at();
    const cred = this.host.cred();
    if (!at || !cred || this.busy) return;
    const asked = { seq: at.seq, seat: cred.seat };
    this.busy = true;
    this.host.error('');
    this.host.redraw(['side']);
    try {
      // The OpenAPI document does not describe the hint's answer (the AI crate's `Hint`, declared in
      // web/src/wire/ai/ but not in the document's schemas): its declaration is named here.
      const got = (await this.host.call(routes['POST /api/games/{id}/hint'], { params: { id: this.gameId }, body: { seat: cred.seat, token: cred.token } })) as Hint;
      // Kept only if the game is still where it was asked (no move came meanwhile).
      const now = this.host.at();
      if (now && now.seq === asked.seq && now.seat === asked.seat) this.hint = { ...got, seq: asked.seq };
    } catch (e) {
      this.host.error(e instanceof Error ? e.message : String(e));
    } finally {
      this.busy = false;
      this.host.redraw();
    }
  }

  /** Asks the engine why the clicked cells lead to no legal action (`POST /api/games/{id}/explain`);
   * its answer shows near the board until the next click; nothing when it has nothing to say. */
  async explain(cells: string[]): Promise<void> {
    const at = this.host.at();
    const cred = this.host.cred();
    if (!at || !cred) return;
    const asked = ++this.asked;
    try {
      const ask: ExplainReq = { seat: cred.seat, token: cred.token, cells };
      const got = await this.host.call(routes['POST /api/games/{id}/explain'], { params: { id: this.gameId }, body: ask });
      // Shown only for the last click, in the position it was asked about.
      if (asked !== this.asked || this.host.at()?.seq !== at.seq || typeof got?.reason !== 'string' || !got.reason) return;
      this.explained = got.reason;
      // A line under the status (views/header.ts), beside the board.
      this.host.redraw(['header']);
    } catch {
      // The explanation is a courtesy: a refused or failed question shows nothing.
    }
  }
}
