// Replay: step through any game — finished, imported or still running — as a seat (with its stored
// token) or as a spectator. Every position comes from the server (`GET /api/games/{id}/view/{n}`: the
// observer's view after the first n action events); the client knows no rules. Positions are cached.
// A finished game can be analysed by the engine (`/api/games/{id}/analysis`): a winning-chance graph,
// the marks in the move list, and at a judged decision the engine's preferred move drawn on the board.

import { api, positionFetcher } from '../api';
import { decisionsByPly, MARK_SYMBOL, type AnalysisState, type DecisionAnalysis } from '../logic/analysis';
import { fileName, type JsonRecord } from '../logic/record';
import { positionOfMove, ReplayNav, type Position, type ViewCredential } from '../logic/replay';
import { moveList, mySeat, outcomeOf, statusLine, type Snapshot } from '../logic/snapshot';
import { loadSeats } from '../store';
import { clear, h } from '../ui/dom';
import { moveText, positionBoard, positionLabel, replayButtons, zoomableBoard, type PositionContext, type ZoomState } from './position';
import { analysisGraph, analysisLegend, decisionCard, drawMovesOnBoard, seatCounts, type BoardMove } from './analysis';
import { rendererFor } from '../games/index';
import { seatColour } from '../games/art';
import { ChatPanel } from '../ui/chat';

/** The snapshot as this browser's seat (when it has a working token for this game) or as a spectator.
 * A hot-seat game (this device holds several seats) is replayed as a spectator: the players share the
 * screen, and neither seat's hidden cards or setup may show to the other. */
async function loadSnapshot(id: string): Promise<{ snap: Snapshot; cred: ViewCredential | null }> {
  const seats = loadSeats(id);
  const cred = seats.length === 1 ? seats[0] : null;
  if (cred) {
    try {
      const snap = await api.get<Snapshot>(`/api/games/${encodeURIComponent(id)}?seat=${cred.seat}`, { authorization: `Bearer ${cred.token}` });
      return { snap, cred };
    } catch {
      /* a stale token (the seat was claimed anew): watch as a spectator */
    }
  }
  return { snap: await api.get<Snapshot>(`/api/games/${encodeURIComponent(id)}`), cred: null };
}

let keys: ((e: KeyboardEvent) => void) | null = null;
/** The replay page shown now (each opening gets a new number): a progress poll of a page that was left
 * stops. */
let generation = 0;
let pollTimer: number | undefined;
/** The chat of the finished game shown (web/src/ui/chat.ts). */
let chat: ChatPanel | null = null;

/** Stops the replay page's keyboard steps and analysis polling (called when the page is left). */
export function leaveReplay(): void {
  if (keys) document.removeEventListener('keydown', keys);
  keys = null;
  generation++;
  window.clearTimeout(pollTimer);
  chat?.close();
  chat = null;
}

/** How often a running analysis's progress is asked for. */
const POLL_MS = 700;

