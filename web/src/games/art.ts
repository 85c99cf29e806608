// Original piece artwork: every piece is a token whose outline depends on the seat (so colour is never
// the only cue) and whose emblem and label name the piece.

import { s } from '../ui/dom';

const SEAT_COLOURS = ['#f4efe3', '#2d2a26', '#c0392b', '#2471a3', '#229954', '#e67e22'];
const SEAT_INK = ['#2d2a26', '#f4efe3', '#ffffff', '#ffffff', '#ffffff', '#2d2a26'];

export function seatColour(seat: number): string {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}
export function seatInk(seat: number): string {
  return SEAT_INK[((seat % SEAT_INK.length) + SEAT_INK.length) % SEAT_INK.length];
}

/** The token outline for a seat, centred at 0,0 with radius r: circle, diamond-square, hexagon… */
function outline(seat: number, r: number): string {
  const poly = (n: number, rot: number) => {
    const pts: string[] = [];
    for (let k = 0; k < n; k++) {
      const a = rot + (2 * Math.PI * k) / n;
      pts.push(`${(r * Math.cos(a)).toFixed(2)},${(r * Math.sin(a)).toFixed(2)}`);
    }
    return `M${pts.join('L')}Z`;
  };
  switch (seat % 6) {
    case 0:
      return `M${-r},0A${r},${r} 0 1,0 ${r},0A${r},${r} 0 1,0 ${-r},0Z`;
    case 1:
      return poly(8, Math.PI / 8);
    case 2:
      return poly(6, 0);
    case 3:
      return poly(4, Math.PI / 4);
    case 4:
      return poly(5, -Math.PI / 2);
    default:
      return poly(7, -Math.PI / 2);
  }
}

// Emblems drawn in a 20x20 box centred at 0,0 (scaled to the token).
const EMBLEMS: Record<string, string> = {
  king: 'M-7,4L-8,-5L-4,-1L0,-7L4,-1L8,-5L7,4Z',
  queen: 'M-7,4L-6,-6L-2,0L0,-8L2,0L6,-6L7,4Z M-1,-9a1.5,1.5 0 1,0 2,0',
  dragon: 'M-8,3C-4,-8 4,-8 8,3L4,0L2,4L0,-1L-2,4L-4,0Z',
  elephant: 'M-7,5L-7,-3C-7,-7 5,-7 6,-2L8,4L5,4L4,0L-3,0L-3,5Z',
  horse: 'M-5,7L-5,0C-5,-6 0,-8 4,-7L7,-3L5,-1L2,-2L1,7Z',
  lighthorse: 'M-4,7L-4,1C-4,-5 0,-7 3,-6L6,-3L4,-1L2,-2L1,7Z',
  spear: 'M-1,8L-1,-3L-3,-3L0,-9L3,-3L1,-3L1,8Z',
  rabble: 'M-6,6L-4,-2L0,-6L4,-2L6,6Z',
  crossbow: 'M-8,-1Q0,-9 8,-1L7,1Q0,-6 -7,1Z M-1,-6L1,-6L1,8L-1,8Z',
  catapult: 'M-8,6L8,6L8,4L-8,4Z M-6,4L4,-7L6,-5L-3,4Z M4,-8a2,2 0 1,0 1,0',
  trebuchet: 'M-7,7L-1,-7L1,-7L7,7L5,7L0,-3L-5,7Z M-8,-6L8,2L8,4L-8,-4Z',
  tower: 'M-6,7L-6,-4L-6,-8L-3,-8L-3,-6L-1,-6L-1,-8L1,-8L1,-6L3,-6L3,-8L6,-8L6,7Z',
  heavy: 'M-7,6L-7,-2L0,-8L7,-2L7,6Z',
  light: 'M-4,5L0,-5L4,5Z',
  knight: 'M-5,7L-5,0C-5,-6 0,-8 4,-7L7,-3L5,-1L2,-2L1,7Z',
  cannon: 'M-8,2L6,-4L7,-2L-7,4Z M-6,4a3,3 0 1,0 1,0',
  mountain: 'M-9,7L-3,-6L0,-1L3,-7L9,7Z',
  soldier: 'M-1,8L-1,-3L-3,-3L0,-9L3,-3L1,-3L1,8Z',
  monster: 'M-8,6L-6,-6L-3,0L0,-8L3,0L6,-6L8,6Z',
  hero: 'M0,-9L2.5,-3L9,-3L4,1L6,8L0,4L-6,8L-4,1L-9,-3L-2.5,-3Z',
  town: 'M-6,7L-6,-1L0,-7L6,-1L6,7Z',
  fort: 'M-7,7L-7,-6L-4,-6L-4,-3L-1,-3L-1,-6L2,-6L2,-3L5,-3L5,-6L7,-6L7,7Z',
  barracks: 'M-8,7L-8,-2L0,-7L8,-2L8,7Z M-2,7L-2,2L2,2L2,7Z',
  temple: 'M-8,7L-8,5L8,5L8,7Z M-6,5L-6,-3L6,-3L6,5Z M-8,-3L0,-8L8,-3Z',
  palace: 'M-8,7L-8,-2L-5,-6L-2,-2L0,-8L2,-2L5,-6L8,-2L8,7Z',
  capital: 'M-8,6L-9,-6L-4,-1L0,-9L4,-1L9,-6L8,6Z',
};

