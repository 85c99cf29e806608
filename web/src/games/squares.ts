// Square boards (8x8, 10x10), with optional terrain and per-cell custom drawing. Used by Caird's Cyvasse
// and by Kyo (whose cells draw stacks).

import { s } from '../ui/dom';
import { PALETTE } from './art';
import { animateLastMove, cellClass, cellMarks, cellState } from './board';
import type { RenderContext } from './types';

export interface SquareSpec {
  files: string[];
  ranks: string[];
  /** The rank index drawn at the bottom is 0 unless flipped (seat 1 sees its side at the bottom). */
  flip: boolean;
  size: number;
  fill: (file: number, rank: number, name: string) => string;
  /** Draws the content of a cell whose top-left corner is (x, y). */
  content: (name: string, x: number, y: number) => SVGElement | null;
  /** Ranks (indices) covered by the hidden setup, with a message. */
  covered?: { ranks: number[]; label: string } | null;
  title?: (name: string) => string;
}

export function drawSquareBoard(ctx: RenderContext, spec: SquareSpec): SVGElement {
  const { files, ranks, size } = spec;
  const targets = ctx.selection.targets();
  const margin = 18;
  const layers: SVGElement[] = [];
  const marks: SVGElement[] = [];
  const pos = (f: number, r: number) => {
    const col = spec.flip ? files.length - 1 - f : f;
    const row = spec.flip ? r : ranks.length - 1 - r;
    return { x: margin + col * size, y: margin + row * size };
  };
  for (let r = 0; r < ranks.length; r++) {
    for (let f = 0; f < files.length; f++) {
      const name = `${files[f]}${ranks[r]}`;
      const { x, y } = pos(f, r);
      const st = cellState(ctx, name, targets);
      const content = spec.content(name, x, y);
      if (content) content.setAttribute('data-anim-cell', name);
      layers.push(s('g', { class: cellClass(st), 'data-cell': name },
        s('title', spec.title ? spec.title(name) : name),
        s('rect', { x, y, width: size, height: size, fill: spec.fill(f, r, name), stroke: PALETTE.line, 'stroke-width': 0.5 }),
        st.last ? s('rect', { class: 'last-tint', x, y, width: size, height: size, fill: PALETTE.last, 'fill-opacity': 0.38, 'pointer-events': 'none' }) : null,
        content));
      marks.push(...cellMarks(st, x + size / 2, y + size / 2, size / 2, { occupied: content !== null, tinted: true, square: true }).map((m) => {
        m.setAttribute('pointer-events', 'none');
        return m;
      }));
    }
  }
  const labels: SVGElement[] = [];
  files.forEach((f, i) => {
    const { x } = pos(i, 0);
    labels.push(s('text', { class: 'edge-label', x: x + size / 2, y: margin + ranks.length * size + 13, 'text-anchor': 'middle', 'font-size': 11, fill: PALETTE.label }, f));
  });
  ranks.forEach((r, i) => {
    const { y } = pos(0, i);
    labels.push(s('text', { class: 'edge-label', x: 9, y: y + size / 2 + 4, 'text-anchor': 'middle', 'font-size': 11, fill: PALETTE.label }, r));
  });
  const covers: SVGElement[] = [];
  if (spec.covered && spec.covered.ranks.length) {
    const ys = spec.covered.ranks.map((r) => pos(0, r).y);
    const top = Math.min(...ys);
    const height = (Math.max(...ys) - top) + size;
    covers.push(s('g', { class: 'cover', 'data-testid': 'hidden-cover', 'pointer-events': 'none' },
      s('rect', { x: margin, y: top, width: files.length * size, height, fill: PALETTE.cover, 'fill-opacity': 0.85 }),
      s('text', { x: margin + (files.length * size) / 2, y: top + height / 2, 'text-anchor': 'middle', 'font-size': size * 0.4, fill: PALETTE.coverInk, 'font-weight': 700 }, spec.covered.label)));
  }
  const w = files.length * size + 2 * margin;
  const hgt = ranks.length * size + 2 * margin;
  const svg = s('svg', { class: 'board', viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-label': 'board' },
    s('g', layers), s('g', labels), s('g', marks), s('g', covers));
  const index = (cell: string): { f: number; r: number } | null => {
    for (let r = 0; r < ranks.length; r++) {
      if (!cell.endsWith(ranks[r])) continue;
      const f = files.indexOf(cell.slice(0, cell.length - ranks[r].length));
      if (f >= 0) return { f, r };
    }
    return null;
  };
  animateLastMove(svg, ctx, (cell) => {
    const i = index(cell);
    if (!i) return null;
    const { x, y } = pos(i.f, i.r);
    return { x: x + size / 2, y: y + size / 2 };
  });
  return svg;
}
