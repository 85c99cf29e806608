// Shared drawing helpers for boards: cell state classes, input (click and drag), covers.

import { s } from '../ui/dom';
import type { RenderContext } from './types';

export interface CellState {
  target: boolean;
  selected: boolean;
  last: boolean;
}

export function cellState(ctx: RenderContext, name: string, targets: Set<string>): CellState {
  return {
    target: targets.has(name) || (ctx.extraTargets?.has(name) ?? false),
    selected: ctx.selection.prefix.includes(name) || ctx.extraSelected === name,
    last: ctx.lastMove.includes(name),
  };
}

/** How a board draws a cell's marks: whether a piece stands on it (a legal target there is a ring at
 * the cell's rim, never a dot over the piece) and whether the board tints the last move's cells itself
 * (then no ring is drawn for it). */
export interface MarkOptions {
  occupied?: boolean;
  tinted?: boolean;
  /** A square cell (of side 2r): rims are drawn as square frames along its edge. */
  square?: boolean;
}

/** Marks drawn over a cell: selected (thick gold rim), target (a green dot on an empty cell, a green rim
 * around a piece), last move (a blue dashed rim, unless the board tints the cell). None covers the
 * middle of a piece, where its emblem is. */
export function cellMarks(st: CellState, x: number, y: number, r: number, o: MarkOptions = {}): SVGElement[] {
  const out: SVGElement[] = [];
  const frame = (cls: string, colour: string, width: number, opacity = 1): SVGElement =>
    s('rect', { class: cls, x: x - r + width / 2, y: y - r + width / 2, width: 2 * r - width, height: 2 * r - width, rx: width, fill: 'none', stroke: colour, 'stroke-opacity': opacity, 'stroke-width': width });
  if (o.square) {
    if (st.selected) out.push(frame('mark-selected', 'var(--hi2)', r * 0.14));
    if (st.target) {
      out.push(o.occupied
        ? frame('mark-target', 'var(--hi)', r * 0.12, 0.85)
        : s('circle', { class: 'mark-target', cx: x, cy: y, r: r * 0.26, fill: 'var(--hi)', 'fill-opacity': 0.7 }));
    }
    return out;
  }
  if (st.last && !o.tinted) out.push(s('circle', { class: 'mark-last', cx: x, cy: y, r: r * 0.9, fill: 'none', stroke: 'var(--last)', 'stroke-width': r * 0.12, 'stroke-dasharray': `${r * 0.3} ${r * 0.15}` }));
  if (st.selected) out.push(s('circle', { class: 'mark-selected', cx: x, cy: y, r: r * 0.92, fill: 'none', stroke: 'var(--hi2)', 'stroke-width': r * 0.18 }));
  if (st.target) {
    out.push(o.occupied
      ? s('circle', { class: 'mark-target', cx: x, cy: y, r: r * 0.95, fill: 'none', stroke: 'var(--hi)', 'stroke-opacity': 0.85, 'stroke-width': r * 0.14 })
      : s('circle', { class: 'mark-target', cx: x, cy: y, r: r * 0.26, fill: 'var(--hi)', 'fill-opacity': 0.7 }));
  }
  return out;
}

/** Class list for a cell element. */
export function cellClass(st: CellState): string {
  return ['cell', st.target ? 'target' : '', st.selected ? 'selected' : '', st.last ? 'last' : ''].filter(Boolean).join(' ');
}

/** How far (CSS pixels) a pointer must travel between press and release to be a drag. */
const DRAG_PX = 8;

/** Click and drag input on any element holding `[data-cell]` children; survives re-rendering because
 * it listens on the host. A press selects the cell under it; releasing over another cell after a drag
 * picks that one. A click that did not move is one press only, even when the press redrew the board
 * (a box or a bar appearing may move the cells under a pointer that stayed still). */
export function attachBoardInput(host: HTMLElement, onCell: (cell: string) => void, onMenu?: (cell: string) => void): void {
  let down: string | null = null;
  let from = { x: 0, y: 0 };
  const cellAt = (ev: PointerEvent): string | null => {
    const el = document.elementFromPoint(ev.clientX, ev.clientY) ?? (ev.target as Element | null);
    const c = el?.closest?.('[data-cell]');
    return c ? c.getAttribute('data-cell') : null;
  };
  // A right click (a long press on some touch screens) asks for a cell's variants instead.
  host.addEventListener('contextmenu', (ev) => {
    const c = (ev.target as Element | null)?.closest?.('[data-cell]')?.getAttribute('data-cell') ?? null;
    if (!c || !onMenu) return;
    ev.preventDefault();
    onMenu(c);
  });
  host.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    const c = (ev.target as Element | null)?.closest?.('[data-cell]')?.getAttribute('data-cell') ?? null;
    down = c;
    from = { x: ev.clientX, y: ev.clientY };
    if (c) {
      ev.preventDefault();
      onCell(c);
    }
  });
  host.addEventListener('pointerup', (ev) => {
    const start = down;
    down = null;
    if (!start || Math.hypot(ev.clientX - from.x, ev.clientY - from.y) < DRAG_PX) return;
    const c = cellAt(ev);
    if (c && c !== start) onCell(c);
  });
}

/** The last move already seen per page and game (animated, or shown on arrival), so a redraw for a
 * click does not replay it. */
const seenLastMove = new Map<string, string>();

/** Whether the reader asked the system for less motion. */
function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** How long a move slides, in milliseconds. */
export const MOVE_MS = 180;

/** The most a whole turn's slides take together, in milliseconds: a turn of many steps (a Kyo Mana
 * chain, a Syba turn) slides its first steps, each at most `MOVE_MS`, until this is spent; its later
 * steps appear at once. */
