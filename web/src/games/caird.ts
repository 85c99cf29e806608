// Caird's Cyvasse (game id `cyvasse-caird`): 8x8 or 10x10 squares (ranks from White's side) or the
// 91-hex board, with Version C terrain. The view carries `board` and `terrain` as one character per
// cell, row by row (`/` separators ignored): pieces `K D E T C H L S R M` (upper case White = seat 0,
// lower case Black), terrain `.` Grassland, `h` Hills, `f` Forest, `w` Water, `c` Fortress, `b` burning.
// During the hidden setup a seat's own committed plan (`setups[seat]`: one character per home cell, in
// home order) is shown on its half; the other half stays covered until both are committed.

import { h } from '../ui/dom';
import { parseRowCell, rowCellNames, rowCellToCube } from '../logic/hex';
import { pieceToken } from './art';
import { drawHexBoard, TERRAIN_FILL, type HexPiece } from './hexboard';
import { drawSquareBoard } from './squares';
import { cairdSetup } from '../logic/setup';
import type { Renderer, RenderContext } from './types';
import type { CairdView } from '../wire/cyvasse/CairdView';
import { LEGENDS } from '../wire/legends';

/** The view's piece letters (see the header): upper case White, lower case Black. */
const KINDS: Record<string, string> = {
  K: 'King', D: 'Dragon', E: 'Elephant', T: 'Trebuchet', C: 'Crossbowman', H: 'Heavy Horse',
  L: 'Light Horse', S: 'Spear', R: 'Rabble', M: 'Mountain',
};
/** Each piece in the rule book's words (class, movement, shots, terrain): the engine's own legend.
 * `Kind` is the standard game's entry; `Kind|name=value,…` the entry for games with those options. */
const LEGEND = LEGENDS['cyvasse-caird'] ?? {};

/** The legend's words for a piece in a game with these options: among the piece's entries whose
 * options all hold, the first naming the most, else the standard game's (the engine's rule). */
export function cairdWords(kind: string, options: Record<string, unknown>): string {
  let best = LEGEND[kind] ?? '';
  let named = 0;
  for (const [key, words] of Object.entries(LEGEND)) {
    const [piece, conds] = key.split('|');
    if (piece !== kind || conds === undefined) continue;
    const list = conds.split(',');
    if (list.length > named && list.every((c) => { const [name, value] = c.split('='); return String(options[name ?? '']) === value; })) {
      best = words;
      named = list.length;
    }
  }
  return best;
}

/** What a hover or a tap on a piece says: "Black Dragon: special, elite; …". */
export function cairdInfo(kind: string, seat: number, options: Record<string, unknown>): string {
  const side = seat === 0 ? 'White' : seat === 1 ? 'Black' : '';
  return `${side ? `${side} ` : ''}${kind}: ${cairdWords(kind, options)}`;
}

const TERRAIN: Record<string, string> = { h: 'hills', f: 'forest', w: 'water', c: 'fortress', b: 'burning' };

export interface CairdGeometry {
  hex: boolean;
  width: number;
  /** Cell names in index order. */
  names: string[];
  /** Home seat per cell index: 0, 1, or -1. */
  homeOf: number[];
}

export function cairdGeometry(options: Record<string, unknown>): CairdGeometry {
  if (options.board === 'hex') {
    const names = rowCellNames();
    const homeOf = names.map((n) => {
      const p = parseRowCell(n);
      if (!p) return -1;
      const c = rowCellToCube(p.row, p.index);
      const d = c.r - c.s;
      return d >= 2 ? 0 : d <= -2 ? 1 : -1;
    });
    return { hex: true, width: 0, names, homeOf };
  }
  const w = options.large_board === true ? 10 : 8;
  const names: string[] = [];
  const homeOf: number[] = [];
  for (let rank = 0; rank < w; rank++) {
    for (let file = 0; file < w; file++) {
      names.push(`${String.fromCharCode(97 + file)}${rank + 1}`);
      homeOf.push(rank < w / 2 ? 0 : 1);
    }
  }
  return { hex: false, width: w, names, homeOf };
}

