// Original piece artwork: every piece is a token whose outline depends on the seat (so colour is never
// the only cue) and whose emblem and label name the piece.

import { s } from '../ui/dom';

const SEAT_COLOURS = ['#f4efe3', '#2d2a26', '#c0392b', '#2471a3', '#229954', '#e67e22'];
const SEAT_INK = ['#2d2a26', '#f4efe3', '#ffffff', '#ffffff', '#ffffff', '#2d2a26'];

/** The one palette of every board (the stylesheet's :root variables name the same colours): light and
 * dark cells, lines, coordinates, the covers of hidden setups, the last move's tint. */
export const PALETTE = {
  light: '#efe3c8',
  mid: '#e3d2ad',
  dark: '#d6c196',
  line: '#7b6446',
  label: '#6d5f50',
  ink: '#2b2118',
  cover: '#3b2a1a',
  coverInk: '#f6d9a8',
  last: '#5b8fd6',
  neutral: '#dfe6cf',
};

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

// Piece art: each emblem is an SVG symbol (a silhouette in a 20x20 box centred at 0,0) kept once in a
// hidden sprite and drawn with <use>, in the token's ink. Cyvasse pieces look like what they are (a crown,
// a winged dragon, a catapult's arm, an elephant's trunk…); Kyo's and Territories' pieces are chess
// pieces (Territories' buildings are played with them: Town a pawn, Fort a rook, Barracks a knight,
// Temple a bishop, Palace a queen, Capital a king).
const BASE = 'M-6.5,9.5h13v-2.8h-13Z';
const PAWN = `${BASE} M-4.5,6.7L-2.6,0.2h5.2L4.5,6.7Z M-3.8,0.4h7.6v-1.6h-7.6Z M-3.3,-4.6a3.3,3.3 0 1,0 6.6,0a3.3,3.3 0 1,0 -6.6,0Z`;
const ROOK = `${BASE} M-4.5,6.7L-3.6,-3h7.2L4.5,6.7Z M-5.8,-3L-5.8,-9h2.6v2.2h1.9v-2.2h2.6v2.2h1.9v-2.2h2.6L5.8,-3Z`;
const KNIGHT = `${BASE} M-5,6.7C-5,2.5 -1.2,0.8 -1.6,-1.8L-5.2,0.2L-7.6,-2.6L-2.4,-7.6L-0.6,-9.6L0.6,-7.8C5,-7 6.6,-1.5 5.4,6.7Z`;
const BISHOP = `${BASE} M-4.3,6.7L-2.2,-0.6h4.4L4.3,6.7Z M-3.4,-0.6h6.8v-1.4h-6.8Z M-3.6,-5.2C-3.6,-8 -1.5,-9 0,-9.6C1.5,-9 3.6,-8 3.6,-5.2C3.6,-3.4 2.2,-2.2 0,-2.2C-2.2,-2.2 -3.6,-3.4 -3.6,-5.2Z`;
const QUEEN = `${BASE} M-4.6,6.7L-3.2,-1h6.4L4.6,6.7Z M-6.2,-1L-7.4,-7.2L-3.6,-3.4L0,-8.4L3.6,-3.4L7.4,-7.2L6.2,-1Z M-8.6,-7.6a1.3,1.3 0 1,0 2.6,0a1.3,1.3 0 1,0 -2.6,0Z M-1.3,-9a1.3,1.3 0 1,0 2.6,0a1.3,1.3 0 1,0 -2.6,0Z M6,-7.6a1.3,1.3 0 1,0 2.6,0a1.3,1.3 0 1,0 -2.6,0Z`;
const CHESS_KING = `${BASE} M-4.6,6.7L-3.2,-1h6.4L4.6,6.7Z M-6.2,-1L-6.8,-5.2h13.6L6.2,-1Z M-1,-10.2h2v1.9h1.9v1.9h-1.9v1.6h-2v-1.6h-1.9v-1.9h1.9Z`;

