// The second half of a move the engine splits in two (Syba's `army …`/`attack …` then `confirm`,
// Cyvasse Trump's horse leg then `end`): armed by a board click-click that sent the first half, it
// gives the renderer's follow-up once the player's next decision is in, then disarms. Armed by the
// actions card's common button instead (`repeat`: Territories' payment, one resource at a time), it
// gives the renderer's next common action for as long as there is one. No DOM.

import type { Renderer } from '../../games/types';
import type { LegalAction, Selection } from '../../logic/select';
import { mySeat, type Snapshot } from '../../logic/snapshot';

export class FollowUp {
  private armed = false;
  /** The actions the arming click-click may send (the one it completed, or those its chooser offers). */
  private moves: readonly unknown[] = [];
  /** Armed by a common button: the follow-up is the renderer's next common action, again and again. */
  private repeating = false;

  /** A board click-click completed `moves` (one, or a chooser's): the follow-up, if the renderer has
   * one, goes after the one of them that is sent. */
  arm(renderer: Renderer, moves: readonly unknown[]): void {
    this.armed = renderer.followUp !== undefined;
    this.moves = moves;
    this.repeating = false;
  }

  /** The actions card's common button sends `action`: after it, the renderer's next common action
   * while there is one (the rest of a payment), each of them from the list the server sent then. */
  repeat(renderer: Renderer, action: LegalAction): void {
    this.armed = renderer.common !== undefined;
    this.moves = [action];
    this.repeating = true;
  }

  /** An action goes out: any other than the armed moves (a button, "Other ways…") disarms. */
  sending(a: unknown): void {
    if (!this.moves.includes(a)) this.armed = false;
  }

  disarm(): void {
    this.armed = false;
  }

  /** The follow-up to send now, given the shown seat's decision (none while an action is on its
   * way); disarms once the decision after the move was seen, whether it had one or not. */
  take(renderer: Renderer, model: Snapshot, pending: boolean): LegalAction | null {
    if (!this.armed || pending) return null;
    this.armed = false;
    const seat = mySeat(model);
    if (seat === null) return null;
    if (!this.repeating) return renderer.followUp?.(model.view, model.legal, seat) ?? null;
    const next = renderer.common?.(model.view, model.legal, seat)?.action ?? null;
    // Still repeating after this one: it is among the moves that keep the chain armed.
    this.armed = next !== null;
    this.moves = next ? [next] : [];
    return next;
  }
}

/** Whether "Other ways…" offers something for the selection: a target's other ways, or a move without
 * its follow-up. */
export function offersOtherWays(renderer: Renderer, sel: Selection): boolean {
  if (renderer.followUp) return sel.targets().size > 0;
  return sel.commonFirst && sel.prefix.length > 0 && [...sel.targets()].some((t) => sel.complete([...sel.prefix, t]).length > 1);
}
