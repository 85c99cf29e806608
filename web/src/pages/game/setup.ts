// The hidden-setup editor's state (Cyvasse): a draft army edited by swapping two cells of the own half,
// then sent as one action; the server's reasons when it refuses it. No DOM (views/setup.ts draws it).

import type { LegalAction } from '../../logic/select';
import { setupLabel, setupRefusal, swap, type SetupDraft, type SwapMode } from '../../logic/setup';
import type { SetupCodec } from '../../games/types';

export class SetupEditor {
  codec: SetupCodec | null = null;
  draft: SetupDraft | null = null;
  /** The picked cell, waiting for the second of a swap. */
  picked: string | null = null;
  mode: SwapMode = 'pieces';
  /** Where the draft started ("Preset: phalanx", "edited"). */
  source = '';
  /** Whether the action on its way was sent from the editor (a refusal then shows in it). */
  sent = false;
  /** The server's reasons for refusing the last setup sent, and whether the draft changed since. */
  error: string[] | null = null;
  stale = false;

  /** Whether the editor is open (the seat commits a whole-army setup now). */
  get open(): boolean {
    return this.codec !== null && this.draft !== null;
  }

  /** A new state for the seat: the renderer's codec (null: no setup to make); a new draft starts
   * from the first listed setup the codec reads. */
  adopt(codec: SetupCodec | null, legal: LegalAction[]): void {
    this.codec = codec;
    if (!codec) {
      this.draft = null;
      this.picked = null;
      return;
    }
    if (this.draft) return;
    for (const [i, a] of legal.entries()) {
      const d = codec.fromAction(a.action);
      if (d) {
        this.draft = d;
        this.source = setupLabel(a.notation, i);
        return;
      }
    }
  }

  /** Another seat is shown (hot-seat): its own draft starts afresh. */
  reset(): void {
    this.draft = null;
    this.picked = null;
    this.error = null;
  }

  /** A click on a cell while the editor is open: picks it, or swaps it with the picked one. */
  click(cell: string): void {
    if (!this.codec || !this.draft || !this.codec.home.includes(cell)) return;
    if (this.picked === null) this.picked = cell;
    else if (this.picked === cell) this.picked = null;
    else {
      this.draft = swap(this.draft, this.picked, cell, this.mode);
      this.picked = null;
      this.source = 'edited';
      this.stale = this.error !== null;
    }
  }

  setMode(mode: SwapMode): void {
    this.mode = mode;
    if (mode === 'terrain') this.picked = null;
  }

  /** Starts again from listed setup `i`; false when the codec cannot read it (it is then sent as is). */
  pickListed(a: LegalAction, i: number): boolean {
    const d = this.codec?.fromAction(a.action);
    if (!d) return false;
    this.draft = d;
    this.picked = null;
    this.error = null;
    this.source = setupLabel(a.notation, i);
    return true;
  }

  /** The action of the current draft (Ready). */
  action(): unknown {
    return this.codec && this.draft ? this.codec.toAction(this.draft) : undefined;
  }

  /** The server refused an action: true when it was the setup sent from here (its reasons now show). */
  refused(message: string): boolean {
    if (!(this.sent && this.open)) return false;
    this.error = setupRefusal(message);
    this.stale = false;
    return true;
  }
}