const EMBLEMS: Record<string, string> = {
  // Cyvasse.
  king: 'M-8.5,9h17v-2.8h-17Z M-8.2,5L-9.6,-5.2L-4.6,-1.2L0,-7.6L4.6,-1.2L9.6,-5.2L8.2,5Z M-1.5,-9.2a1.5,1.5 0 1,0 3,0a1.5,1.5 0 1,0 -3,0Z M-11,-6.4a1.4,1.4 0 1,0 2.8,0a1.4,1.4 0 1,0 -2.8,0Z M8.2,-6.4a1.4,1.4 0 1,0 2.8,0a1.4,1.4 0 1,0 -2.8,0Z',
  dragon: 'M-10,-6.5C-7,-3 -4.5,-3 -2.4,-4L-1.2,-8.6L0,-6.8L1.2,-8.6L2.4,-4C4.5,-3 7,-3 10,-6.5C9.4,-0.6 6,2.2 3,2.4L1.6,5.4L3.6,9L0,6.8L-3.6,9L-1.6,5.4L-3,2.4C-6,2.2 -9.4,-0.6 -10,-6.5Z',
  elephant: 'M8.6,8L8.6,-1.6C8.6,-6 3,-7.4 -1.6,-6.6C-4.8,-6 -7,-4.4 -7.6,-1.2L-8.4,4.6L-10,6.2L-8.6,7.4L-6.6,4.6L-6,1.6L-5,1.4L-5,8L-2,8L-2,3.4L4,3.4L4,8Z M-6.2,-0.4L-9.6,0.6L-9.2,1.6L-5.8,0.8Z',
  horse: 'M-7,9.5h14v-2.6h-14Z M-5,6.9C-5,2.5 -1.2,0.8 -1.6,-1.8L-5.2,0.2L-7.6,-2.6L-2.4,-7.6L-0.6,-9.6L0.6,-7.8C5,-7 6.6,-1.5 5.4,6.9Z',
  lighthorse: 'M-3.6,8.5C-3.6,3.5 0,1.6 -0.6,-1L-4,0.8L-6.4,-1.8L-1.4,-7L0.4,-9.4L1.6,-7.4C5.6,-6.4 7.4,-1 6.2,8.5Z M-10,-3.4h4.4v1.4h-4.4Z M-10.4,0.6h3.6v1.4h-3.6Z M-10,4.6h4.6v1.4h-4.6Z',
  spear: 'M3.3,9.6L3.3,-4.2L1.5,-4.2L4,-10L6.5,-4.2L4.7,-4.2L4.7,9.6Z M-8.8,-3.6h8.4v5.2C-0.4,5.6 -4.6,8.4 -4.6,8.4C-4.6,8.4 -8.8,5.6 -8.8,1.6Z',
  rabble: 'M-0.8,9.8L-0.8,-1.6h1.6L0.8,9.8Z M-5.6,-1.6h11.2v1.8h-11.2Z M-5.6,-1.6v-7.4h1.6v7.4Z M-0.8,-1.6v-8.4h1.6v8.4Z M4,-1.6v-7.4h1.6v7.4Z',
  crossbow: 'M-1,-6L1,-6L1.4,9.6L-1.4,9.6Z M-9.6,-2.4C-5.6,-9.2 5.6,-9.2 9.6,-2.4L8.4,-1.4C4.4,-7.2 -4.4,-7.2 -8.4,-1.4Z M-8.8,-2L0,1.6L8.8,-2L8.8,-1.2L0,2.6L-8.8,-1.2Z M-2,-6L0,-10L2,-6Z',
  catapult: 'M-9,3.2h15v2h-15Z M-7.6,6.8a2.4,2.4 0 1,0 4.8,0a2.4,2.4 0 1,0 -4.8,0Z M1.6,6.8a2.4,2.4 0 1,0 4.8,0a2.4,2.4 0 1,0 -4.8,0Z M-1.2,3.2L-1.2,-1.4h2.4v4.6Z M-6.6,2.6L5.6,-6.6L6.8,-5L-5.4,4Z M4.8,-8a2.6,2.6 0 1,0 5.2,0a2.6,2.6 0 1,0 -5.2,0Z',
  trebuchet: 'M-8.5,8h17v1.8h-17Z M-6.4,8L-1,-3.2h2L6.4,8h-2.2L0,-0.2L-4.2,8Z M-10,-7.6L7.6,-1.8L7.1,-0.4L-10.5,-6.2Z M5,-0.6h5v5.2h-5Z M-10.4,-6.8L-9.4,-1.4L-8.4,-1.6L-9.2,-6.6Z',
  tower: ROOK,
  mountain: 'M-10,8L-4,-5L-1,0L3,-8.5L10,8Z',
  // Kyo (chess-like pawns) and Territories (chess-piece buildings).
  queen: QUEEN,
  chessking: CHESS_KING,
  heavy: `${PAWN} M-5.4,1.6h10.8v2.2h-10.8Z`,
  light: 'M-5,9h10v-2.4h-10Z M-3.4,6.6L-1.9,1.4h3.8L3.4,6.6Z M-2.6,-1.2a2.6,2.6 0 1,0 5.2,0a2.6,2.6 0 1,0 -5.2,0Z',
  knight: KNIGHT,
  cannon: 'M-9.4,0.8L5.4,-6.6L7,-3.4L-7.8,4Z M5.2,-7.6h2.2v5.2h-2.2Z M-4.8,4.4a4.2,4.2 0 1,0 8.4,0a4.2,4.2 0 1,0 -8.4,0Z',
  town: PAWN,
  fort: ROOK,
  barracks: KNIGHT,
  temple: BISHOP,
  palace: QUEEN,
  capital: CHESS_KING,
  // Syba's units.
  soldier: 'M-0.7,9.6L-0.7,-4.2L-2.5,-4.2L0,-10L2.5,-4.2L0.7,-4.2L0.7,9.6Z M-7,-2h14v1.8h-14Z',
  monster: 'M-9,8L-7,-6L-4,1L-2,-9L0,0L2,-9L4,1L7,-6L9,8Z',
  hero: 'M0,-9.5L2.6,-3.2L9.4,-3L4.2,1.2L6,8.4L0,4.4L-6,8.4L-4.2,1.2L-9.4,-3L-2.6,-3.2Z',
  // Syba's cities by level.
  settlement: 'M-7,8L-7,0L0,-6L7,0L7,8Z',
  village: 'M-9.6,8L-9.6,1L-5,-3L-0.4,1L-0.4,8Z M1,8L1,-1L5.4,-5L9.8,-1L9.8,8Z',
  citytown: 'M-9,8L-9,0L-4,-4.5L1,0L1,8Z M2,8L2,-8.5L4,-10.5L6,-8.5L8,-8.5L8,8Z',
  major: 'M-9.5,8L-9.5,-4.5L-7,-4.5L-7,-2L-4.5,-2L-4.5,-4.5L-2,-4.5L-2,-2L2,-2L2,-4.5L4.5,-4.5L4.5,-2L7,-2L7,-4.5L9.5,-4.5L9.5,8L2,8L2,3A2,2 0 0,0 -2,3L-2,8Z',
  citycapital: 'M-9.5,8L-9.5,-1L-7,-1L-7,1L-4.5,1L-4.5,-6L-2.5,-8.5L-0.5,-6L-0.5,1L0.5,1L0.5,-6L2.5,-8.5L4.5,-6L4.5,1L7,1L7,-1L9.5,-1L9.5,8Z M-3.5,-9.5L-2.5,-11.5L-1.5,-9.5Z M1.5,-9.5L2.5,-11.5L3.5,-9.5Z',
};

