// The replay's controller: the game (as this browser's seat or as a spectator), the position shown and
// the steps to others, a live game's growing move list, the engine's analysis (asked for, polled while
// it runs), the record's download. No DOM: the views (views.ts) draw from it and call its actions;
// every change ends in `redraw`. Unit-tested with a fake API and fake timers (tests/replay-ctrl.test.ts).

import { routes, type Call } from '../../api';
import { isNotFound } from '../page';
import { decisionsByPly, type AnalysisState, type DecisionAnalysis } from '../../logic/analysis';
import type { JsonRecord } from '../../logic/record';
import { ReplayNav, viewRequest, type Fetcher, type Position, type ViewCredential } from '../../logic/replay';
import { moveList, mySeat, type Snapshot } from '../../logic/snapshot';
import type { SeatCredential } from '../../store';
import type { BoardMove } from '../analysis';
import type { PositionContext, ZoomState } from '../position';

export interface ReplayEnv {
  call: Call;
  /** This device's seats in the game. */
  seats(): SeatCredential[];
  fetcher(cred: ViewCredential | null): Fetcher;
  download(record: JsonRecord): void;
}

/** All of the page, only the analysis card, or only the slider (a step on its way). */
export type ReplayRegion = 'all' | 'analysis' | 'slider';

export interface ReplayUi {
  redraw(region?: ReplayRegion): void;
  /** The game is known (once). */
  loaded(): void;
}

/** How often a running analysis's progress is asked for. */
export const POLL_MS = 700;

