// The clocks: what each seat's clock face shows at a moment (pure), and the ticker that refreshes them
// twice a second while the page is open. The ticker touches only the clocks, not the page (the one
// redraw path stays for state changes), as a chess clock does.

import { clockIsLow, formatClock, outcomeOf, type Snapshot } from '../../logic/snapshot';

export interface ClockFace {
  text: string;
  running: boolean;
  low: boolean;
}

/** Each seat's clock at `now` (ms): counted down from the server's time of the message. */
export function clockFaces(model: Snapshot | null, now: number): ClockFace[] {
  if (!model?.clock) return [];
  const lag = now - (model.now ?? now);
  const over = outcomeOf(model) !== null;
  const kind = model.clock.kind ?? '';
  return model.clock.seats.map((c) => {
    const running = c.running && !over;
    const ms = running ? c.remaining_ms - Math.max(0, lag) : c.remaining_ms;
    return { text: formatClock(ms), running, low: clockIsLow(ms, kind) };
  });
}

/** Calls `tick` every TICK_MS until stopped. */
export class ClockTicker {
  static readonly TICK_MS = 500;
  private timer: ReturnType<typeof setInterval> | undefined;

  start(tick: () => void): void {
    this.stop();
    this.timer = setInterval(tick, ClockTicker.TICK_MS);
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
