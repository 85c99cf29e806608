// Kyo (game id `kyo`): a 10x10 board of stacks. The view is the whole state; `board` maps a square
// (`A0`..`J9`) to its stack: chip letters bottom to top (D Dark Mana, L Light Mana, S Shield), then the
// pawn letter (H Heavy, K King, Q Queen, T Tower, P Light Pawn, N Knight, C Cannon); Gold (seat 0) upper
// case, Red (seat 1) lower case. Every chip is drawn, in order, so the slice to lift is visible; the
// slice itself is chosen among the legal actions when a move's cells are clicked.

import { h, s } from '../ui/dom';
import { PALETTE, pieceToken, seatColour } from './art';
import { drawSquareBoard } from './squares';
import type { Renderer, RenderContext } from './types';
import type { RestackCodec } from '../logic/restack';
import type { Kyo } from '../wire/kyo/Kyo';

const FILES = 'ABCDEFGHIJ'.split('');
const RANKS = '0123456789'.split('');
const PAWNS: Record<string, string> = { H: 'Heavy', K: 'King', Q: 'Queen', T: 'Tower', P: 'Light Pawn', N: 'Knight', C: 'Cannon' };
const CHIP_FILL: Record<string, string> = { D: '#3f3a5a', L: '#e9d98b', S: '#8a9aa6' };
const CHIP_INK: Record<string, string> = { D: '#f4efe3', L: '#2d2a26', S: '#1d1b19' };

export interface Stack {
  chips: { kind: string; owner: number }[];
  pawn: { kind: string; owner: number } | null;
}

/** Parses a stack code such as `DDLH` (Gold) or `ddlh` (Red); mixed owners per letter. */
export function parseStack(code: string): Stack {
  const chips: Stack['chips'] = [];
  let pawn: Stack['pawn'] = null;
  for (const ch of code) {
    const up = ch.toUpperCase();
    const owner = ch === up ? 0 : 1;
    if (up in CHIP_FILL) chips.push({ kind: up, owner });
    else if (up in PAWNS) pawn = { kind: PAWNS[up], owner };
  }
  return { chips, pawn };
}

const CHIP_NAME: Record<string, string> = { D: 'Dark Mana', L: 'Light Mana', S: 'Shield' };
const SIDE = ['Gold', 'Red'];

/** A stack in words, top first: "Gold Heavy on Dark Mana (Gold), Light Mana (Red)". */
export function stackWords(st: Stack): string {
  const chips = [...st.chips].reverse().map((c) => `${CHIP_NAME[c.kind]} (${SIDE[c.owner]})`).join(', ');
  const pawn = st.pawn ? `${SIDE[st.pawn.owner]} ${st.pawn.kind}` : '';
  if (pawn && chips) return `${pawn} on ${chips}`;
  return pawn || chips || 'empty';
}

/** A stack: its chips as a column on the right, bottom to top (every chip drawn, so the composition
 * and the slice to lift are visible at a glance: Dark Mana purple, Light Mana yellow, Shields grey with
 * a notch; the owner by the edge, gold or red), its pawn as a token on the left. */
function drawStack(st: Stack, x: number, y: number, size: number): SVGElement {
  const g = s('g', { class: 'stack', 'pointer-events': 'none', 'data-info': stackWords(st) });
  const n = st.chips.length;
  const colW = size * 0.28;
  const colX = x + size - colW - 5;
  const chipH = Math.min(size * 0.2, (size - 10) / Math.max(1, n));
  st.chips.forEach((c, i) => {
    const cy = y + size - 5 - (i + 1) * chipH;
    g.appendChild(s('rect', {
      class: `chip chip-${c.kind}`, x: colX, y: cy + 0.4, width: colW, height: chipH - 0.8, rx: Math.min(2, chipH / 3),
      fill: CHIP_FILL[c.kind], stroke: c.owner === 0 ? '#d4a017' : '#c0392b', 'stroke-width': Math.min(2.2, chipH / 3),
    }));
    if (c.kind === 'S') g.appendChild(s('path', { d: `M${colX + colW / 2 - 2.5},${cy + 1.5}h5v${Math.max(1, chipH - 4.5)}l-2.5,1.5l-2.5,-1.5Z`, fill: '#f4efe3', 'fill-opacity': 0.85 }));
    else if (chipH >= 9) g.appendChild(s('text', { x: colX + colW / 2, y: cy + chipH - 2.2, 'text-anchor': 'middle', 'font-size': chipH - 3, 'font-weight': 700, fill: CHIP_INK[c.kind] }, c.kind));
  });
  if (st.pawn) {
    const r = size * 0.31;
    const words = stackWords(st);
    g.appendChild(pieceToken(st.pawn.kind, st.pawn.owner, x + size * 0.33, y + size / 2, r, { game: 'chess', info: words, colours: KYO_SIDES[st.pawn.owner] }));
  }
  return g;
}