/** Every emblem's name (for the sprite and the tests). */
export const EMBLEM_KEYS: string[] = Object.keys(EMBLEMS);

/** The id of an emblem's symbol in the sprite. */
export function symbolId(key: string): string {
  return `tabula-emblem-${key}`;
}

/** Puts the sprite of emblem symbols into the document once (a hidden SVG at the end of the body). */
export function ensureSprite(doc: Document = document): void {
  if (doc.getElementById('tabula-sprite')) return;
  const sprite = s('svg', { id: 'tabula-sprite', 'aria-hidden': 'true', width: 0, height: 0, style: 'position:absolute;width:0;height:0;overflow:hidden' },
    s('defs', EMBLEM_KEYS.map((k) => s('symbol', { id: symbolId(k), viewBox: '-11 -11 22 22' }, s('path', { d: EMBLEMS[k] })))));
  doc.body.appendChild(sprite);
  installInfoTips(doc);
}

/** A tap (or click) on a piece, unit, city badge or stack shows what it is in words (its `data-info`)
 * in a small line above the finger, since a phone shows no hover tooltip; the next tap elsewhere, a
 * scroll or a few seconds hide it. The line never takes clicks (pointer-events: none). */
function installInfoTips(doc: Document): void {
  const tip = doc.createElement('div');
  tip.className = 'piece-tip';
  tip.setAttribute('data-testid', 'piece-tip');
  tip.setAttribute('role', 'status');
  tip.hidden = true;
  doc.body.appendChild(tip);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hide = (): void => {
    tip.hidden = true;
  };
  doc.addEventListener('pointerdown', (ev) => {
    const target = ev.target as Element | null;
    let el = target?.closest?.('[data-info]') ?? null;
    if (!el) el = target?.closest?.('svg.board [data-cell]')?.querySelector('[data-info]') ?? null;
    const text = el?.getAttribute('data-info');
    if (!text) {
      hide();
      return;
    }
    tip.textContent = text;
    tip.hidden = false;
    // Centred above the finger, kept inside the window (below the finger near the top edge).
    const w = doc.documentElement.clientWidth;
    const half = tip.offsetWidth / 2;
    const left = Math.max(8 + half, Math.min(w - 8 - half, ev.clientX));
    const above = ev.clientY - 14 - tip.offsetHeight >= 8;
    tip.style.left = `${left}px`;
    tip.style.top = `${above ? ev.clientY - 14 : ev.clientY + 24 + tip.offsetHeight}px`;
    clearTimeout(timer);
    timer = setTimeout(hide, 5000);
  }, { passive: true, capture: true });
  doc.addEventListener('scroll', hide, { passive: true, capture: true });
}

