// The replay's views: the head (title, position, steps, slider, download or back), the board, the
// analysis card, the move list. Each draws from the controller and calls its actions.

import { seatColour } from '../../games/art';
import { rendererFor } from '../../games/index';
import { MARK_SYMBOL } from '../../logic/analysis';
import { positionOfMove } from '../../logic/replay';
import { outcomeOf, statusLine } from '../../logic/snapshot';
import { h } from '../../ui/dom';
import { analysisGraph, analysisLegend, decisionCard, drawMovesOnBoard, seatCounts } from '../analysis';
import { moveText, positionBoard, positionLabel, replayButtons, zoomableBoard } from '../position';
import type { ReplayCtrl } from './ctrl';

/** The head: which game, as whom, the position, the steps and the slider, download or back. */
export function headView(ctrl: ReplayCtrl, slider: HTMLInputElement): HTMLElement[] {
  const { snap, ctx, nav, id } = ctrl;
  if (!snap || !ctx || !nav) return [ctrl.loadError ? h('p.error', ctrl.loadError) : h('p', 'Loading replay…')];
  const over = outcomeOf(snap);
  const out = [
    h('div.row', h('h2', { style: 'margin:0' }, `Replay: ${snap.name ?? snap.game}`),
      h('span.muted', ctx.seat === null ? 'as a spectator' : `as ${ctx.seats[ctx.seat]?.name ?? `seat ${ctx.seat + 1}`}`)),
    h('p', positionLabel(ctx, nav.n, nav.total)),
    h('p.muted', statusLine(snap)),
    h('div.row', replayButtons(nav, (k) => void ctrl.go(k)), slider),
    h('div.row',
      over || snap.status === 'imported'
        ? h('button', { 'data-testid': 'export', onclick: () => void ctrl.download() }, 'Download record')
        : h('a.btn', { href: ctrl.cred ? `/game/${id}` : `/watch/${id}`, 'data-link': '' }, 'Back to the live game'),
      h('a', { href: '/', 'data-link': '' }, 'Lobby')),
  ];
  if (ctrl.live()) out.push(h('p.muted', 'This game is still running: the replay shows the positions up to now (▶| fetches the latest).'));
  if (ctrl.errorText) out.push(h('div.banner.warn', { 'data-testid': 'error' }, ctrl.errorText));
  return out;
}

/** The board at the shown position (into `boardHost`, with the analysis's arrows) and its panels. */
export function boardView(ctrl: ReplayCtrl, boardHost: HTMLElement, redraw: () => void): Element[] {
  const { snap, ctx, nav, shown } = ctrl;
  if (!snap || !ctx || !nav) return [];
  if (!shown || shown.n !== nav.n) {
    if (!ctrl.errorText) boardHost.appendChild(h('p.muted', 'Loading…'));
    return [];
  }
  const { board, panels } = positionBoard(ctx, shown);
  if (board) {
    boardHost.appendChild(zoomableBoard(board, ctrl.zoom, redraw));
    drawMovesOnBoard(boardHost, ctrl.movesAt(nav.n));
  } else boardHost.appendChild(h('p.muted.no-board', 'No board to draw at this position.'));
  if (shown.n === shown.total && shown.result) return [h('div.banner', statusLine({ ...snap, result: shown.result })), ...panels];
  return panels;
}

/** The analysis card: the request button, the progress, or the graph, the counts and the decision at
 * the shown position. Null when hidden (a live game). */
