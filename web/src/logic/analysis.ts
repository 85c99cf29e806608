// The engine's analysis of a finished game (`POST`/`GET /api/games/{id}/analysis`, docs/protocol.md):
// reading the server's answer, the marks of the move list, the winning-chance graph's geometry and the
// arrows that draw a move on a board. Pure logic (no DOM), unit tested.

import type { Analysis } from '../wire/ai/Analysis';
import type { DecisionAnalysis } from '../wire/ai/DecisionAnalysis';
import type { Mark } from '../wire/ai/Mark';
import type { SeatSummary } from '../wire/ai/SeatSummary';
import type { Thresholds } from '../wire/ai/Thresholds';
import type { AnalysisAnswer } from '../wire/server/AnalysisAnswer';

// The engine's analysis, generated from `tabula_ai::analysis` (crates/ai/src/analysis.rs).
export type { Analysis, DecisionAnalysis, Mark, SeatSummary, Thresholds };

export const MARKS: Mark[] = ['inaccuracy', 'mistake', 'blunder'];

/** The symbols chess players know: ?! inaccuracy, ? mistake, ?? blunder. */
export const MARK_SYMBOL: Record<Mark, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

export const MARK_PLURAL: Record<Mark, string> = { inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders' };

/** What the server says about a game's analysis (`POST`/`GET /api/games/{id}/analysis`): `running`
 * with its progress, `done` with the analysis, `failed` with why, or `none` (none was asked for). */
export type AnalysisState = AnalysisAnswer;

/** The drop in winning chance of a judged decision (never below zero), or null. */
export function dropOf(d: DecisionAnalysis): number | null {
  if (d.before === undefined || d.after === undefined) return null;
  return Math.max(0, d.before - d.after);
}

/** The mark a drop earns under the thresholds (the server's rule, for the legend and checks). */
export function markFor(drop: number, t: Thresholds): Mark | null {
  if (drop >= t.blunder) return 'blunder';
  if (drop >= t.mistake) return 'mistake';
  if (drop >= t.inaccuracy) return 'inaccuracy';
  return null;
}

/** The analysed decisions by their ply (the index of the action in the move list). */
export function decisionsByPly(a: Analysis): Map<number, DecisionAnalysis> {
  return new Map(a.decisions.map((d) => [d.ply, d]));
}

/** Each seat's count of every mark, counted from the decisions (seats with no decision included
 * when the analysis lists them). */
export function markCounts(a: Analysis): Map<number, Record<Mark, number>> {
  const out = new Map<number, Record<Mark, number>>();
  const row = (seat: number) => {
    let r = out.get(seat);
    if (!r) {
      r = { inaccuracy: 0, mistake: 0, blunder: 0 };
      out.set(seat, r);
    }
    return r;
  };
  for (const s of a.seats) row(s.seat);
  for (const d of a.decisions) {
    const r = row(d.seat);
    if (d.mark) r[d.mark]++;
  }
  return out;
}

/** A percentage for people: 0.724 → "72%". */
export function percent(x: number | null | undefined): string {
  return x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`;
}

/** The legend of the marks with their thresholds ("?! inaccuracy: a drop of 10% or more"). */
export function legend(t: Thresholds): { mark: Mark; symbol: string; text: string }[] {
  return MARKS.map((m) => ({ mark: m, symbol: MARK_SYMBOL[m], text: `${m}: the winning chance drops by ${percent(t[m])} or more` }));
}

// ---------------------------------------------------------------- the graph

export interface GraphBox {
  width: number;
  height: number;
  /** Room left of the plot (for the axis' labels), and around it. */
  left: number;
  pad: number;
}

export interface GraphPoint {
  x: number;
  y: number;
  /** The position the point stands for: the decision's (before the action). */
  ply: number;
  value: number;
  seat: number;
  mark: Mark | null;
}

export interface GraphLine {
  seat: number;
  points: GraphPoint[];
}

/** The x of position `ply` (0 … plies) in the plot. */
export function xOf(ply: number, plies: number, box: GraphBox): number {
  const w = box.width - box.left - box.pad;
  return box.left + (plies > 0 ? (Math.max(0, Math.min(plies, ply)) / plies) * w : 0);
}

/** The y of a winning chance (0 … 1: bottom … top). */
export function yOf(value: number, box: GraphBox): number {
  const h = box.height - 2 * box.pad;
  return box.pad + (1 - Math.max(0, Math.min(1, value))) * h;
}

/** The position a click at `x` in the plot stands for (the nearest, clamped). */
export function plyAt(x: number, plies: number, box: GraphBox): number {
  const w = box.width - box.left - box.pad;
  if (plies <= 0 || w <= 0) return 0;
  return Math.max(0, Math.min(plies, Math.round(((x - box.left) / w) * plies)));
}

/** One line per seat: the seat's winning chance after each of its judged decisions (as the engine
 * estimates it from what that seat could know), drawn at the decision's position. Seats with no judged
 * decision have no line. */
export function graphLines(a: Analysis, box: GraphBox): GraphLine[] {
  const bySeat = new Map<number, GraphPoint[]>();
  for (const d of a.decisions) {
    if (d.after === undefined) continue;
    const pts = bySeat.get(d.seat) ?? [];
    pts.push({ x: xOf(d.ply, a.plies, box), y: yOf(d.after, box), ply: d.ply, value: d.after, seat: d.seat, mark: d.mark ?? null });
    bySeat.set(d.seat, pts);
  }
  return [...bySeat.entries()].sort((x, y) => x[0] - y[0]).map(([seat, points]) => ({ seat, points }));
}

/** An SVG path through the points ("M x y L x y …"), or '' for none. */
export function pathOf(points: { x: number; y: number }[]): string {
  return points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
}

// ---------------------------------------------------------------- arrows on the board

export interface Pt {
  x: number;
  y: number;
}

/** The segments of an arrow through the centres of a move's cells, in order (repeated cells
 * skipped), each shortened by `head` at its end so that an arrowhead drawn there ends at the centre. */
export function arrowSegments(points: Pt[], head: number): { from: Pt; to: Pt }[] {
  const pts: Pt[] = [];
  for (const p of points) {
    const last = pts[pts.length - 1];
    if (!last || Math.hypot(p.x - last.x, p.y - last.y) > 1e-6) pts.push(p);
  }
  const out: { from: Pt; to: Pt }[] = [];
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const k = len > head ? (len - head) / len : 0;
    out.push({ from: a, to: { x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k } });
  }
  return out;
}