/** An emblem drawn with <use> in a square of side `size` centred at (x, y), filled with `fill`. */
export function emblemUse(key: string, x: number, y: number, size: number, fill: string, extra: Record<string, unknown> = {}): SVGElement {
  ensureSprite();
  const k = key in EMBLEMS ? key : 'rabble';
  return s('use', { href: `#${symbolId(k)}`, x: (x - size / 2).toFixed(2), y: (y - size / 2).toFixed(2), width: size.toFixed(2), height: size.toFixed(2), fill, class: 'emblem', 'data-emblem': k, ...extra });
}

/** Maps a piece name from a view ("Heavy Horse", "light_horse", "K") to an emblem key. */
export function emblemKey(kind: string, game: 'cyvasse' | 'chess' = 'cyvasse'): string {
  const k = kind.toLowerCase().replace(/[^a-z]/g, '');
  if (game === 'chess' && k === 'king') return 'chessking';
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

/** Options of a piece token: the emblem family, and the words of its tooltip (default: the kind). */
export interface TokenOptions {
  game?: 'cyvasse' | 'chess';
  /** What a hover or a tap on the piece says (rule-book words); default: the piece's name. */
  info?: string;
  /** Extra attributes of the token's group (`data-cell`…). */
  attrs?: Record<string, unknown>;
  /** The game's own colours for this seat (Kyo's Gold and Red), instead of the seat's default. */
  colours?: { fill: string; ink: string };
}

/** A piece token at (x, y) with radius r: the seat's outline (circle, octagon, …) in the seat's colour
 * and the piece's emblem (an SVG symbol) in the seat's ink; a Mountain is a bare grey peak. */
export function pieceToken(kind: string, seat: number, x: number, y: number, r: number, o: TokenOptions = {}): SVGElement {
  const key = emblemKey(kind, o.game);
  const mountain = key === 'mountain';
  const fill = mountain ? '#8d7b68' : o.colours?.fill ?? seatColour(seat);
  const ink = mountain ? '#f4efe3' : o.colours?.ink ?? seatInk(seat);
  const info = o.info ?? kind;
  return s('g', { class: 'piece', transform: `translate(${x.toFixed(2)},${y.toFixed(2)})`, 'data-piece': kind, 'data-owner': seat, 'data-info': info, ...(o.attrs ?? {}) },
    s('title', info),
    mountain
      ? s('path', { d: 'M-0.95,0.75L-0.38,-0.45L-0.1,0L0.28,-0.8L0.95,0.75Z', transform: `scale(${r.toFixed(2)})`, fill: '#8d7b68', stroke: '#3d3024', 'stroke-width': 0.06, 'stroke-linejoin': 'round' })
      : s('path', { d: outline(seat, r), fill, stroke: seat === 1 ? '#c9b79c' : '#2d2a26', 'stroke-width': Math.max(1, r * 0.08) }),
    mountain
      ? s('path', { d: 'M-0.38,-0.45L-0.22,-0.2L-0.1,-0.28L0,0L0.28,-0.8L0.45,-0.4L0.3,-0.3L0.2,-0.42L0.05,-0.1Z', transform: `scale(${r.toFixed(2)})`, fill: '#f4efe3' })
      : emblemUse(key, 0, 0, r * 1.45, ink),
  );
}
