// Hot-seat play: one page holds several seats of a game (one WebSocket each, each with its own view and
// legal actions) and shows the one that owes the decision. Pure logic, no DOM.

/** The seat to show: the shown one while it still owes a decision; otherwise the first local seat that
 * owes one (simultaneous decisions — a Cyvasse setup — are taken one after the other); when no local
 * seat owes a decision, the shown one stays (or the first local seat if none is shown yet). */
export function seatToShow(local: number[], toAct: number[], shown: number | null): number | null {
  if (shown !== null && local.includes(shown) && toAct.includes(shown)) return shown;
  const next = local.find((s) => toAct.includes(s));
  if (next !== undefined) return next;
  if (shown !== null && local.includes(shown)) return shown;
  return local[0] ?? null;
}

/** Canonical JSON (object keys sorted), so that two views equal in content compare equal. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Strips the observer's own identity from a view (`{"observer": {"seat": n}, …}` in most games): two
 * seats' views that differ only in whose they are hide nothing from each other. */
function withoutObserver(view: unknown): unknown {
  if (typeof view === 'object' && view !== null && !Array.isArray(view) && 'observer' in view) {
    const { observer: _observer, ...rest } = view as Record<string, unknown>;
    return rest;
  }
  return view;
}

export interface SeatState {
  seq: number;
  view: unknown;
}

/** Whether passing the device from seat `from` to seat `to` must cover the board first: when their views
 * of the same position differ (hidden cards, a hidden setup), or when it cannot be told (either seat's
 * state unknown or at another position). Identical views (Kyo, Cyvasse after the reveal) need no cover. */
export function needsCover(from: SeatState | undefined, to: SeatState | undefined): boolean {
  if (!from || !to || from.seq !== to.seq) return true;
  return canonical(withoutObserver(from.view)) !== canonical(withoutObserver(to.view));
}

/** Whether every local seat's state is at the same position (the switch waits for the slower socket so
 * that the cover decision compares like with like). */
export function inStep(states: (SeatState | undefined)[]): boolean {
  const seqs = states.map((s) => s?.seq);
  return seqs.every((q) => q !== undefined && q === seqs[0]);
}