/** The turn in progress in words, once its piece has acted (a fresh turn says nothing: the status line
 * says whose move it is): "Gold's Heavy on C5 has made 2 Mana moves: another Mana move, or end the turn". */
export function turnWords(view: Kyo, stacks: Map<string, Stack>, seatNames: string[]): string | null {
  const t = view.turn;
  if (t.steps === 0 || !t.active) return null;
  const side = seatNames[view.to_move] ?? SIDE[view.to_move] ?? '';
  const pawn = stacks.get(t.active)?.pawn;
  const piece = `${side}'s ${pawn ? pawn.kind : 'stack'} on ${t.active}`;
  const n = t.steps;
  if (t.phase === 'chain') return `${piece} has made ${n === 1 ? 'a Mana move' : `${n} Mana moves`}: another Mana move, or end the turn`;
  if (t.phase === 'locked') return `${piece} has stepped: it may still deploy Shields, or end the turn`;
  return `${piece} has acted ${n === 1 ? 'once' : `${n} times`} this turn: it may go on, or end the turn`;
}

/** Kyo's shuffles for the stack editor: the stack's chips from the view, and a shuffle's stack and
 * new order (`{"shuffle": {"at": "F0", "order": "LDS"}}`, bottom to top from the lowest changed chip). */
export const kyoRestack: RestackCodec = {
  chips(view, cell) {
    const code = (view as Kyo | null)?.board?.[cell];
    return typeof code === 'string' ? parseStack(code).chips : null;
  },
  reorder(action) {
    const sh = typeof action === 'object' && action !== null ? (action as { shuffle?: unknown }).shuffle : undefined;
    if (typeof sh !== 'object' || sh === null) return null;
    const { at, order } = sh as { at?: unknown; order?: unknown };
    return typeof at === 'string' && typeof order === 'string' ? { at, order } : null;
  },
  kindName: (kind) => CHIP_NAME[kind] ?? kind,
  look: (c) => ({ fill: CHIP_FILL[c.kind] ?? '#888', ink: CHIP_INK[c.kind] ?? '#000', edge: c.owner === 0 ? '#d4a017' : '#c0392b' }),
  isShield: (kind) => kind === 'S',
};

/** The sides' own colours: Gold's pawns are gold and Red's red, as the game names them (the chips'
 * edges say the same). */
export const KYO_SIDES = [{ fill: '#d9a520', ink: '#2d2a26' }, { fill: '#b8322a', ink: '#ffffff' }];

export const kyoRenderer: Renderer<Kyo> = {
  flippable: true,
  seatColour: (_view, seat) => KYO_SIDES[seat]?.fill ?? null,
  restack: kyoRestack,
  // The engine lists the common variant of a move first (crates/games/kyo, `Kyo::cells`).
  commonFirst: true,
  render(ctx: RenderContext<Kyo>) {
    const view = ctx.view;
    const stacks = new Map<string, Stack>();
    for (const [sq, code] of Object.entries(view.board)) if (code !== undefined) stacks.set(sq, parseStack(code));
    const svg = drawSquareBoard(ctx, {
      files: FILES, ranks: RANKS, flip: (ctx.bottomSeat ?? ctx.seat ?? 0) === 1, size: 56,
      fill: (f, r) => ((f + r) % 2 === 0 ? PALETTE.dark : PALETTE.light),
      content: (name, x, y) => {
        const st = stacks.get(name);
        return st ? drawStack(st, x, y, 56) : null;
      },
      title: (name) => {
        const st = stacks.get(name);
        return `${name}: ${st ? stackWords(st) : 'empty'}`;
      },
    });
    // Mana left per player (the game is lost with none).
    const mana = [0, 0];
    for (const st of stacks.values()) for (const c of st.chips) if (c.kind !== 'S') mana[c.owner]++;
    const turn = view.outcome ? null : turnWords(view, stacks, ctx.seatNames);
    const info = h('div.card', { 'data-testid': 'kyo-panel' },
      turn ? h('div', { 'data-testid': 'kyo-turn' }, h('span.seat-chip', { style: `background:${KYO_SIDES[view.to_move]?.fill ?? seatColour(view.to_move)}` }), turn) : null,
      h('div', `Mana chips on the board — Gold: ${mana[0]}, Red: ${mana[1]}`),
      h('p.muted', 'Each stack: the pawn on the left, its chips on the right from the bottom up — Dark Mana (purple), Light Mana (yellow), Shield (grey, notched); gold edges are Gold\'s chips, red edges Red\'s. Tap a stack to read it. Click a stack, then a target: it moves with its whole slice; the other ways (fewer chips, the chips alone, Shields deployed) open at the target when it has them.'),
    );
    return { board: svg, panels: [info] };
  },
};