export function analysisView(ctrl: ReplayCtrl): Element[] | null {
  const { ctx, nav, shown } = ctrl;
  if (ctrl.live() || !ctx || !nav) return null;
  const out: Element[] = [h('h3', 'Computer analysis')];
  if (ctrl.analysisError) out.push(h('div.banner.warn', { 'data-testid': 'analysis-error' }, ctrl.analysisError));
  const a = ctrl.analysis;
  if (a === null) return [...out, h('p.muted', 'Looking for an analysis…')];
  if (a.status === 'none' || a.status === 'failed') {
    if (a.status === 'failed') {
      out.push(h('div.banner.warn', { 'data-testid': 'analysis-failed', role: 'status' }, `The last analysis did not finish: ${a.error}`));
    }
    out.push(h('p', 'The engine can review this game: each seat\'s winning chance after every decision, the inaccuracies, mistakes and blunders, and the move it prefers.'));
    out.push(h('button.primary', { 'data-testid': 'request-analysis', onclick: () => void ctrl.requestAnalysis() },
      a.status === 'failed' ? 'Try the analysis again' : 'Request computer analysis'));
    return out;
  }
  if (a.status === 'running') {
    // Its place in the queue and about how long until it is done, when the server could tell.
    const eta = a.estimate_s === undefined ? '' : `, about ${aboutTime(a.estimate_s)}`;
    const text = a.ahead
      ? `${ordinal(a.ahead + 1)} in the queue${eta}: ${a.ahead} ${a.ahead === 1 ? 'analysis runs' : 'analyses run'} before it`
      : a.waiting
        ? `Waiting for its turn (live games' AI moves go first)${eta}…`
        : `Analysing… ${a.done} of ${a.total} decisions${eta ? `${eta} left` : ''}`;
    out.push(h('div', { 'data-testid': 'analysis-progress', role: 'status' }, h('p', text), h('progress', { max: Math.max(1, a.total), value: a.done })));
    return out;
  }
  const an = a.analysis;
  const names = ctrl.seatNames();
  const colourOf = (seat: number) => (shown ? rendererFor(ctx.game).seatColour?.(shown.view, seat) : null) ?? seatColour(seat);
  const go = (ply: number) => void ctrl.go(ply);
  out.push(analysisGraph(an, names, nav.n, go, colourOf));
  const here = ctrl.byPly.get(nav.n);
  const before = ctrl.byPly.get(nav.n - 1);
  if (here) out.push(decisionCard(here, ctrl.who(here.seat), go, true));
  else if (before) out.push(decisionCard(before, ctrl.who(before.seat), go, false));
  out.push(seatCounts(an, names), analysisLegend(an, names, colourOf));
  return out;
}

/** The move list: each move steps to the position after it; a marked one's badge to the position before. */
export function movesView(ctrl: ReplayCtrl): { card: HTMLElement; box: HTMLElement } | null {
  const { ctx, nav } = ctrl;
  if (!ctx || !nav) return null;
  const list = h('ol', ctx.moves.map((m, i) => {
    const d = ctrl.byPly.get(i);
    const to = positionOfMove(i);
    return h('li', {
      class: to === nav.n ? 'current' : '', title: 'Show the position after this action', tabindex: 0,
      'data-mark': d?.mark ?? undefined,
      onclick: () => void ctrl.go(to),
      onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); void ctrl.go(to); } },
    }, moveText(m, ctx.seats), d?.mark ? [' ', h(`button.mark-badge.${d.mark}`, {
      'data-testid': 'move-mark', 'data-ply': i, 'data-mark': d.mark,
      title: `${d.mark}: show the position before it and the engine's move`, 'aria-label': `${d.mark}: show the position before it and the engine's move`,
      onclick: (e: Event) => { e.stopPropagation(); void ctrl.go(i); },
      onkeydown: (e: KeyboardEvent) => e.stopPropagation(),
    }, MARK_SYMBOL[d.mark])] : null);
  }));
  const box = h('div.moves', { 'data-testid': 'moves' }, list);
  return { card: h('div.card', h('h3', `Moves (${ctx.moves.length})`), box), box };
}

/** Scrolls a move list box (not the page) so that its current move is in sight. */
export function scrollToCurrent(box: HTMLElement): void {
  const cur = box.querySelector('.current');
  if (!(cur instanceof HTMLElement)) return;
  const top = cur.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
}

/** "1st", "2nd", "3rd", "4th", … "11th", "12th", "13th", "21st". */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** A wait in words: "40 s", "3 min", "1 h 5 min". */
export function aboutTime(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const min = Math.round(seconds / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}
