import { describe, expect, it } from 'vitest';
import {
  arrowSegments, decisionsByPly, dropOf, graphLines, legend, markCounts, markFor,
  pathOf, percent, plyAt, xOf, yOf, type Analysis, type GraphBox,
} from '../src/logic/analysis';

/** An analysis as the server sends it (docs/protocol.md): 10 actions, a chance action at 4, Gold
 * blunders at 2, Red makes a mistake at 5, a forced move at 7. */
const SERVER: Analysis = {
  game: 'kyo', seed: '0', iterations: 2000, estimate_iterations: 1000,
  thresholds: { inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 }, plies: 10,
  seats: [
    { seat: 0, name: 'Gold', judged: 3, inaccuracies: 0, mistakes: 0, blunders: 1, average_drop: 0.15 },
    { seat: 1, name: 'Red', judged: 3, inaccuracies: 1, mistakes: 1, blunders: 0, average_drop: 0.1 },
  ],
  decisions: [
    { ply: 0, seat: 0, action: {}, notation: 'D3-D4', cells: ['D3', 'D4'], kind: 'judged', before: 0.55, after: 0.5, best: {}, best_notation: 'E3-E4', best_cells: ['E3', 'E4'] },
    { ply: 1, seat: 1, action: {}, notation: 'd6-d5', cells: ['D6', 'D5'], kind: 'judged', before: 0.5, after: 0.38, best: {}, best_notation: 'e6-e5', best_cells: ['E6', 'E5'], mark: 'inaccuracy' },
    { ply: 2, seat: 0, action: {}, notation: 'E4-D3', cells: ['E4', 'D3'], kind: 'judged', before: 1, after: 0.31, best: {}, best_notation: 'E4xE5', best_cells: ['E4', 'E5'], mark: 'blunder' },
    { ply: 3, seat: 1, action: {}, notation: 'end', cells: [], kind: 'judged', before: 0.7, after: 0.7, best: {}, best_notation: 'end', best_cells: [] },
    { ply: 5, seat: 1, action: {}, notation: 'c6-c5', cells: ['C6', 'C5'], kind: 'judged', before: 0.75, after: 0.5, best: {}, best_notation: 'b6-b5', best_cells: ['B6', 'B5'], mark: 'mistake' },
    { ply: 6, seat: 0, action: {}, notation: 'A0-A1', cells: ['A0', 'A1'], kind: 'judged', before: 0.3, after: 0.4, best: {}, best_notation: 'A0-A1', best_cells: ['A0', 'A1'] },
    { ply: 7, seat: 1, action: {}, notation: 'j9-j8', cells: ['J9', 'J8'], kind: 'forced' },
  ],
};

const BOX: GraphBox = { width: 600, height: 150, left: 34, pad: 8 };

describe('marks', () => {
  const a = SERVER;

  it('follow the thresholds at their edges, as the server marks', () => {
    const t = a.thresholds;
    expect(markFor(0.0999, t)).toBeNull();
    expect(markFor(0.1, t)).toBe('inaccuracy');
    expect(markFor(0.2, t)).toBe('mistake');
    expect(markFor(0.3, t)).toBe('blunder');
    expect(markFor(0.9, t)).toBe('blunder');
    for (const d of a.decisions) {
      const drop = dropOf(d);
      if (drop !== null) expect(markFor(drop + 1e-9, t)).toBe(d.mark ?? null);
    }
  });

  it('a drop is never below zero and a decision not judged has none', () => {
    expect(dropOf(a.decisions[5])).toBe(0); // 0.3 → 0.4: better than the estimate, no drop
    expect(dropOf(a.decisions[6])).toBeNull();
    expect(dropOf(a.decisions[2])).toBeCloseTo(0.69);
  });

  it('are found by ply (the move list index) and counted per seat as the summary counts them', () => {
    const by = decisionsByPly(a);
    expect(by.get(2)?.mark).toBe('blunder');
    expect(by.has(4)).toBe(false); // the chance action: not judged
    const counts = markCounts(a);
    expect(counts.get(0)).toEqual({ inaccuracy: 0, mistake: 0, blunder: 1 });
    expect(counts.get(1)).toEqual({ inaccuracy: 1, mistake: 1, blunder: 0 });
    for (const s of a.seats) {
      const c = counts.get(s.seat);
      expect([c?.inaccuracy, c?.mistake, c?.blunder]).toEqual([s.inaccuracies, s.mistakes, s.blunders]);
    }
  });

  it('have a legend that states their thresholds', () => {
    expect(legend(a.thresholds).map((l) => `${l.symbol} ${l.text}`)).toEqual([
      '?! inaccuracy: the winning chance drops by 10% or more',
      '? mistake: the winning chance drops by 20% or more',
      '?? blunder: the winning chance drops by 30% or more',
    ]);
    expect(percent(0.724)).toBe('72%');
    expect(percent(null)).toBe('—');
  });
});

