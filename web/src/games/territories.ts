// Territories (game id `territories`): the card grid with its intersections and buildings, dice, the
// bank, hands (own cards, the opponent's counts), the open offer. Points are named `x,y` (cells and
// intersections alike; intersection (x, y) is the corner shared by cells (x-1..x, y-1..y)).

import { h, s } from '../ui/dom';
import { PALETTE, pieceToken, seatColour } from './art';
import { cellMarks, cellState } from './board';
import type { Renderer, RenderContext } from './types';
import type { LegalAction } from '../logic/select';
import type { TerritoriesView } from '../wire/territories/TerritoriesView';
import { LEGENDS } from '../wire/legends';

const W = 80;
const H = 110;
const PAD = 30;
const SUITS: Record<string, { sym: string; name: string; colour: string }> = {
  H: { sym: '♥', name: 'hearts', colour: '#b3261e' },
  S: { sym: '♠', name: 'spades', colour: '#1d1b19' },
  C: { sym: '♣', name: 'clubs', colour: '#1d5e2a' },
  D: { sym: '♦', name: 'diamonds', colour: '#b8560b' },
};
const SUIT_ORDER = ['H', 'S', 'C', 'D'];
/** The actions (by their JSON's key) whose cell is a grid cell; every other cell is an intersection. */
const CELL_ACTIONS = ['survey', 'expand'];

/** Each building in the rule book's words (the chess piece that plays it, points, what it collects and
 * the ability it allows): the engine's own legend. */
const BUILDING_WORDS = LEGENDS.territories ?? {};

/** What a hover or a tap on a building says: "Town of White (a pawn; 1 point; …)". */
export function buildingInfo(piece: string, owner: string): string {
  const k = piece.toLowerCase();
  const name = k.charAt(0).toUpperCase() + k.slice(1);
  return `${name} of ${owner}${BUILDING_WORDS[k] ? ` (${BUILDING_WORDS[k]})` : ''}`;
}

