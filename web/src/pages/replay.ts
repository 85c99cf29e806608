// Replay: step through any game — finished, imported or still running — as a seat (with its stored
// token) or as a spectator. Every position comes from the server (`GET /api/games/{id}/view/{n}`: the
// observer's view after the first n action events); the client knows no rules. Positions are cached.

import { api, positionFetcher } from '../api';
import { fileName, type JsonRecord } from '../logic/record';
import { positionOfMove, ReplayNav, type Position, type ViewCredential } from '../logic/replay';
import { moveList, mySeat, outcomeOf, statusLine, type Snapshot } from '../logic/snapshot';
import { loadSeats } from '../store';
import { clear, h } from '../ui/dom';
import { moveText, positionBoard, positionLabel, replayButtons, zoomableBoard, type PositionContext, type ZoomState } from './position';

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

/** Stops the replay page's keyboard steps (called when the page is left). */
export function leaveReplay(): void {
  if (keys) document.removeEventListener('keydown', keys);
  keys = null;
}

export async function replayPage(root: HTMLElement, id: string): Promise<void> {
  leaveReplay();
  clear(root);
  const head = h('div.card', h('p', 'Loading replay…'));
  const boardHost = h('div.board-wrap', { 'data-testid': 'replay-board' });
  const panels = h('div.panels');
  const side = h('div.side');
  root.append(h('div.game-layout', h('div.main-col', head, boardHost, panels), side));

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

  const live = () => snap.status !== 'over' && snap.status !== 'imported';
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
      if (board) boardHost.appendChild(zoomableBoard(board, zoom, () => draw()));
      else boardHost.appendChild(h('p.muted.no-board', 'No board to draw at this position.'));
      for (const p of extra) panels.appendChild(p);
      if (shown.n === shown.total && shown.result) panels.prepend(h('div.banner', statusLine({ ...snap, result: shown.result })));
    } else if (!errorText) {
      boardHost.appendChild(h('p.muted', 'Loading…'));
    }
    clear(side);
    const list = h('ol', ctx.moves.map((m, i) =>
      h('li', {
        class: positionOfMove(i) === nav.n ? 'current' : '', title: 'Show the position after this action', tabindex: 0,
        onclick: () => void go(positionOfMove(i)),
        onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); void go(positionOfMove(i)); } },
      }, moveText(m, ctx.seats))));
    const box = h('div.moves', { 'data-testid': 'moves' }, list);
    side.appendChild(h('div.card', h('h3', `Moves (${ctx.moves.length})`), box));
    requestAnimationFrame(() => scrollToCurrent(box));
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
  await go(nav.total);
}

/** Scrolls a move list box (not the page) so that its current move is in sight. */
export function scrollToCurrent(box: HTMLElement): void {
  const cur = box.querySelector('li.current');
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
