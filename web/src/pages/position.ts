// Drawing a replay position (read-only, with its last move) and the replay controls, shared by the replay
// page and the game page's "step back" mode.

import { rendererFor } from '../games/index';
import { chanceAt, lastMoveCells, type Position, type ReplayNav } from '../logic/replay';
import { Selection } from '../logic/select';
import type { MoveEntry, SeatInfo } from '../logic/snapshot';
import { h } from '../ui/dom';

export interface PositionContext {
  game: string;
  options: Record<string, unknown>;
  seats: SeatInfo[];
  /** The observer's seat (null: spectator). */
  seat: number | null;
  /** The seat drawn at the bottom (flip board); default: the observer's. */
  bottomSeat?: number;
  moves: MoveEntry[];
}

/** The board and panels of a position, drawn by the game's renderer with no selectable cell. */
export function positionBoard(ctx: PositionContext, pos: Position): { board: Element | null; panels: Element[] } {
  const renderer = rendererFor(ctx.game);
  const out = renderer.render({
    gameId: ctx.game,
    view: pos.view,
    options: ctx.options,
    seat: ctx.seat,
    bottomSeat: ctx.bottomSeat,
    seatNames: ctx.seats.map((s) => s.name),
    selection: new Selection([]),
    lastMove: lastMoveCells(ctx.moves, pos.n, pos.last),
    onCell: () => undefined,
  });
  const chance = chanceAt(ctx.moves, pos.n);
  if (chance.length) out.panels.unshift(h('div.card', h('b', 'Chance: '), h('span', chance.join(', '))));
  return out;
}

/** A move's line in a move list: who and what. */
export function moveText(m: MoveEntry, seats: SeatInfo[], notation = false): string {
  if (!notation && m.words != null) return m.words;
  const who = m.actor === 'chance' ? 'chance' : (seats[m.actor.seat]?.name ?? `Seat ${m.actor.seat + 1}`);
  return `${who}: ${m.notation ?? '(hidden)'}`;
}

/** What the position is: "Action n of total", with the move that led to it. */
export function positionLabel(ctx: PositionContext, n: number, total: number): HTMLElement {
  const m = n > 0 ? ctx.moves[n - 1] : undefined;
  return h('span', h('b', { 'data-testid': 'replay-ply' }, `Action ${n} of ${total}`),
    h('span.muted', n === 0 ? ' — the start' : m ? ` — after ${moveText(m, ctx.seats)}` : ''));
}

/** First / back / forward / last buttons (disabled at the ends). */
export function replayButtons(nav: ReplayNav, go: (k: number) => void): HTMLElement {
  return h('span.row',
    h('button', { 'data-testid': 'replay-first', title: 'The start', 'aria-label': 'The start', disabled: nav.atStart(), onclick: () => go(0) }, '|◀'),
    h('button', { 'data-testid': 'replay-prev', title: 'Back one action', 'aria-label': 'Back one action', disabled: nav.atStart(), onclick: () => go(nav.n - 1) }, '◀'),
    h('button', { 'data-testid': 'replay-next', title: 'Forward one action', 'aria-label': 'Forward one action', disabled: nav.atEnd(), onclick: () => go(nav.n + 1) }, '▶'),
    h('button', { 'data-testid': 'replay-last', title: 'The latest position', 'aria-label': 'The latest position', disabled: nav.atEnd(), onclick: () => go(nav.total) }, '▶|'));
}

/** Whether a board is zoomed in (twice the width, scrolled inside its box: for a big map on a phone), and
 * where its box is scrolled (kept over redraws). */
export interface ZoomState {
  on: boolean;
  left: number;
  top: number;
}

/** The board in a box with a zoom toggle (the toggle shows on narrow screens only, see style.css). */
export function zoomableBoard(board: Element, zoom: ZoomState, redraw: () => void): HTMLElement {
  const box = h(`div.board-scroll${zoom.on ? '.zoomed' : ''}`, board);
  box.addEventListener('scroll', () => {
    zoom.left = box.scrollLeft;
    zoom.top = box.scrollTop;
  });
  if (zoom.on) {
    requestAnimationFrame(() => {
      box.scrollLeft = zoom.left;
      box.scrollTop = zoom.top;
    });
  }
  const toggle = h('button.zoom', {
    'data-testid': 'zoom', 'aria-pressed': zoom.on ? 'true' : 'false',
    onclick: () => {
      zoom.on = !zoom.on;
      zoom.left = 0;
      zoom.top = 0;
      redraw();
    },
  }, zoom.on ? 'Fit the board to the screen' : 'Zoom in (scroll the board)');
  return h('div', toggle, box);
}