function chars(text: string): string[] {
  return [...text].filter((c) => c !== '/' && !/\s/.test(c));
}

/** Pieces and terrain by cell name, from the view (and the own setup plan during the setup). */
export function cairdCells(view: CairdView, geo: CairdGeometry, seat: number | null, options: Record<string, unknown> = {}): { pieces: Map<string, HexPiece>; terrain: Map<string, string> } {
  const pieces = new Map<string, HexPiece>();
  const terrain = new Map<string, string>();
  const put = (i: number, p: string, t: string) => {
    const name = geo.names[i];
    if (!name) return;
    if (p && p !== '.' && KINDS[p.toUpperCase()]) {
      const seat = p === 'M' || p === 'm' ? -1 : p === p.toUpperCase() ? 0 : 1;
      pieces.set(name, { kind: KINDS[p.toUpperCase()], seat, info: cairdInfo(KINDS[p.toUpperCase()], seat, options) });
    }
    if (t && TERRAIN[t]) terrain.set(name, TERRAIN[t]);
  };
  const b = chars(view.board);
  const t = chars(view.terrain);
  for (let i = 0; i < geo.names.length; i++) put(i, b[i] ?? '.', t[i] ?? '.');
  // Committed setup plans shown to this observer (only its own before both are in).
  view.setups.forEach((plan, s) => {
    if (!plan) return;
    const home = geo.homeOf.flatMap((hs, i) => (hs === s ? [i] : []));
    const ps = chars(plan.pieces);
    const ts = chars(plan.terrain);
    home.forEach((cell, k) => {
      const p = ps[k] ?? '.';
      put(cell, s === 1 && p !== 'M' ? p.toLowerCase() : p.toUpperCase(), ts[k] ?? '.');
    });
  });
  void seat;
  return { pieces, terrain };
}

/** The cell of the King of the side to move when the view says it is in check (`in_check`), else null. */
export function checkedKingCell(view: CairdView, options: Record<string, unknown>): string | null {
  if (!view.in_check) return null;
  const king = view.to_move === 0 ? 'K' : 'k';
  const i = chars(view.board).indexOf(king);
  return i >= 0 ? cairdGeometry(options).names[i] ?? null : null;
}

/** The status line's words for a check (the view's `in_check`: the side to move is attacked). */
export function checkNote(view: CairdView, seat: number | null, seatNames: string[]): string | null {
  if (!view.in_check) return null;
  if (seat === view.to_move) return 'Check — your King is attacked';
  return `Check — ${seatNames[view.to_move] ?? (view.to_move === 0 ? 'White' : 'Black')}'s King is attacked`;
}