export async function replayPage(root: HTMLElement, id: string): Promise<void> {
  leaveReplay();
  clear(root);
  const mine = generation;
  const head = h('div.card', h('p', 'Loading replay…'));
  const boardHost = h('div.board-wrap', { 'data-testid': 'replay-board' });
  const analysisHost = h('div.card.analysis', { 'data-testid': 'analysis' });
  const panels = h('div.panels');
  const side = h('div.side-body');
  const sideCol = h('div.side', side);
  root.append(h('div.game-layout.with-analysis', h('div.main-col', head, boardHost, analysisHost, panels), sideCol));

  let snap: Snapshot;
  let cred: ViewCredential | null;
  try {
    ({ snap, cred } = await loadSnapshot(id));
  } catch (e) {
    clear(head);
    head.appendChild(h('p.error', e instanceof Error ? e.message : String(e)));
    return;
  }
  const ctx: PositionContext = { game: snap.game, options: snap.options, seats: snap.seats, seat: mySeat(snap), moves: moveList(snap.events) };
  const nav = new ReplayNav(positionFetcher(id, cred), ctx.moves.length);
  let shown: Position | null = null;
  let errorText = '';
  let refreshing = false;
  const zoom: ZoomState = { on: false, left: 0, top: 0 };
  // The engine's analysis: null while unknown (asked for once the game is over).
  let analysis: AnalysisState | null = null;
  let analysisError = '';
  let byPly = new Map<number, DecisionAnalysis>();

  const live = () => snap.status !== 'over' && snap.status !== 'imported';
  // A finished game keeps its chat: the players' channel for this browser's seat, the spectators' for all.
  if (!live() && mine === generation) {
    const seatCred = cred;
    chat = new ChatPanel(id, () => seatCred);
    chat.setOver(true);
    sideCol.append(chat.el);
  }
  const seatNames = () => ctx.seats.map((s, i) => s.name ?? `Seat ${i + 1}`);
  const who = (seat: number) => ctx.seats[seat]?.name ?? `Seat ${seat + 1}`;
  const slider = h('input', { type: 'range', min: 0, max: nav.total, value: nav.n, 'data-testid': 'replay-slider', 'aria-label': 'Position' }) as HTMLInputElement;
  slider.addEventListener('change', () => void go(Number(slider.value))); // on release: one request, not one per pixel

  /** A live game went on (a position reported a larger total): reload the move list. */
  async function refresh(): Promise<void> {
    if (refreshing) return;
    refreshing = true;
    try {
      const next = cred
        ? await api.get<Snapshot>(`/api/games/${encodeURIComponent(id)}?seat=${cred.seat}`, { authorization: `Bearer ${cred.token}` })
        : await api.get<Snapshot>(`/api/games/${encodeURIComponent(id)}`);
      snap = next;
      ctx.moves = moveList(next.events);
      nav.setTotal(ctx.moves.length);
      draw();
    } catch {
      /* keep what is shown; the next step tries again */
    } finally {
      refreshing = false;
    }
  }

  function setAnalysis(next: AnalysisState): void {
    analysis = next;
    byPly = next.status === 'done' ? decisionsByPly(next.analysis) : new Map();
    window.clearTimeout(pollTimer);
    if (next.status === 'running') pollTimer = window.setTimeout(() => void poll(), POLL_MS);
  }

  /** Asks for the analysis's state (the stored analysis, the progress of a running one, or none). */
  async function poll(): Promise<void> {
    const was = analysis?.status;
    try {
      const got = await api.get<AnalysisState>(`/api/games/${encodeURIComponent(id)}/analysis`);
      if (mine !== generation) return;
      analysisError = '';
      setAnalysis(got);
    } catch (e) {
      if (mine !== generation) return;
      analysisError = e instanceof Error ? e.message : String(e);
      // A network hiccup while it runs: ask again, more slowly.
      if (analysis?.status === 'running') pollTimer = window.setTimeout(() => void poll(), POLL_MS * 3);
    }
    // Done (or gone): the move list's marks and the board's arrows change too.
    if (analysis?.status !== was && analysis?.status !== 'running') draw();
    else drawAnalysis();
  }

  async function requestAnalysis(): Promise<void> {
    analysisError = '';
    setAnalysis({ status: 'running', done: 0, total: 0, waiting: true });
    drawAnalysis();
    try {
      const got = await api.post<AnalysisState>(`/api/games/${encodeURIComponent(id)}/analysis`);
      if (mine !== generation) return;
      setAnalysis(got);
    } catch (e) {
      if (mine !== generation) return;
      analysisError = e instanceof Error ? e.message : String(e);
      setAnalysis({ status: 'none' });
    }
    draw();
  }

  async function go(k: number): Promise<void> {
    errorText = '';
    let pos: Position | null;
    const aim = nav.clamp(k);
    const toEnd = aim >= nav.total;
    slider.value = String(aim);
    try {
      pos = await nav.goto(aim);
    } catch (e) {
      errorText = e instanceof Error ? e.message : String(e);
      draw();
      return;
    }
    if (!pos) return; // a later step overtook this one
    shown = pos;
    if (pos.total > ctx.moves.length) void refresh();
    // A live game went on while the latest position was fetched: the latest is further on now.
    if (toEnd && pos.total > pos.n) {
      await go(pos.total);
      return;
    }
    draw();
  }

  function draw(): void {
    clear(head);
    slider.max = String(nav.total);
    slider.value = String(nav.n);
    const over = outcomeOf(snap);
    head.append(
      h('div.row', h('h2', { style: 'margin:0' }, `Replay: ${snap.name ?? snap.game}`),
        h('span.muted', ctx.seat === null ? 'as a spectator' : `as ${ctx.seats[ctx.seat]?.name ?? `seat ${ctx.seat + 1}`}`)),
      h('p', positionLabel(ctx, nav.n, nav.total)),
      h('p.muted', statusLine(snap)),
      h('div.row', replayButtons(nav, (k) => void go(k)), slider),
      h('div.row',
        over || snap.status === 'imported'
          ? h('button', { 'data-testid': 'export', onclick: () => download(id).catch((e: unknown) => { errorText = e instanceof Error ? e.message : String(e); draw(); }) }, 'Download record')
          : h('a.btn', { href: cred ? `/game/${id}` : `/watch/${id}`, 'data-link': '' }, 'Back to the live game'),
        h('a', { href: '/', 'data-link': '' }, 'Lobby')),
    );
    if (live()) head.appendChild(h('p.muted', 'This game is still running: the replay shows the positions up to now (▶| fetches the latest).'));
    if (errorText) head.appendChild(h('div.banner.warn', { 'data-testid': 'error' }, errorText));
    clear(boardHost);
    clear(panels);
    if (shown && shown.n === nav.n) {
      const { board, panels: extra } = positionBoard(ctx, shown);
      if (board) {
        boardHost.appendChild(zoomableBoard(board, zoom, () => draw()));
        drawMovesOnBoard(boardHost, movesAt(nav.n));
      } else boardHost.appendChild(h('p.muted.no-board', 'No board to draw at this position.'));
      for (const p of extra) panels.appendChild(p);
      if (shown.n === shown.total && shown.result) panels.prepend(h('div.banner', statusLine({ ...snap, result: shown.result })));
    } else if (!errorText) {
      boardHost.appendChild(h('p.muted', 'Loading…'));
    }
    drawAnalysis();
    clear(side);
    const list = h('ol', ctx.moves.map((m, i) => {
      const d = byPly.get(i);
      return h('li', {
        class: positionOfMove(i) === nav.n ? 'current' : '', title: 'Show the position after this action', tabindex: 0,
        'data-mark': d?.mark ?? undefined,
        onclick: () => void go(positionOfMove(i)),
        onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); void go(positionOfMove(i)); } },
      }, moveText(m, ctx.seats), d?.mark ? [' ', h(`button.mark-badge.${d.mark}`, {
        'data-testid': 'move-mark', 'data-ply': i, 'data-mark': d.mark,
        title: `${d.mark}: show the position before it and the engine's move`, 'aria-label': `${d.mark}: show the position before it and the engine's move`,
        onclick: (e: Event) => { e.stopPropagation(); void go(i); },
        onkeydown: (e: KeyboardEvent) => e.stopPropagation(),
      }, MARK_SYMBOL[d.mark])] : null);
    }));
    const box = h('div.moves', { 'data-testid': 'moves' }, list);
    side.appendChild(h('div.card', h('h3', `Moves (${ctx.moves.length})`), box));
    requestAnimationFrame(() => scrollToCurrent(box));
  }

  /** The moves drawn over the board at position n: at a judged decision, the engine's preferred move
   * and (when it differs and was marked) the move played. */
  function movesAt(n: number): BoardMove[] {
    const d = byPly.get(n);
    if (!d || d.kind !== 'judged') return [];
    const out: BoardMove[] = [];
    if (d.best_cells?.length) out.push({ cells: d.best_cells, kind: 'best' });
    const differs = d.best_notation !== undefined && d.best_notation !== d.notation;
    if (differs && d.mark && d.cells.length) out.push({ cells: d.cells, kind: 'played', mark: d.mark });
    return out;
  }

  /** The analysis card: the request button, the progress, or the graph, the counts and the decision at
   * the shown position. */
  function drawAnalysis(): void {
    clear(analysisHost);
    if (live()) {
      analysisHost.hidden = true;
      return;
    }
    analysisHost.hidden = false;
    analysisHost.appendChild(h('h3', 'Computer analysis'));
    if (analysisError) analysisHost.appendChild(h('div.banner.warn', { 'data-testid': 'analysis-error' }, analysisError));
    const a = analysis;
    if (a === null) {
      analysisHost.appendChild(h('p.muted', 'Looking for an analysis…'));
      return;
    }
    if (a.status === 'none' || a.status === 'failed') {
      if (a.status === 'failed') {
        analysisHost.appendChild(h('div.banner.warn', { 'data-testid': 'analysis-failed', role: 'status' }, `The last analysis did not finish: ${a.error}`));
      }
      analysisHost.appendChild(h('p', 'The engine can review this game: each seat\'s winning chance after every decision, the inaccuracies, mistakes and blunders, and the move it prefers.'));
      analysisHost.appendChild(h('button.primary', { 'data-testid': 'request-analysis', onclick: () => void requestAnalysis() },
        a.status === 'failed' ? 'Try the analysis again' : 'Request computer analysis'));
      return;
    }
    if (a.status === 'running') {
      const place = a.ahead ? `: ${a.ahead} ${a.ahead === 1 ? 'analysis' : 'analyses'} before it` : '';
      const text = a.waiting
        ? `Waiting for its turn${place} (live games' AI moves go first)…`
        : `Analysing… ${a.done} of ${a.total} decisions`;
      analysisHost.appendChild(h('div', { 'data-testid': 'analysis-progress', role: 'status' },
        h('p', text),
        h('progress', { max: Math.max(1, a.total), value: a.done })));
      return;
    }
    const an = a.analysis;
    const names = seatNames();
    const colourOf = (seat: number) => (shown ? rendererFor(ctx.game).seatColour?.(shown.view, seat) : null) ?? seatColour(seat);
    analysisHost.setAttribute('data-state', 'done');
    analysisHost.appendChild(analysisGraph(an, names, nav.n, (ply) => void go(ply), colourOf));
    const here = byPly.get(nav.n);
    const before = byPly.get(nav.n - 1);
    if (here) analysisHost.appendChild(decisionCard(here, who(here.seat), (ply) => void go(ply), true));
    else if (before) analysisHost.appendChild(decisionCard(before, who(before.seat), (ply) => void go(ply), false));
    analysisHost.appendChild(seatCounts(an, names));
    analysisHost.appendChild(analysisLegend(an, names, colourOf));
  }

  // ← → step, Home / End jump (not while typing in a field or moving the slider, which has its own keys).
  keys = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement | null;
    if (e.altKey || e.ctrlKey || e.metaKey || (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
    const k = { ArrowLeft: nav.n - 1, ArrowRight: nav.n + 1, Home: 0, End: nav.total }[e.key];
    if (k === undefined) return;
    e.preventDefault();
    void go(k);
  };
  document.addEventListener('keydown', keys);
  draw();
  if (!live()) void poll();
  await go(nav.total);
}

/** Scrolls a move list box (not the page) so that its current move is in sight. */
export function scrollToCurrent(box: HTMLElement): void {
  const cur = box.querySelector('.current');
  if (!(cur instanceof HTMLElement)) return;
  const top = cur.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
}

async function download(id: string): Promise<void> {
  const record = await api.get<JsonRecord>(`/api/games/${encodeURIComponent(id)}/record`);
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
  const a = h('a', { href: URL.createObjectURL(blob), download: fileName(record, id) }) as HTMLAnchorElement;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
