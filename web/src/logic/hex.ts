// Hex geometry for the 91-cell boards (radius 5). Two namings exist:
// * rows `a`..`k` from the far edge, 1..n from the left (Cyvasse "Strength & Trump"), pointy-top;
// * cube coordinates (q, r, s) (Caird's Hex Cyvasse), drawn flat- or pointy-top.

export const ROW_LETTERS = 'abcdefghijk';

/** Number of cells in row `row` (0-based) of the 91-hex board: 6,7,…,11,…,7,6. */
export function rowLength(row: number): number {
  return 11 - Math.abs(row - 5);
}

/** All 91 row-named cells (`a1`..`k6`). */
export function rowCellNames(): string[] {
  const out: string[] = [];
  for (let r = 0; r < 11; r++) {
    for (let i = 1; i <= rowLength(r); i++) out.push(`${ROW_LETTERS[r]}${i}`);
  }
  return out;
}

/** Parses a row-named cell (`f11`) into row and 0-based index, or null. */
export function parseRowCell(name: string): { row: number; index: number } | null {
  const m = /^([a-k])(\d{1,2})$/.exec(name);
  if (!m) return null;
  const row = ROW_LETTERS.indexOf(m[1]);
  const index = Number(m[2]) - 1;
  if (index < 0 || index >= rowLength(row)) return null;
  return { row, index };
}

export interface Cube {
  q: number;
  r: number;
  s: number;
}

/** Row-named cell → cube coordinates (row `f` is r = 0; the left end of each row has the least q). */
export function rowCellToCube(row: number, index: number): Cube {
  const r = row - 5;
  const qStart = Math.max(-5, -5 - r);
  const q = qStart + index;
  return { q, r, s: -q - r };
}

/** All 91 cube coordinates of a radius-5 hexagon. */
export function cubeCells(radius = 5): Cube[] {
  const out: Cube[] = [];
  for (let q = -radius; q <= radius; q++) {
    for (let r = Math.max(-radius, -q - radius); r <= Math.min(radius, -q + radius); r++) {
      out.push({ q, r, s: -q - r });
    }
  }
  return out;
}

/** Pixel centre of a cube cell for hexes of circumradius `size`. */
export function cubeToPixel(c: Cube, size: number, orientation: 'pointy' | 'flat'): { x: number; y: number } {
  if (orientation === 'pointy') {
    return { x: size * Math.sqrt(3) * (c.q + c.r / 2), y: size * 1.5 * c.r };
  }
  return { x: size * 1.5 * c.q, y: size * Math.sqrt(3) * (c.r + c.q / 2) };
}

/** SVG polygon points of a hexagon centred at (x, y). */
export function hexPoints(x: number, y: number, size: number, orientation: 'pointy' | 'flat'): string {
  const pts: string[] = [];
  for (let k = 0; k < 6; k++) {
    const deg = orientation === 'pointy' ? 60 * k - 30 : 60 * k;
    const a = (Math.PI / 180) * deg;
    pts.push(`${(x + size * Math.cos(a)).toFixed(2)},${(y + size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
}

/** The three-colouring of a hex board (Glinski-style): 0, 1 or 2. */
export function hexColour(c: Cube): number {
  return (((c.q - c.r) % 3) + 3) % 3;
}