export const TURN_MS = 900;

/** A slide shorter than this is not worth drawing: the step appears at once. */
const MIN_SLIDE_MS = 60;

/** The slide time spent so far on the latest turn, per page and game. */
const turnSpent = new Map<string, { turn: string; ms: number }>();

/** How long the next slide (or batch of slides run together) of turn `turn` may take (0: none), and
 * books it. A context without a turn (a lesson, a review) books each slide on its own. */
export function bookSlide(where: string, turn: string | undefined, budget = TURN_MS): number {
  if (turn === undefined) return MOVE_MS;
  const got = turnSpent.get(where);
  const spent = got && got.turn === turn ? got.ms : 0;
  const ms = Math.min(MOVE_MS, budget - spent);
  if (ms < MIN_SLIDE_MS) return 0;
  turnSpent.set(where, { turn, ms: spent + ms });
  publishTurn(turn, spent + ms);
  return ms;
}

/** The page's record of the latest turn's slide time (`data-turn-anim` = its key, `data-turn-anim-ms`
 * = the sum of its slides' declared durations), so a browser test can tell the whole turn's time. */
function publishTurn(turn: string, ms: number): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.dataset.turnAnim = turn;
  root.dataset.turnAnimMs = String(ms);
}

function placeKey(ctx: RenderContext): string {
  return `${typeof location === 'undefined' ? '' : location.pathname} ${ctx.gameId}`;
}

/** Marks `svg` with the last move (`data-last-move="from to"`) and, once it is in the page, slides what
 * now stands on the destination (the element with `data-anim-cell` set to it) from the origin's centre
 * to its own: the last move's first two cells are the latest action's origin and destination. Only a
 * last move not seen before in this game slides (not the one on the screen when the page opens, nor
 * again on a redraw), within its turn's budget (`bookSlide`); the slide is a Web Animation of the CSS
 * `translate`, marked by `data-animated` on the board, the class `moving` on the piece while it runs
 * and a count in the page's `data-moves-animated`; it is skipped when the reader prefers reduced
 * motion. */
export function animateLastMove(svg: SVGElement, ctx: RenderContext, centre: (cell: string) => { x: number; y: number } | null): void {
  const cells = ctx.lastMove;
  if (cells.length) svg.setAttribute('data-last-move', cells.slice(0, 2).join(' '));
  const key = cells.join(' ');
  // Per page and game: another game of the same kind opens without a slide.
  const where = placeKey(ctx);
  const seen = seenLastMove.get(where);
  seenLastMove.set(where, key);
  if (seen === undefined || seen === key || cells.length < 2 || reducedMotion()) return;
  const [from, to] = cells;
  const a = centre(from);
  const b = centre(to);
  if (!a || !b) return;
  requestAnimationFrame(() => {
    if (!svg.isConnected) return;
    const el = [...svg.querySelectorAll('[data-anim-cell]')].find((e) => e.getAttribute('data-anim-cell') === to);
    if (!(el instanceof SVGElement)) return;
    const ms = bookSlide(where, ctx.lastTurn);
    if (ms > 0) slide(svg, el, a.x - b.x, a.y - b.y, `${from} ${to}`, ms);
  });
}

/** Slides `el` (in the page) from (dx, dy) board units away to where it is drawn in `ms`, marking the
 * board with `data-animated="what"`, the piece with `moving` while it runs, and counting the slide. */
function slide(svg: SVGElement, el: SVGElement, dx: number, dy: number, what: string, ms: number): void {
  if (typeof el.animate !== 'function') return;
  el.classList.add('moving');
  svg.setAttribute('data-animated', what);
  // Counted on the page (like the sounds played) so a browser test can tell that moves slide.
  const root = document.documentElement;
  root.dataset.movesAnimated = String(Number(root.dataset.movesAnimated ?? '0') + 1);
  const anim = el.animate([{ translate: `${dx}px ${dy}px` }, { translate: '0px 0px' }], { duration: ms, easing: 'ease-out' });
  anim.onfinish = () => el.classList.remove('moving');
}

/** Where each moving thing (`data-anim-id`) was drawn last, per page and game. */
const lastPlaces = new Map<string, Map<string, { x: number; y: number }>>();

/** For boards whose pieces are named rather than placed by cell (Syba's units): slides every element
 * with `data-anim-id` that was drawn elsewhere in this page's previous drawing of the game, from its
 * old place (`places`: where each is drawn now, board units), all in one slide time of the turn's
 * budget (`bookSlide`). The first drawing slides nothing. */
export function animateByIdentity(svg: SVGElement, ctx: RenderContext, places: Map<string, { x: number; y: number }>): void {
  const where = placeKey(ctx);
  const before = lastPlaces.get(where);
  lastPlaces.set(where, places);
  if (!before || reducedMotion()) return;
  const moved = [...places].filter(([id, p]) => {
    const q = before.get(id);
    return q !== undefined && (Math.abs(q.x - p.x) > 0.5 || Math.abs(q.y - p.y) > 0.5);
  });
  if (!moved.length) return;
  requestAnimationFrame(() => {
    if (!svg.isConnected) return;
    // The units moved by one update slide together: one booking for them all.
    const ms = bookSlide(where, ctx.lastTurn);
    if (ms === 0) return;
    for (const [id, p] of moved) {
      const q = before.get(id);
      const el = [...svg.querySelectorAll('[data-anim-id]')].find((e) => e.getAttribute('data-anim-id') === id);
      if (q && el instanceof SVGElement) slide(svg, el, q.x - p.x, q.y - p.y, id, ms);
    }
  });
}
