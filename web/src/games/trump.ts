// Cyvasse "Strength & Trump" (game id `cyvasse-trump`). View: the position, `board` maps a cell name to a
// one-letter code (upper case South = seat 0, lower case North = seat 1, `M` Mountain).

import { h } from '../ui/dom';
import { rowCellNames } from '../logic/hex';
import { drawHexBoard, type HexPiece } from './hexboard';
import { trumpSetup } from '../logic/setup';
import type { Renderer, RenderContext } from './types';
import type { TrumpPosition } from '../wire/cyvasse/TrumpPosition';
import { LEGENDS } from '../wire/legends';

/** Each unit in the rule book's words (movement, strength, range, trump): the engine's own legend. */
const LEGEND = LEGENDS['cyvasse-trump'] ?? {};

const KINDS: Record<string, string> = {
  R: 'Rabble', S: 'Spearman', E: 'Elephant', L: 'Light Horse', H: 'Heavy Horse', X: 'Crossbowman',
  C: 'Catapult', T: 'Trebuchet', D: 'Dragon', K: 'King', M: 'Mountain',
};

/** What a hover or a tap on a piece says: "North Dragon: flies …". */
export function trumpInfo(kind: string, seat: number): string {
  const side = seat === 0 ? 'South' : seat === 1 ? 'North' : '';
  return `${side ? `${side} ` : ''}${kind}: ${LEGEND[kind] ?? ''}`;
}

export function trumpPieces(view: TrumpPosition): Map<string, HexPiece> {
  const out = new Map<string, HexPiece>();
  for (const [cell, c] of Object.entries(view.board)) {
    if (!c) continue;
    if (c === 'M') out.set(cell, { kind: 'Mountain', seat: -1, info: trumpInfo('Mountain', -1) });
    else {
      const kind = KINDS[c.toUpperCase()];
      if (kind) {
        const seat = c === c.toUpperCase() ? 0 : 1;
        out.set(cell, { kind, seat, info: trumpInfo(kind, seat) });
      }
    }
  }
  return out;
}

function homeOf(cell: string): number {
  const row = cell.charCodeAt(0) - 97;
  return row >= 6 ? 0 : row <= 4 ? 1 : -1;
}

/** `light_horse` → `Light Horse`. */
function kindName(kind: string): string {
  return kind.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

export const trumpRenderer: Renderer<TrumpPosition> = {
  flippable: true,
  // After a horse's first leg the engine lists its second legs and `end`: the direct move ends there.
  followUp(_view, legal) {
    const end = legal.find((a) => a.notation === 'end');
    const starts = new Set(legal.filter((a) => a.cells.length).map((a) => a.cells[0]));
    return end && starts.size === 1 ? end : null;
  },
  otherWays: 'The next move you click keeps the turn open for a horse\'s second leg instead of ending it',
  setup(v, _options, seat) {
    if (v.phase !== 'setup' || v.committed[seat] === true) return null;
    const home = rowCellNames().filter((c) => homeOf(c) === seat);
    return { ...trumpSetup, home, terrain: false };
  },
  render(ctx: RenderContext<TrumpPosition>) {
    const view = ctx.view;
    const { phase, committed } = view;
    const bothReady = committed.every(Boolean);
    const me = ctx.seat ?? 0;
    const covered = phase === 'setup' && !bothReady ? (ctx.seat === null ? [0, 1] : [1 - me]) : [];
    const pieces = trumpPieces(view);
    if (ctx.draft) {
      for (const [cell, p] of [...pieces]) if (p.seat === me || (p.seat === -1 && homeOf(cell) === me)) pieces.delete(cell);
      for (const [cell, kind] of ctx.draft.pieces) pieces.set(cell, { kind: kindName(kind), seat: kind === 'mountain' ? -1 : me });
    }
    const board = drawHexBoard(ctx, { layout: 'trump', pieces, homeOf, covered, bottomSeat: ctx.bottomSeat ?? me });
    const cav = view.cavalry?.horse;
    const info = h('div.card',
      h('table.kv',
        h('tr', h('td', 'Phase'), h('td', phase)),
        h('tr', h('td', 'Turn'), h('td', String(view.turn))),
        h('tr', h('td', 'Quiet turns'), h('td', `${view.quiet_turns} of 150`)),
        cav ? h('tr', h('td', 'Horse'), h('td', `second leg from ${cav} (or end the turn)`)) : null,
        phase === 'setup'
          ? h('tr', h('td', 'Armies ready'), h('td', committed.map((c, i) => `${ctx.seatNames[i] ?? i}: ${c ? 'ready' : 'placing'}`).join(', ')))
          : null,
      ),
      h('p.muted', 'Units: a crown is the King, wings the Dragon, a trunk the Elephant, a horse head the Heavy Horse (with speed lines: the Light Horse), a spear and shield the Spearman, a pitchfork the Rabble, a bow the Crossbowman, a throwing arm the Catapult, a long arm and counterweight the Trebuchet; grey peaks are Mountains. South plays the round tokens, North the octagons. Hover or tap a piece for its moves and strength.'),
    );
    return { board, panels: [info] };
  },
};