/** Maps a piece name from a view ("Heavy Horse", "light_horse", "K") to an emblem key. */
export function emblemKey(kind: string): string {
  const k = kind.toLowerCase().replace(/[^a-z]/g, '');
  if (k in EMBLEMS) return k;
  if (k.startsWith('lighthorse') || k === 'lh') return 'lighthorse';
  if (k.startsWith('heavyhorse') || k === 'hh') return 'horse';
  if (k.startsWith('cross')) return 'crossbow';
  if (k.startsWith('spear')) return 'spear';
  if (k.startsWith('lightpawn') || k === 'light') return 'light';
  if (k.startsWith('heavy')) return 'heavy';
  if (k.startsWith('mount')) return 'mountain';
  if (k.startsWith('treb')) return 'trebuchet';
  if (k.startsWith('cata')) return 'catapult';
  if (k.startsWith('drag')) return 'dragon';
  if (k.startsWith('eleph')) return 'elephant';
  if (k.startsWith('rabb')) return 'rabble';
  return 'rabble';
}

/** A short label for a piece name: "Heavy Horse" → "HH", "King" → "K". */
export function pieceLabel(kind: string): string {
  const words = kind.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().split(/\s+/);
  if (words.length > 1) return words.map((w) => w[0]?.toUpperCase() ?? '').join('').slice(0, 2);
  const w = words[0] ?? '?';
  const special: Record<string, string> = { crossbowman: 'Xb', catapult: 'Ca', trebuchet: 'Tr', dragon: 'Dr', elephant: 'El', rabble: 'Ra', spearman: 'Sp', spear: 'Sp', king: 'K', mountain: 'Mt', queen: 'Q', tower: 'T', heavy: 'H', knight: 'N', cannon: 'C' };
  return special[w.toLowerCase()] ?? (w.charAt(0).toUpperCase() + w.slice(1, 2));
}

/** A piece token at (x, y) with radius r. */
export function pieceToken(kind: string, seat: number, x: number, y: number, r: number, extra: Record<string, unknown> = {}): SVGElement {
  const key = emblemKey(kind);
  const mountain = key === 'mountain';
  const fill = mountain ? '#8d7b68' : seatColour(seat);
  const ink = mountain ? '#f4efe3' : seatInk(seat);
  const scale = (r * 0.62) / 10;
  return s('g', { class: 'piece', transform: `translate(${x.toFixed(2)},${y.toFixed(2)})`, 'data-piece': kind, 'data-owner': seat, ...extra },
    s('title', `${kind}${mountain ? '' : ` (seat ${seat + 1})`}`),
    s('path', { d: mountain ? 'M-1,-1' : outline(seat, r), fill, stroke: seat === 1 ? '#c9b79c' : '#2d2a26', 'stroke-width': Math.max(1, r * 0.08) }),
    s('path', { d: EMBLEMS[key], transform: `translate(0,${(-r * 0.18).toFixed(2)}) scale(${scale.toFixed(3)})`, fill: mountain ? '#6b5a48' : ink, stroke: mountain ? '#3d3024' : 'none', 'stroke-width': mountain ? 1 : 0 }),
    s('text', { y: (r * 0.7).toFixed(2), 'text-anchor': 'middle', 'font-size': (r * 0.5).toFixed(2), 'font-weight': 700, fill: mountain ? '#2d2a26' : ink }, mountain ? '' : pieceLabel(kind)),
  );
}
