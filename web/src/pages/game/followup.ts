// The second half of a move the engine splits in two (Syba's `army …`/`attack …` then `confirm`,
// Cyvasse Trump's horse leg then `end`): armed by a board click-click that sent the first half, it
// gives the renderer's follow-up once the player's next decision is in, then disarms. No DOM.

import type { Renderer } from '../../games/types';
import type { LegalAction } from '../../logic/select';
import { mySeat, type Snapshot } from '../../logic/snapshot';

export class FollowUp {
  private armed = false;

  /** A board click-click sent a move: its follow-up, if the renderer has one, goes next. */
  arm(renderer: Renderer): void {
    this.armed = renderer.followUp !== undefined;
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
    return seat === null ? null : renderer.followUp?.(model.view, model.legal, seat) ?? null;
  }
}
