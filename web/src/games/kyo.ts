// Kyo (game id `kyo`): a 10x10 board of stacks. The view is the whole state; `board` maps a square
// (`A0`..`J9`) to its stack: chip letters bottom to top (D Dark Mana, L Light Mana, S Shield), then the
// pawn letter (H Heavy, K King, Q Queen, T Tower, P Light Pawn, N Knight, C Cannon); Gold (seat 0) upper
// case, Red (seat 1) lower case. Every chip is drawn, in order, so the slice to lift is visible; the
// slice itself is chosen among the legal actions when a move's cells are clicked.

import { h, s } from '../ui/dom';
import { pieceToken, seatColour } from './art';
import { drawSquareBoard } from './squares';
import { asNumber, asString, get } from './types';
import type { Renderer, RenderContext } from './types';

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

function drawStack(st: Stack, x: number, y: number, size: number): SVGElement {
  const g = s('g', { 'pointer-events': 'none' });
  const chipH = Math.min(7, (size * 0.5) / Math.max(1, st.chips.length));
  st.chips.forEach((c, i) => {
    const cy = y + size - 4 - (i + 1) * chipH;
    g.appendChild(s('rect', {
      x: x + 5, y: cy, width: size - 10, height: chipH - 0.8, rx: 1.5,
      fill: CHIP_FILL[c.kind], stroke: c.owner === 0 ? '#c9a227' : '#b3261e', 'stroke-width': 1.6,
    }));
    if (chipH >= 5) {
      g.appendChild(s('text', { x: x + size / 2, y: cy + chipH - 1.8, 'text-anchor': 'middle', 'font-size': chipH - 1, fill: CHIP_INK[c.kind] }, `${c.kind}${c.owner === 0 ? '' : '\u2032'}`));
    }
  });
  if (st.pawn) {
    const top = y + size - 4 - st.chips.length * chipH;
    const r = size * 0.26;
    g.appendChild(pieceToken(st.pawn.kind, st.pawn.owner, x + size / 2, Math.min(top - r + 4, y + size / 2), r));
  }
  return g;
}

export const kyoRenderer: Renderer = {
  flippable: true,
  render(ctx: RenderContext) {
    const board = get(ctx.view, 'board');
    const stacks = new Map<string, Stack>();
    if (board && typeof board === 'object') {
      for (const [sq, code] of Object.entries(board as Record<string, unknown>)) stacks.set(sq, parseStack(asString(code)));
    }
    const svg = drawSquareBoard(ctx, {
      files: FILES, ranks: RANKS, flip: (ctx.bottomSeat ?? ctx.seat ?? 0) === 1, size: 56,
      fill: (f, r) => ((f + r) % 2 === 0 ? '#d9c9a3' : '#efe3c8'),
      content: (name, x, y) => {
        const st = stacks.get(name);
        return st ? drawStack(st, x, y, 56) : null;
      },
      title: (name) => {
        const st = stacks.get(name);
        if (!st) return `${name}: empty`;
        const chips = st.chips.map((c) => `${c.kind}${c.owner === 0 ? '(Gold)' : '(Red)'}`).join(' ');
        return `${name}: ${chips || 'no chips'}${st.pawn ? ` under ${st.pawn.owner === 0 ? 'Gold' : 'Red'} ${st.pawn.kind}` : ''}`;
      },
    });
    const turn = get(ctx.view, 'turn');
    const toMove = asNumber(get(ctx.view, 'to_move'));
    // Mana left per player (the game is lost with none).
    const mana = [0, 0];
    for (const st of stacks.values()) for (const c of st.chips) if (c.kind !== 'S') mana[c.owner]++;
    const info = h('div.card',
      h('div', h('span.seat-chip', { style: `background:${seatColour(toMove)}` }), `${ctx.seatNames[toMove] ?? (toMove === 0 ? 'Gold' : 'Red')} to move`),
      h('div', `This turn: ${asString(get(turn, 'phase'), 'open')}${get(turn, 'active') ? `, piece on ${asString(get(turn, 'active'))}` : ''}, ${asNumber(get(turn, 'steps'))} step(s)`),
      h('div', `Mana chips on the board — Gold: ${mana[0]}, Red: ${mana[1]}`),
      h('p.muted', 'Chips bottom to top: D Dark Mana (purple), L Light Mana (yellow), S Shield (grey); gold edges are Gold\'s, red edges and a prime (′) are Red\'s. Click a stack, then a target; pick the slice (chips left behind, /N) when asked.'),
    );
    return { board: svg, panels: [info] };
  },
};