describe('the graph', () => {
  const a = SERVER;

  it('scales positions across the plot and chances from bottom (0) to top (1), clamped', () => {
    expect(xOf(0, 10, BOX)).toBe(34);
    expect(xOf(10, 10, BOX)).toBe(592);
    expect(xOf(5, 10, BOX)).toBe(313);
    expect(xOf(99, 10, BOX)).toBe(592);
    expect(xOf(3, 0, BOX)).toBe(34);
    expect(yOf(1, BOX)).toBe(8);
    expect(yOf(0, BOX)).toBe(142);
    expect(yOf(0.5, BOX)).toBe(75);
    expect(yOf(2, BOX)).toBe(8);
  });

  it('maps a click back to the nearest position', () => {
    for (let ply = 0; ply <= 10; ply++) expect(plyAt(xOf(ply, 10, BOX), 10, BOX)).toBe(ply);
    expect(plyAt(xOf(3, 10, BOX) + 20, 10, BOX)).toBe(3);
    expect(plyAt(0, 10, BOX)).toBe(0);
    expect(plyAt(10000, 10, BOX)).toBe(10);
    expect(plyAt(100, 0, BOX)).toBe(0);
  });

  it('has one line per seat through its judged decisions, in order, marks kept', () => {
    const lines = graphLines(a, BOX);
    expect(lines.map((l) => l.seat)).toEqual([0, 1]);
    expect(lines[0].points.map((p) => p.ply)).toEqual([0, 2, 6]);
    expect(lines[1].points.map((p) => p.ply)).toEqual([1, 3, 5]); // the forced move has no estimate
    const blunder = lines[0].points[1];
    expect(blunder).toMatchObject({ ply: 2, value: 0.31, mark: 'blunder', x: xOf(2, 10, BOX), y: yOf(0.31, BOX) });
    expect(pathOf(lines[0].points)).toMatch(/^M34\.0 75\.0 L145\.6 \d+\.\d L\d+\.\d \d+\.\d$/);
    expect(pathOf([])).toBe('');
  });
});

describe('arrows', () => {
  it('end short of the last centre by the head, through every cell, repeated cells skipped', () => {
    const segs = arrowSegments([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 20 }], 4);
    expect(segs).toHaveLength(2);
    expect(segs[0]).toEqual({ from: { x: 0, y: 0 }, to: { x: 6, y: 0 } });
    expect(segs[1].from).toEqual({ x: 10, y: 0 });
    expect(segs[1].to.x).toBeCloseTo(10);
    expect(segs[1].to.y).toBeCloseTo(16);
    expect(arrowSegments([{ x: 1, y: 1 }], 4)).toEqual([]);
    // A segment shorter than the head collapses onto its start rather than pointing backwards.
    expect(arrowSegments([{ x: 0, y: 0 }, { x: 2, y: 0 }], 4)[0].to).toEqual({ x: 0, y: 0 });
  });
});
