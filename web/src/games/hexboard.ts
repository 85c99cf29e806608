// The 91-hex boards. Cyvasse "Strength & Trump": pointy-top, rows `a` (far, North) to `k` (near, South).
// Caird's Hex Cyvasse: the same cell names on cube coordinates, drawn flat-top and turned so that the
// screen line (r = s) runs across the board and each player faces a corner.

import { s } from '../ui/dom';
import { cubeToPixel, hexColour, hexPoints, parseRowCell, rowCellNames, rowCellToCube } from '../logic/hex';
import { animateLastMove, cellClass, cellMarks, cellState } from './board';
import { PALETTE, pieceToken } from './art';
import type { RenderContext } from './types';

export interface HexPiece {
  kind: string;
  seat: number;
  /** What a hover or tap on the piece says (default: its kind). */
  info?: string;
}

export interface HexDrawSpec {
  /** `trump`: rows horizontal, pointy-top. `caird`: screen line horizontal, flat-top. */
  layout: 'trump' | 'caird';
  pieces: Map<string, HexPiece>;
  /** Terrain per cell (caird Expert), drawn as a fill and a label. */
  terrain?: Map<string, string>;
  /** Home of each cell: 0, 1 or -1 (no-man's-land). */
  homeOf: (cell: string) => number;
  /** Seats whose half is covered (the hidden setup). */
  covered: number[];
  /** The seat drawn at the bottom. */
  bottomSeat: number;
}

const SIZE = 30;

export const TERRAIN_FILL: Record<string, string> = {
  fortress: '#b9a27a', hills: '#c8b27d', water: '#8ec1e0', forest: '#6fa36b', grassland: '#cfe3a6',
  ruined: '#6fa36b', burning: '#e0703c', mountain: '#8d7b68',
};
const TERRAIN_LABEL: Record<string, string> = { fortress: 'Fort', hills: 'Hills', water: 'Water', forest: 'Forest', burning: 'Fire' };

function position(name: string, layout: 'trump' | 'caird', flip: boolean): { x: number; y: number } | null {
  const p = parseRowCell(name);
  if (!p) return null;
  const c = rowCellToCube(p.row, p.index);
  let { x, y } = cubeToPixel(c, SIZE, 'pointy');
  if (layout === 'caird') {
    const a = Math.PI / 6;
    [x, y] = [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)];
  }
  return flip ? { x: -x, y: -y } : { x, y };
}

export function drawHexBoard(ctx: RenderContext, spec: HexDrawSpec): SVGElement {
  const flip = spec.bottomSeat === 1;
  const orientation = spec.layout === 'trump' ? 'pointy' : 'flat';
  const targets = ctx.selection.targets();
  const cells: SVGElement[] = [];
  const marks: SVGElement[] = [];
  const pieces: SVGElement[] = [];
  const coverCells: Record<number, { x: number; y: number }[]> = { 0: [], 1: [] };
  for (const name of rowCellNames()) {
    const pos = position(name, spec.layout, flip);
    const p = parseRowCell(name);
    if (!pos || !p) continue;
    const cube = rowCellToCube(p.row, p.index);
    const home = spec.homeOf(name);
    const terrain = spec.terrain?.get(name);
    const base = [PALETTE.light, PALETTE.mid, PALETTE.dark][hexColour(cube)];
    const fill = terrain && TERRAIN_FILL[terrain] ? TERRAIN_FILL[terrain] : home === -1 ? '#d9d2c0' : base;
    const st = cellState(ctx, name, targets);
    cells.push(s('polygon', {
      class: cellClass(st), 'data-cell': name, points: hexPoints(pos.x, pos.y, SIZE * 0.97, orientation),
      fill, stroke: PALETTE.line, 'stroke-width': 1,
    }, s('title', terrain ? `${name} (${terrain})` : name)));
    if (st.last) cells.push(s('polygon', { class: 'last-tint', points: hexPoints(pos.x, pos.y, SIZE * 0.97, orientation), fill: PALETTE.last, 'fill-opacity': 0.38, 'pointer-events': 'none' }));
    if (terrain && TERRAIN_LABEL[terrain]) {
      cells.push(s('text', { x: pos.x, y: pos.y + SIZE * 0.78, 'text-anchor': 'middle', 'font-size': 7, fill: '#3d3024' }, TERRAIN_LABEL[terrain]));
    }
    cells.push(s('text', { x: pos.x - SIZE * 0.55, y: pos.y - SIZE * 0.35, 'font-size': 7, fill: PALETTE.line }, name));
    const piece = spec.pieces.get(name);
    if (piece) pieces.push(pieceToken(piece.kind, piece.seat, pos.x, pos.y, SIZE * 0.72, { attrs: { 'data-cell': name, 'data-anim-cell': name }, info: piece.info }));
    marks.push(...cellMarks(st, pos.x, pos.y, SIZE * 0.8, { occupied: !!piece, tinted: true }).map((m) => {
      m.setAttribute('pointer-events', 'none');
      return m;
    }));
    if (home === 0 || home === 1) coverCells[home].push(pos);
  }
  const all = rowCellNames().map((n) => position(n, spec.layout, flip)).filter((p): p is { x: number; y: number } => p !== null);
  const minX = Math.min(...all.map((p) => p.x)) - SIZE * 1.1;
  const maxX = Math.max(...all.map((p) => p.x)) + SIZE * 1.1;
  const minY = Math.min(...all.map((p) => p.y)) - SIZE * 1.1;
  const maxY = Math.max(...all.map((p) => p.y)) + SIZE * 1.1;
  const covers: SVGElement[] = [];
  for (const seat of spec.covered) {
    const pts = coverCells[seat];
    if (!pts.length) continue;
    // Cover the half with one polygon per cell (exact, whatever the orientation).
    const g = s('g', { class: 'cover', 'data-testid': 'hidden-cover', 'pointer-events': 'none' },
      pts.map((p) => s('polygon', { points: hexPoints(p.x, p.y, SIZE, orientation), fill: PALETTE.cover, 'fill-opacity': 0.85 })));
    const cx = pts.reduce((a, p) => a + p.x, 0) / pts.length;
    const cy = pts.reduce((a, p) => a + p.y, 0) / pts.length;
    g.appendChild(s('text', { x: cx, y: cy, 'text-anchor': 'middle', 'font-size': 16, fill: PALETTE.coverInk, 'font-weight': 700 }, 'Hidden until both armies are ready'));
    covers.push(g);
  }
  const svg = s('svg', { class: 'board', viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${(maxX - minX).toFixed(1)} ${(maxY - minY).toFixed(1)}`, role: 'img', 'aria-label': 'hex board' },
    s('g', cells), s('g', pieces), s('g', marks), s('g', covers));
  animateLastMove(svg, ctx, (cell) => position(cell, spec.layout, flip));
  return svg;
}