export function cardParts(card: string): { rank: string; suit: string } {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

function cardFace(card: string, x: number, y: number, w: number, hgt: number): SVGElement {
  const { rank, suit } = cardParts(card);
  const su = SUITS[suit] ?? { sym: suit, name: suit, colour: '#333' };
  return s('g', { 'pointer-events': 'none' },
    s('text', { x: x + 8, y: y + 20, 'font-size': 18, 'font-weight': 700, fill: su.colour }, rank),
    s('text', { x: x + w / 2, y: y + hgt / 2 + 14, 'text-anchor': 'middle', 'font-size': 40, fill: su.colour }, su.sym),
    s('text', { x: x + w - 8, y: y + hgt - 8, 'text-anchor': 'end', 'font-size': 11, fill: su.colour }, `${rank}${suit}`),
  );
}

/** What each phase waits for, in words (the status line says who decides). */
const PHASE_WORDS: Record<string, string> = {
  deal: 'Dealing the territory cards', choose_first: 'Choosing who goes first', setup: 'Placing the first Towns',
  roll: 'Rolling the dice', temple: 'A Temple\'s gift', discard: 'Discarding down to the hand limit', main: 'Building and trading',
  respond: 'Answering a trade offer', hand_over: 'Handing over cards', ability_die: 'Rolling the ability die',
  pay: 'Paying for an ability', place: 'Placing with an ability', duel: 'A duel', target: 'Choosing an ability\'s target', over: 'Game over',
};

/** The common payment for Survey or Expand, a resource at a time: from the suit the seat holds most
 * of (ties: the suit the engine lists first, ♥ ♠ ♣ ♦), which keeps the hand as even as it can be —
 * what a Town (one of each suit) and a Capital (two of each) need. `action` is the listed `pay` of that
 * suit (the client chooses among the server's list, never decides legality); `words` says the whole
 * payment the button starts ("Pay 3: 2♥ 1♠"), worked out on the counts the seat sees. Null outside
 * the payment or when no `pay` is listed. */
export function commonPayment(view: TerritoriesView, legal: LegalAction[], seat: number): { action: LegalAction; words: string } | null {
  const phase = view.phase;
  const held = view.hands[seat]?.resources;
  if (phase.phase !== 'pay' || !held) return null;
  const suitOf = (a: LegalAction) => /^pay ([HSCD])$/.exec(a.notation)?.[1] ?? null;
  const pays = legal.filter((a) => suitOf(a) !== null);
  const most = (counts: readonly number[], among: string[]) =>
    among.reduce((best, k) => (counts[SUIT_ORDER.indexOf(k)] > counts[SUIT_ORDER.indexOf(best)] ? k : best), among[0]);
  if (!pays.length) return null;
  const first = most(held, pays.map((a) => suitOf(a) ?? ''));
  const action = pays.find((a) => suitOf(a) === first) ?? pays[0];
  // The whole payment, step by step on a copy of the counts (each later step is chosen again from the
  // list the server sends then).
  const counts = [...held];
  const paid = SUIT_ORDER.map(() => 0);
  for (let i = 0; i < phase.left; i++) {
    const suits = SUIT_ORDER.filter((_, j) => counts[j] > 0);
    if (!suits.length) break;
    const j = SUIT_ORDER.indexOf(most(counts, suits));
    counts[j] -= 1;
    paid[j] += 1;
  }
  const parts = SUIT_ORDER.map((k, j) => (paid[j] ? `${paid[j]}${SUITS[k].sym}` : '')).filter(Boolean).join(' ');
  return { action, words: `Pay ${phase.left}: ${parts} (from the suits you hold most)` };
}

export const territoriesRenderer: Renderer<TerritoriesView> = {
  common: commonPayment,
  render(ctx: RenderContext<TerritoriesView>) {
    const view = ctx.view;
    const grid = view.grid;
    const panels: Element[] = [];
    let board: SVGElement | null = null;
    // Which names are targets as cells (survey/expand) and which as intersections (everything else).
    const cellTargets = new Set<string>();
    const cornerTargets = new Set<string>();
    for (const a of ctx.selection.candidates()) {
      const next = a.cells[ctx.selection.prefix.length];
      if (!next) continue;
      const onCell = typeof a.action === 'object' && a.action !== null && CELL_ACTIONS.some((k) => k in (a.action as object));
      (onCell ? cellTargets : cornerTargets).add(next);
    }
    if (grid.length) {
      const xs = grid.map((c) => c.at[0]);
      const ys = grid.map((c) => c.at[1]);
      let minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
      for (const t of cellTargets) {
        const [tx, ty] = t.split(',').map(Number);
        minX = Math.min(minX, tx); maxX = Math.max(maxX, tx); minY = Math.min(minY, ty); maxY = Math.max(maxY, ty);
      }
      const X = (x: number) => PAD + (x - minX) * W;
      const Y = (y: number) => PAD + (maxY + 1 - y) * H; // y grows upwards
      const layer: SVGElement[] = [];
      const occupied = new Set(grid.map((c) => `${c.at[0]},${c.at[1]}`));
      for (const c of grid) {
        const [cx, cy] = c.at;
        const name = `${cx},${cy}`;
        const st = { ...cellState(ctx, name, cellTargets) };
        layer.push(s('g', { class: `cell card${st.target ? ' target' : ''}`, 'data-cell': name },
          s('title', `card ${c.card} at ${name}`),
          s('rect', { x: X(cx) + 3, y: Y(cy + 1) + 3, width: W - 6, height: H - 6, rx: 6, fill: '#fffdf8', stroke: st.target ? 'var(--hi)' : '#6d5f50', 'stroke-width': st.target ? 4 : 1.5 }),
          cardFace(c.card, X(cx) + 3, Y(cy + 1) + 3, W - 6, H - 6)));
      }
      for (const t of cellTargets) {
        if (occupied.has(t)) continue;
        const [tx, ty] = t.split(',').map(Number);
        layer.push(s('g', { class: 'cell target', 'data-cell': t },
          s('rect', { x: X(tx) + 3, y: Y(ty + 1) + 3, width: W - 6, height: H - 6, rx: 6, fill: '#dff0d8', stroke: 'var(--hi)', 'stroke-dasharray': '6 4', 'stroke-width': 3 }),
          s('text', { x: X(tx) + W / 2, y: Y(ty + 1) + H / 2, 'text-anchor': 'middle', 'font-size': 12 }, 'new card')));
      }
      // Intersections: every corner of a placed card.
      const corners = new Set<string>();
      for (const c of grid) for (const dx of [0, 1]) for (const dy of [0, 1]) corners.add(`${c.at[0] + dx},${c.at[1] + dy}`);
      const buildings = new Map(view.buildings.map((b) => [`${b.at[0]},${b.at[1]}`, b]));
      for (const name of corners) {
        const [ix, iy] = name.split(',').map(Number);
        const x = X(ix), y = Y(iy);
        const st = cellState(ctx, name, cornerTargets);
        const b = buildings.get(name);
        layer.push(s('g', { class: `cell corner${st.target ? ' target' : ''}`, 'data-cell': name },
          s('title', b ? `${buildingInfo(b.piece, ctx.seatNames[b.owner] ?? `seat ${b.owner + 1}`)} at ${name}` : `intersection ${name}`),
          s('circle', { cx: x, cy: y, r: 15, fill: st.target ? '#dff0d8' : PALETTE.light, stroke: PALETTE.label, 'fill-opacity': b ? 0 : 0.9 }),
          st.last ? s('circle', { class: 'last-tint', cx: x, cy: y, r: 21, fill: PALETTE.last, 'fill-opacity': 0.45 }) : null,
          b ? pieceToken(b.piece, b.owner, x, y, 18, { game: 'chess', info: buildingInfo(b.piece, ctx.seatNames[b.owner] ?? `seat ${b.owner + 1}`) }) : null,
          ...cellMarks(st, x, y, 17, { occupied: !!b, tinted: true })));
      }
      const width = (maxX - minX + 1) * W + 2 * PAD;
      const height = (maxY - minY + 1) * H + 2 * PAD;
      board = s('svg', { class: 'board', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': 'territory grid' }, layer);
    }

    // Dice, bank, hands, offer.
    const { roll, die, duel } = view;
    const dice = h('div.card', h('b', 'Last 2D6 roll: '),
      h('span.dice', { 'data-testid': 'dice' }, typeof roll === 'number' ? `${roll}` : '—'),
      typeof die === 'number' ? h('span', `  ability die ${die}`) : null,
      duel ? h('span', `  duel ${duel[0]} vs ${duel[1]}`) : null,
      h('div.muted', { 'data-testid': 'territories-turn' }, `${PHASE_WORDS[view.phase.phase] ?? ''}${view.turn > 0 ? ` — turn ${view.turn}` : ''} — ${view.pile_count} ${view.pile_count === 1 ? 'card' : 'cards'} left to draw`));
    panels.push(dice);
    const bank = view.bank;
    panels.push(h('div.card', h('b', 'Bank: '), SUIT_ORDER.map((k, i) => h('span', { style: `color:${SUITS[k].colour};margin-right:.6rem` }, `${SUITS[k].sym}${k} ${bank[i]}`))));
    const points = view.points;
    view.hands.forEach((hand, i) => {
      const res = hand.resources;
      const terr = hand.territories;
      panels.push(h('div.card', { 'data-hand': i },
        h('span.seat-chip', { style: `background:${seatColour(i)}` }),
        h('b', `${ctx.seatNames[i] ?? `Seat ${i + 1}`}${ctx.seat === i ? ' (you)' : ''}: ${points[i] ?? 0} points`),
        h('div', `${hand.resource_count} resource cards, ${hand.territory_count} territory cards`),
        res ? h('div.hand', SUIT_ORDER.map((k, j) => h('span.cardface', { style: `color:${SUITS[k].colour}` }, `${SUITS[k].sym}${k} × ${res[j]}`))) : null,
        terr && terr.length ? h('div.hand', terr.map((c) => {
          const { suit } = cardParts(c);
          return h('span.cardface', { style: `color:${SUITS[suit]?.colour ?? '#333'}` }, `${c}${SUITS[suit]?.sym ?? ''}`);
        })) : null));
    });
    const offer = view.offer;
    if (offer) {
      const fmt = (r: readonly number[]) => SUIT_ORDER.map((k, j) => (r[j] ? `${r[j]}${k}` : '')).filter(Boolean).join(' ') || 'nothing';
      panels.push(h('div.card.banner', h('b', 'Trade offer: '),
        `gives ${fmt(offer.give_res)} ${offer.give_cards.join(' ')}`,
        ` — asks ${fmt(offer.ask_res)}${offer.ask_territories ? ` + ${offer.ask_territories} territory card(s)` : ''}`,
        h('div.muted', `Offers this turn: ${view.offers_made} of ${view.max_offers}`)));
    }
    panels.push(h('p.muted', 'Buildings are chess pieces: Town a pawn, Fort a rook, Barracks a knight, Temple a bishop, Palace a queen, Capital a king. White plays round tokens, Black octagons. Hover or tap a building for what it collects and allows.'));
    return { board, panels };
  },
};