export const cairdRenderer: Renderer<CairdView> = {
  flippable: true,
  statusNote: checkNote,
  setup(v, options, seat) {
    if (v.phase !== 'setup' || v.setup_committed[seat] === true) return null;
    const geo = cairdGeometry(options);
    const home = geo.names.filter((_, i) => geo.homeOf[i] === seat);
    return { ...cairdSetup(home), home, terrain: options.version === 'expert' };
  },
  render(ctx: RenderContext<CairdView>) {
    const view = ctx.view;
    const geo = cairdGeometry(ctx.options);
    const { pieces, terrain } = cairdCells(view, geo, ctx.seat, ctx.options);
    if (ctx.draft && ctx.seat !== null) {
      const mine = ctx.seat;
      geo.names.forEach((n, i) => {
        if (geo.homeOf[i] !== mine) return;
        pieces.delete(n);
        terrain.delete(n);
      });
      for (const [cell, code] of ctx.draft.pieces) {
        const kind = KINDS[code.toUpperCase()];
        if (kind) {
          const seat = code.toUpperCase() === 'M' ? -1 : mine;
          pieces.set(cell, { kind, seat, info: cairdInfo(kind, seat, ctx.options) });
        }
      }
      for (const [cell, code] of ctx.draft.terrain) if (TERRAIN[code]) terrain.set(cell, TERRAIN[code]);
    }
    const { phase, setup_committed: committed } = view;
    const bothReady = committed.every(Boolean);
    const me = ctx.seat ?? 0;
    const covered = phase === 'setup' && !bothReady ? (ctx.seat === null ? [0, 1] : [1 - me]) : [];
    let board: SVGElement;
    if (geo.hex) {
      board = drawHexBoard(ctx, {
        layout: 'caird', pieces, terrain, covered, bottomSeat: ctx.bottomSeat ?? me,
        homeOf: (name) => geo.homeOf[geo.names.indexOf(name)] ?? -1,
      });
    } else {
      const w = geo.width;
      const files = Array.from({ length: w }, (_, i) => String.fromCharCode(97 + i));
      const ranks = Array.from({ length: w }, (_, i) => String(i + 1));
      const coveredRanks = covered.flatMap((s) => ranks.map((_, r) => r).filter((r) => (r < w / 2 ? 0 : 1) === s));
      board = drawSquareBoard(ctx, {
        files, ranks, flip: (ctx.bottomSeat ?? me) === 1, size: 52,
        fill: (f, r, name) => {
          const t = terrain.get(name);
          if (t && TERRAIN_FILL[t]) return TERRAIN_FILL[t];
          return (f + r) % 2 === 0 ? '#c9d9a0' : '#dfe9bd';
        },
        content: (name, x, y) => {
          const p = pieces.get(name);
          const t = terrain.get(name);
          const g = p ? pieceToken(p.kind, p.seat, x + 26, y + 26, 21, { info: p.info }) : null;
          if (t && t !== 'grassland') {
            const label = document.createElementNS('http://www.w3.org/2000/svg', 'text');
            label.setAttribute('x', String(x + 3));
            label.setAttribute('y', String(y + 10));
            label.setAttribute('font-size', '8');
            label.setAttribute('fill', '#2d2a26');
            label.textContent = t === 'fortress' ? 'Fort' : t === 'burning' ? 'Fire' : t.charAt(0).toUpperCase() + t.slice(1);
            const wrap = document.createElementNS('http://www.w3.org/2000/svg', 'g');
            wrap.appendChild(label);
            if (g) wrap.appendChild(g);
            return wrap;
          }
          return g;
        },
        covered: coveredRanks.length ? { ranks: coveredRanks, label: 'Hidden until both armies are ready' } : null,
        title: (name) => `${name}${terrain.get(name) ? ` (${terrain.get(name)})` : ''}${pieces.get(name) ? `: ${pieces.get(name)?.kind}` : ''}`,
      });
    }
    // The King in check: its cell marked on the board (the status line says it in words).
    const kingCell = checkedKingCell(view, ctx.options);
    if (kingCell && board) {
      for (const el of board.querySelectorAll('.cell[data-cell]')) {
        if (el.getAttribute('data-cell') === kingCell) {
          el.classList.add('in-check');
          el.setAttribute('data-testid', 'check-cell');
        }
      }
    }
    const reserve = view.dragon_in_reserve;
    const info = h('div.card',
      phase === 'setup' ? h('div', `Hidden setup — ${committed.map((c, i) => `${ctx.seatNames[i] ?? i} ${c ? 'is ready' : 'is placing'}`).join(', ')}`) : null,
      reserve.some(Boolean) ? h('div', `Dragon in reserve: ${reserve.map((r, i) => (r ? ctx.seatNames[i] ?? i : null)).filter((x) => x !== null).join(', ')}`) : null,
      h('p.muted', 'A crown is the King, wings the Dragon, a trunk the Elephant, a long arm and counterweight the Trebuchet, a bow the Crossbowman, a horse head the Heavy Horse (with speed lines: the Light Horse), a spear and shield the Spear, a pitchfork the Rabble; grey peaks are Mountains. Terrain: Hills (tan), Water (blue), Forest (green), Fort (Fortress). White plays round tokens, Black octagons. Hover or tap a piece for how it moves.'),
    );
    return { board, panels: [info] };
  },
};