export class ReplayCtrl {
  snap: Snapshot | null = null;
  cred: ViewCredential | null = null;
  ctx: PositionContext | null = null;
  nav: ReplayNav | null = null;
  /** The position drawn (the one at `nav.n` once it came). */
  shown: Position | null = null;
  /** The game could not be loaded. */
  loadError = '';
  /** There is no such game to replay (the page says so, as every address that leads nowhere). */
  missing = false;
  errorText = '';
  readonly zoom: ZoomState = { on: false, left: 0, top: 0 };
  /** The engine's analysis: null while unknown (asked for once the game is over). */
  analysis: AnalysisState | null = null;
  analysisError = '';
  byPly = new Map<number, DecisionAnalysis>();
  private refreshing = false;
  private stopped = false;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly id: string, private readonly env: ReplayEnv, private readonly ui: ReplayUi) {}

  /** The snapshot as this browser's seat (when it has a working token for this game) or as a spectator.
   * A hot-seat game (this device holds several seats) is replayed as a spectator: the players share the
   * screen, and neither seat's hidden cards or setup may show to the other. */
  private async load(): Promise<{ snap: Snapshot; cred: ViewCredential | null }> {
    const seats = this.env.seats();
    const cred = seats.length === 1 ? seats[0] : null;
    if (cred) {
      try {
        return { snap: await this.snapshot(cred), cred };
      } catch {
        /* a stale token (the seat was claimed anew): watch as a spectator */
      }
    }
    return { snap: await this.snapshot(null), cred: null };
  }

  private snapshot(cred: ViewCredential | null): Promise<Snapshot> {
    const { query, headers } = viewRequest(cred);
    return this.env.call(routes['GET /api/games/{id}'], { params: { id: this.id }, query, headers });
  }

  async start(): Promise<void> {
    try {
      ({ snap: this.snap, cred: this.cred } = await this.load());
    } catch (e) {
      this.missing = isNotFound(e);
      this.loadError = e instanceof Error ? e.message : String(e);
      this.ui.redraw();
      return;
    }
    if (this.stopped) return;
    const snap = this.snap;
    this.ctx = { game: snap.game, options: snap.options, seats: snap.seats, seat: mySeat(snap), moves: moveList(snap.events) };
    this.nav = new ReplayNav(this.env.fetcher(this.cred), this.ctx.moves.length);
    this.ui.loaded();
    this.ui.redraw();
    if (!this.live()) void this.poll();
    await this.go(this.nav.total);
  }

  /** The page is left: the analysis's polling stops, late answers are dropped. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.pollTimer);
  }

  live(): boolean {
    return this.snap !== null && this.snap.status !== 'over' && this.snap.status !== 'imported';
  }

  seatNames(): string[] {
    return (this.ctx?.seats ?? []).map((s, i) => s.name ?? `Seat ${i + 1}`);
  }

  who(seat: number): string {
    return this.ctx?.seats[seat]?.name ?? `Seat ${seat + 1}`;
  }

  private redraw(region?: ReplayRegion): void {
    if (!this.stopped) this.ui.redraw(region);
  }

  /** A live game went on (a position reported a larger total): reload the move list. */
  private async refresh(): Promise<void> {
    if (this.refreshing || !this.ctx || !this.nav) return;
    this.refreshing = true;
    try {
      const next = await this.snapshot(this.cred);
      this.snap = next;
      this.ctx.moves = moveList(next.events);
      this.nav.setTotal(this.ctx.moves.length);
      this.redraw();
    } catch {
      /* keep what is shown; the next step tries again */
    } finally {
      this.refreshing = false;
    }
  }

  private setAnalysis(next: AnalysisState): void {
    this.analysis = next;
    this.byPly = next.status === 'done' ? decisionsByPly(next.analysis) : new Map();
    clearTimeout(this.pollTimer);
    if (next.status === 'running' && !this.stopped) this.pollTimer = setTimeout(() => void this.poll(), POLL_MS);
  }

  /** Asks for the analysis's state (the stored analysis, the progress of a running one, or none). */
  async poll(): Promise<void> {
    const was = this.analysis?.status;
    try {
      const got = await this.env.call(routes['GET /api/games/{id}/analysis'], { params: { id: this.id } });
      if (this.stopped) return;
      this.analysisError = '';
      this.setAnalysis(got);
    } catch (e) {
      if (this.stopped) return;
      this.analysisError = e instanceof Error ? e.message : String(e);
      // A network hiccup while it runs: ask again, more slowly.
      if (this.analysis?.status === 'running') this.pollTimer = setTimeout(() => void this.poll(), POLL_MS * 3);
    }
    // Done (or gone): the move list's marks and the board's arrows change too.
    const now = this.analysis?.status;
    this.redraw(now !== was && now !== 'running' ? 'all' : 'analysis');
  }

  async requestAnalysis(): Promise<void> {
    this.analysisError = '';
    this.setAnalysis({ status: 'running', done: 0, total: 0, waiting: true });
    this.redraw('analysis');
    try {
      const got = await this.env.call(routes['POST /api/games/{id}/analysis'], { params: { id: this.id } });
      if (this.stopped) return;
      this.setAnalysis(got);
    } catch (e) {
      if (this.stopped) return;
      this.analysisError = e instanceof Error ? e.message : String(e);
      this.setAnalysis({ status: 'none' });
    }
    this.redraw();
  }

  /** Shows the position after k actions. */
  async go(k: number): Promise<void> {
    const nav = this.nav;
    const ctx = this.ctx;
    if (!nav || !ctx) return;
    this.errorText = '';
    const toEnd = nav.clamp(k) >= nav.total;
    let pos: Position | null;
    const step = nav.goto(k);
    this.redraw('slider');
    try {
      pos = await step;
    } catch (e) {
      this.errorText = e instanceof Error ? e.message : String(e);
      this.redraw();
      return;
    }
    if (!pos) return; // a later step overtook this one
    this.shown = pos;
    if (pos.total > ctx.moves.length) void this.refresh();
    // A live game went on while the latest position was fetched: the latest is further on now.
    if (toEnd && pos.total > pos.n) {
      await this.go(pos.total);
      return;
    }
    this.redraw();
  }

  /** A key: ← → step, Home / End jump. True when it was one of them. */
  key(key: string): boolean {
    const nav = this.nav;
    if (!nav) return false;
    const k = ({ ArrowLeft: nav.n - 1, ArrowRight: nav.n + 1, Home: 0, End: nav.total } as Record<string, number>)[key];
    if (k === undefined) return false;
    void this.go(k);
    return true;
  }

  /** The moves drawn over the board at position n: at a judged decision, the engine's preferred move
   * and (when it differs and was marked) the move played. */
  movesAt(n: number): BoardMove[] {
    const d = this.byPly.get(n);
    if (!d || d.kind !== 'judged') return [];
    const out: BoardMove[] = [];
    if (d.best_cells?.length) out.push({ cells: d.best_cells, kind: 'best' });
    const differs = d.best_notation !== undefined && d.best_notation !== d.notation;
    if (differs && d.mark && d.cells.length) out.push({ cells: d.cells, kind: 'played', mark: d.mark });
    return out;
  }

  async download(): Promise<void> {
    try {
      this.env.download(await this.env.call(routes['GET /api/games/{id}/record'], { params: { id: this.id } }));
    } catch (e) {
      this.errorText = e instanceof Error ? e.message : String(e);
      this.redraw();
    }
  }
}
