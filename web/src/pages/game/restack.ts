// The game page's stack editor (Kyo's shuffle): opened at a stack whose only actions there are
// reorders, it holds the arrangement the player makes (logic/restack.ts) and sends the listed reorder
// it matches on "Done". No DOM: views/restack.ts draws it.

import { reordersAt, StackEditor, type RestackCodec } from '../../logic/restack';
import type { LegalAction } from '../../logic/select';

export interface RestackHost {
  send(a: LegalAction): void;
  redraw(): void;
}

export class Restacker {
  editor: StackEditor | null = null;

  constructor(private readonly host: RestackHost) {}

  /** Opens the editor at `cell` when every action in `options` reorders that stack (two or more) and
   * the game can say its chips; returns whether it did. */
  open(codec: RestackCodec | undefined, view: unknown, cell: string, options: LegalAction[]): boolean {
    if (!codec || options.length < 2) return false;
    if (!options.every((a) => codec.reorder(a.action)?.at === cell)) return false;
    const chips = codec.chips(view, cell);
    if (!chips || chips.length < 2) return false;
    this.editor = new StackEditor(cell, chips, options, codec);
    return true;
  }

  close(): void {
    this.editor = null;
  }

  /** A new state came: the editor stays only while the same reorders are listed for its stack (an
   * update that changed nothing for this player: a join, a draw offer). */
  keep(codec: RestackCodec | undefined, legal: LegalAction[]): void {
    const ed = this.editor;
    if (!ed || !codec) {
      this.editor = null;
      return;
    }
    const now = reordersAt(legal, codec, ed.at).map((a) => a.notation).join(' ');
    if (now !== ed.options.map((a) => a.notation).join(' ')) this.editor = null;
  }

  tap(i: number): void {
    this.editor?.tap(i);
    this.host.redraw();
  }

  move(from: number, to: number): void {
    this.editor?.move(from, to);
    this.host.redraw();
  }

  reset(): void {
    this.editor?.reset();
    this.host.redraw();
  }

  /** "Done": sends the listed reorder the arrangement is (nothing when it is none). */
  done(): void {
    const a = this.editor?.match();
    if (!a) return;
    this.editor = null;
    this.host.send(a);
  }

  cancel(): void {
    this.editor = null;
    this.host.redraw();
  }
}
