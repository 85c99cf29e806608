// Stepping back through a live game: the positions come from the server (`view/{n}`), cached by
// `ReplayNav`; `position` is the one shown (null: the live position). No DOM.

import { ReplayNav, type Fetcher, type Position } from '../../logic/replay';

export class Review {
  nav: ReplayNav;
  position: Position | null = null;
  error = '';

  constructor(fetcher: Fetcher, private readonly redraw: () => void) {
    this.nav = new ReplayNav(fetcher, 0);
  }

  /** Another seat is shown (hot-seat): its own positions, back to the live game. */
  reset(fetcher: Fetcher): void {
    this.nav = new ReplayNav(fetcher, 0);
    this.position = null;
    this.error = '';
  }

  /** Whether the page shows an earlier position (or failed to fetch one) rather than the live game. */
  get active(): boolean {
    return this.position !== null || this.error !== '';
  }

  /** Shows the position after k actions (k ≥ total, the number of actions so far: the live game). */
  async goto(k: number, total: number): Promise<void> {
    this.error = '';
    if (k >= total) {
      this.position = null;
      this.redraw();
      return;
    }
    let pos: Position | null;
    try {
      pos = await this.nav.goto(k);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
      this.position = null; // the banner shows the error and the steps; no stale board under a new label
      this.redraw();
      return;
    }
    if (!pos) return; // overtaken by a later step
    this.position = pos;
    this.redraw();
  }

  leave(): void {
    this.position = null;
    this.error = '';
    this.redraw();
  }
}
