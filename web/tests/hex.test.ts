import { describe, expect, it } from 'vitest';
import { cubeCells, cubeToPixel, hexColour, parseRowCell, rowCellNames, rowCellToCube, rowLength } from '../src/logic/hex';

describe('hex boards', () => {
  it('has 91 row-named cells in rows of 6..11..6', () => {
    const names = rowCellNames();
    expect(names).toHaveLength(91);
    expect([0, 5, 10].map(rowLength)).toEqual([6, 11, 6]);
    expect(names[0]).toBe('a1');
    expect(names).toContain('f11');
    expect(names[90]).toBe('k6');
  });
  it('parses row names and rejects cells off the board', () => {
    expect(parseRowCell('f11')).toEqual({ row: 5, index: 10 });
    expect(parseRowCell('a7')).toBeNull();
    expect(parseRowCell('z1')).toBeNull();
  });
  it('maps every row-named cell to a distinct cube cell of radius 5', () => {
    const cubes = new Set<string>();
    for (const n of rowCellNames()) {
      const p = parseRowCell(n);
      expect(p).not.toBeNull();
      if (!p) continue;
      const c = rowCellToCube(p.row, p.index);
      expect(Math.max(Math.abs(c.q), Math.abs(c.r), Math.abs(c.s))).toBeLessThanOrEqual(5);
      cubes.add(`${c.q},${c.r}`);
    }
    expect(cubes.size).toBe(91);
    expect(cubeCells()).toHaveLength(91);
  });
  it('lays out neighbours one hex apart and colours them differently', () => {
    const a = cubeToPixel({ q: 0, r: 0, s: 0 }, 10, 'flat');
    const b = cubeToPixel({ q: 1, r: 0, s: -1 }, 10, 'flat');
    expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeCloseTo(10 * Math.sqrt(3));
    expect(hexColour({ q: 0, r: 0, s: 0 })).not.toBe(hexColour({ q: 1, r: 0, s: -1 }));
    expect(hexColour({ q: 0, r: 0, s: 0 })).toBe(hexColour({ q: 1, r: 1, s: -2 }));
  });
});
