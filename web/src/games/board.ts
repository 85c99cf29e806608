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

/** Extra outline drawn over a cell: selected (thick gold), target (green dot + ring), last move (blue). */
export function cellMarks(st: CellState, x: number, y: number, r: number): SVGElement[] {
  const out: SVGElement[] = [];
  if (st.last) out.push(s('circle', { cx: x, cy: y, r: r * 0.9, fill: 'none', stroke: 'var(--last)', 'stroke-width': r * 0.12, 'stroke-dasharray': `${r * 0.3} ${r * 0.15}` }));
  if (st.selected) out.push(s('circle', { cx: x, cy: y, r: r * 0.92, fill: 'none', stroke: 'var(--hi2)', 'stroke-width': r * 0.18 }));
  if (st.target) out.push(s('circle', { cx: x, cy: y, r: r * 0.22, fill: 'var(--hi)', 'fill-opacity': 0.75, stroke: '#fff', 'stroke-width': r * 0.05 }));
  return out;
}

/** Class list for a cell element. */
export function cellClass(st: CellState): string {
  return ['cell', st.target ? 'target' : '', st.selected ? 'selected' : '', st.last ? 'last' : ''].filter(Boolean).join(' ');
}

/** Click and drag input on any element holding `[data-cell]` children; survives re-rendering because
 * it listens on the host. A press selects the cell under it; releasing over another cell picks that one. */
export function attachBoardInput(host: HTMLElement, onCell: (cell: string) => void): void {
  let down: string | null = null;
  const cellAt = (ev: PointerEvent): string | null => {
    const el = document.elementFromPoint(ev.clientX, ev.clientY) ?? (ev.target as Element | null);
    const c = el?.closest?.('[data-cell]');
    return c ? c.getAttribute('data-cell') : null;
  };
  host.addEventListener('pointerdown', (ev) => {
    const c = (ev.target as Element | null)?.closest?.('[data-cell]')?.getAttribute('data-cell') ?? null;
    down = c;
    if (c) {
      ev.preventDefault();
      onCell(c);
    }
  });
  host.addEventListener('pointerup', (ev) => {
    const start = down;
    down = null;
    if (!start) return;
    const c = cellAt(ev);
    if (c && c !== start) onCell(c);
  });
}
