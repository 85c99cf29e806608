// Reordering a stack by direct manipulation (Kyo's shuffle): the chips of the lifted slice drawn as a
// column the player rearranges (drag a chip to another place, or tap two chips to swap them), then
// "Done". The client never decides legality: the arrangement is matched against the reorders the
// server listed for the stack, and only a listed one can be confirmed; for any other the editor says
// in words why it is not among them. No DOM.

import type { LegalAction } from './select';

/** One chip of the editable slice: its kind (a game's letter, `D`, `L`, `S`) and its owner's seat. */
export interface Chip {
  kind: string;
  owner: number;
}

/** How a game names its reorders: the stack's chips (bottom to top) and each listed reorder's stack
 * and new order (bottom to top, from the lowest changed chip up), read from the action's JSON. */
export interface RestackCodec {
  chips(view: unknown, cell: string): Chip[] | null;
  reorder(action: unknown): { at: string; order: string } | null;
  /** The game's words for a chip kind ("Dark Mana"). */
  kindName(kind: string): string;
  /** How a chip is drawn in the editor: its fill, its ink and its edge (the owner's colour). */
  look(chip: Chip): { fill: string; ink: string; edge: string };
  /** Whether a chip kind is a Shield (which may not lie under a Mana chip of the slice). */
  isShield(kind: string): boolean;
}

/** The reorders listed for the stack on `cell`. */
export function reordersAt(legal: LegalAction[], codec: RestackCodec, cell: string): LegalAction[] {
  return legal.filter((a) => codec.reorder(a.action)?.at === cell);
}

export class StackEditor {
  /** The chips that may move (the top of the stack, as deep as the deepest listed reorder), bottom
   * to top, as they stand now. */
  readonly start: Chip[];
  /** The chips below them, which stay. */
  readonly below: Chip[];
  /** The arrangement so far, bottom to top (indices into `start`). */
  arranged: number[];
  /** The chip tapped first (its place in `arranged`), waiting for the second tap of a swap. */
  picked: number | null = null;

  constructor(readonly at: string, chips: Chip[], readonly options: LegalAction[], private readonly codec: RestackCodec) {
    const depth = Math.min(chips.length, Math.max(0, ...options.map((a) => codec.reorder(a.action)?.order.length ?? 0)));
    this.start = chips.slice(chips.length - depth);
    this.below = chips.slice(0, chips.length - depth);
    this.arranged = this.start.map((_, i) => i);
  }

  /** The arrangement's chips, bottom to top. */
  chips(): Chip[] {
    return this.arranged.map((i) => this.start[i]);
  }

  /** A tap on the chip at place `i` (bottom = 0): the first picks it, the second swaps the two (a tap
   * on the picked chip again drops the pick). */
  tap(i: number): void {
    if (i < 0 || i >= this.arranged.length) return;
    if (this.picked === null) {
      this.picked = i;
      return;
    }
    const j = this.picked;
    this.picked = null;
    if (j === i) return;
    [this.arranged[i], this.arranged[j]] = [this.arranged[j], this.arranged[i]];
  }

  /** A drag of the chip at place `from` to place `to`: it is taken out and put there, the chips
   * between close up. */
  move(from: number, to: number): void {
    const n = this.arranged.length;
    if (from < 0 || from >= n || to < 0 || to >= n || from === to) return;
    this.picked = null;
    const [c] = this.arranged.splice(from, 1);
    this.arranged.splice(to, 0, c);
  }

  reset(): void {
    this.arranged = this.start.map((_, i) => i);
    this.picked = null;
  }

  /** The new order as the game writes it: the kinds from the lowest changed chip up ('' when nothing
   * changed). Chips of one kind are alike: only kinds count. */
  order(): string {
    const now = this.chips();
    const low = now.findIndex((c, i) => c.kind !== this.start[i].kind);
    return low < 0 ? '' : now.slice(low).map((c) => c.kind).join('');
  }

  /** The listed reorder the arrangement is, or null. */
  match(): LegalAction | null {
    const order = this.order();
    if (!order) return null;
    return this.options.find((a) => {
      const r = this.codec.reorder(a.action);
      return r !== null && r.at === this.at && r.order === order;
    }) ?? null;
  }

  /** Why the arrangement cannot be confirmed, in words (null when it can). The legality is the
   * server's list; these words only name what the arrangement breaks. */
  why(): string | null {
    if (this.match()) return null;
    if (!this.order()) return 'This is the order the stack has now: move a chip to change it.';
    const now = this.chips();
    const shield = now.findIndex((c) => this.codec.isShield(c.kind));
    const manaAbove = shield >= 0 && now.slice(shield + 1).some((c) => !this.codec.isShield(c.kind));
    if (manaAbove) return `A ${this.codec.kindName(now[shield].kind)} may not lie under a Mana chip: put the Shields on top.`;
    return 'The rules do not allow this order now.';
  }
}
