// The engine's analysis drawn: the winning-chance graph (inline SVG), the legend of the marks, each
// seat's counts, the card of one decision, and moves drawn over any game's board as arrows (the
// engine's preferred move, the move played, a hint). The geometry is logic/analysis.ts's.

import { seatColour } from '../games/art';
import {
  arrowSegments, graphLines, legend, MARK_PLURAL, MARK_SYMBOL, MARKS, markCounts, pathOf, percent, plyAt, xOf, yOf,
  type Analysis, type DecisionAnalysis, type GraphBox, type Mark, type Pt,
} from '../logic/analysis';
import { h, s } from '../ui/dom';
import { playerWords } from '../logic/select';

/** A move to draw over a board: its cells in order and how it is drawn. */
export interface BoardMove {
  cells: string[];
  /** `best`: the engine's preferred move (green); `played`: the move taken (the mark's colour);
   * `hint`: a hint (green). */
  kind: 'best' | 'played' | 'hint';
  mark?: Mark | null;
}

/** The centre of a cell of the board in the SVG's own coordinates, or null when the board has no such
 * cell (or it is not laid out). */
function centreOf(svg: SVGSVGElement, cell: string): { pt: Pt; size: number } | null {
  const el = [...svg.querySelectorAll('[data-cell]')].find((e) => e.getAttribute('data-cell') === cell);
  if (!(el instanceof SVGGraphicsElement)) return null;
  let box: DOMRect;
  try {
    box = el.getBBox();
  } catch {
    return null;
  }
  const local = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const toSvg = svg.getScreenCTM()?.inverse().multiply(el.getScreenCTM() ?? new DOMMatrix());
  const p = toSvg ? new DOMPoint(local.x, local.y).matrixTransform(toSvg) : local;
  return { pt: { x: p.x, y: p.y }, size: Math.max(4, Math.min(box.width, box.height)) };
}

const ARROW_COLOUR: Record<BoardMove['kind'], string> = { best: '#1f8a3b', hint: '#1f8a3b', played: '#a4161a' };
const MARK_COLOUR: Record<Mark, string> = { inaccuracy: '#3b82c4', mistake: '#d97706', blunder: '#c62828' };

/** Draws moves over the board found in `host` (which must be in the document: the cells' places are
 * read from the layout) as arrows through their cells' centres, a ring on the first. Cells the board
 * does not have are skipped; a move with no cell on the board draws nothing. */
export function drawMovesOnBoard(host: Element, moves: BoardMove[]): void {
  const svg = host.querySelector('svg.board');
  if (!(svg instanceof SVGSVGElement)) return;
  for (const m of moves) {
    const found = m.cells.map((c) => centreOf(svg, c)).filter((x): x is { pt: Pt; size: number } => x !== null);
    if (!found.length) continue;
    const size = Math.min(...found.map((f) => f.size));
    const colour = m.kind === 'played' && m.mark ? MARK_COLOUR[m.mark] : ARROW_COLOUR[m.kind];
    const width = size * (m.kind === 'played' ? 0.1 : 0.16);
    const head = width * 2.6;
    const g = s('g', {
      class: `board-arrow ${m.kind}`, 'data-testid': `arrow-${m.kind}`, 'data-cells': m.cells.join(' '),
      'pointer-events': 'none', opacity: m.kind === 'played' ? 0.75 : 0.85,
    });
    const first = found[0].pt;
    g.appendChild(s('circle', { cx: first.x, cy: first.y, r: size * 0.42, fill: 'none', stroke: colour, 'stroke-width': width * 0.8 }));
    const segs = arrowSegments(found.map((f) => f.pt), head);
    segs.forEach((seg, i) => {
      g.appendChild(s('line', {
        x1: seg.from.x, y1: seg.from.y, x2: seg.to.x, y2: seg.to.y, stroke: colour, 'stroke-width': width, 'stroke-linecap': 'round',
        'stroke-dasharray': m.kind === 'played' ? `${width * 2} ${width * 1.5}` : undefined,
      }));
      if (i === segs.length - 1) {
        const end = found[found.length - 1].pt;
        const ang = Math.atan2(end.y - seg.from.y, end.x - seg.from.x);
        const wing = (a: number) => `${(end.x - head * Math.cos(ang + a)).toFixed(2)},${(end.y - head * Math.sin(ang + a)).toFixed(2)}`;
        g.appendChild(s('polygon', { points: `${end.x.toFixed(2)},${end.y.toFixed(2)} ${wing(0.45)} ${wing(-0.45)}`, fill: colour }));
      }
    });
    if (segs.length === 0) {
      // One cell (a placement, a card): a filled dot inside the ring.
      g.appendChild(s('circle', { cx: first.x, cy: first.y, r: size * 0.14, fill: colour }));
    }
    svg.appendChild(g);
  }
}

const GRAPH: GraphBox = { width: 600, height: 180, left: 34, pad: 8 };

/** The winning-chance graph: one line per seat (its chance after each of its decisions), the marked
 * decisions as coloured dots, the shown position as a vertical line. A click anywhere goes to the
 * nearest position; a dot goes to its decision. */
export function analysisGraph(a: Analysis, seatNames: string[], current: number, go: (ply: number) => void, colourOf: (seat: number) => string = seatColour): SVGElement {
  const box = GRAPH;
  const lines = graphLines(a, box);
  const grid = [0, 0.5, 1].map((v) => [
    s('line', { x1: box.left, x2: box.width - box.pad, y1: yOf(v, box), y2: yOf(v, box), stroke: '#d8cbb6', 'stroke-width': 1, 'stroke-dasharray': v === 0.5 ? '4 3' : undefined }),
    s('text', { x: box.left - 4, y: yOf(v, box) + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#6d5f50' }, `${v * 100}%`),
  ]);
  const cursor = s('line', {
    'data-testid': 'graph-cursor', x1: xOf(current, a.plies, box), x2: xOf(current, a.plies, box), y1: box.pad, y2: box.height - box.pad,
    stroke: '#7a3b12', 'stroke-width': 1.5,
  });
  const paths = lines.map((l) => {
    const c = colourOf(l.seat);
    return s('g', { 'data-seat': l.seat },
      // A dark edge under a light seat colour, so that every line shows on the light paper.
      s('path', { d: pathOf(l.points), fill: 'none', stroke: '#5a4a3a', 'stroke-width': 4, 'stroke-linejoin': 'round' }),
      s('path', { d: pathOf(l.points), fill: 'none', stroke: c, 'stroke-width': 2.2, 'stroke-linejoin': 'round' }));
  });
  const dots = lines.flatMap((l) => l.points.filter((p) => p.mark).map((p) => {
    const mark = p.mark as Mark;
    const who = seatNames[p.seat] ?? `Seat ${p.seat + 1}`;
    return s('circle', {
      class: `graph-mark ${mark}`, 'data-testid': 'graph-mark', 'data-ply': p.ply, 'data-mark': mark,
      cx: p.x, cy: p.y, r: 6.5, fill: MARK_COLOUR[mark], stroke: '#fff', 'stroke-width': 1.5,
      tabindex: 0, role: 'button', 'aria-label': `${who}'s ${mark} at action ${p.ply + 1}: show it`,
      onclick: (e: Event) => { e.stopPropagation(); go(p.ply); },
      onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(p.ply); } },
    }, s('title', `${who}: ${MARK_SYMBOL[mark]} ${mark} (${percent(p.value)} after it)`));
  }));
  const svg = s('svg', {
    class: 'analysis-graph', 'data-testid': 'analysis-graph', viewBox: `0 0 ${box.width} ${box.height}`, role: 'img',
    'aria-label': 'Each seat\'s winning chance over the game, as the engine estimates it; click to go there',
  }, s('rect', { x: 0, y: 0, width: box.width, height: box.height, fill: '#fffdf8' }), grid, paths, cursor, dots);
  svg.addEventListener('click', (e) => {
    const el = e.currentTarget as SVGSVGElement;
    const pt = new DOMPoint((e as MouseEvent).clientX, (e as MouseEvent).clientY).matrixTransform(el.getScreenCTM()?.inverse() ?? new DOMMatrix());
    go(plyAt(pt.x, a.plies, box));
  });
  return svg;
}

/** The legend: each seat's line colour, each mark's symbol, colour and threshold. */
export function analysisLegend(a: Analysis, seatNames: string[], colourOf: (seat: number) => string = seatColour): HTMLElement {
  return h('div.analysis-legend', { 'data-testid': 'analysis-legend' },
    h('div.row', a.seats.map((st) => h('span', h('span.seat-chip', { style: `background:${colourOf(st.seat)}` }), seatNames[st.seat] ?? st.name))),
    h('ul', legend(a.thresholds).map((l) => h('li', h(`span.mark.${l.mark}`, l.symbol), ` ${l.text}`))),
    h('p.muted', `Each line is that seat's winning chance after its own decisions, estimated from what it could know then (${a.iterations} + ${a.estimate_iterations} search iterations a decision). Forced moves and hidden setups are not judged.`));
}

/** Each seat's counts of inaccuracies, mistakes and blunders. */
export function seatCounts(a: Analysis, seatNames: string[]): HTMLElement {
  const counts = markCounts(a);
  return h('table.analysis-counts', { 'data-testid': 'analysis-counts' },
    h('thead', h('tr', h('th', ''), MARKS.map((m) => h('th', { title: MARK_PLURAL[m] }, h(`span.mark.${m}`, MARK_SYMBOL[m]), ` ${MARK_PLURAL[m]}`)), h('th', 'average drop'))),
    h('tbody', a.seats.map((st) => {
      const c = counts.get(st.seat) ?? { inaccuracy: 0, mistake: 0, blunder: 0 };
      return h('tr', { 'data-seat': st.seat },
        h('th', seatNames[st.seat] ?? st.name),
        MARKS.map((m) => h('td', { 'data-mark': m }, String(c[m]))),
        h('td', percent(st.average_drop)));
    })));
}

/** A move in the engine's words for `who` (without the leading "<who>: "), its notation in small
 * print; the notation alone for an analysis stored before words were added. */
function moveWords(words: string | undefined, notation: string, who: string): HTMLElement {
  if (!words) return h('code', notation);
  return h('span', h('span.move-words', { title: notation }, playerWords(words, who)), ' ', h('small.muted', notation));
}

/** The decision taken at a position, judged: what was played, its mark, what the engine prefers. */
export function decisionCard(d: DecisionAnalysis, who: string, go: (ply: number) => void, here: boolean): HTMLElement {
  const mark = d.mark ? h(`span.mark.${d.mark}`, { 'data-testid': 'decision-mark' }, `${MARK_SYMBOL[d.mark]} ${d.mark}`) : null;
  const body: (HTMLElement | string | null)[] = [];
  if (d.kind === 'forced') body.push(h('p.muted', 'The only legal action: not judged.'));
  else if (d.kind === 'setup') body.push(h('p.muted', 'A hidden setup: not judged.'));
  else {
    body.push(h('p', `Winning chance: ${percent(d.before)} with the engine's move, ${percent(d.after)} after the move played.`));
    if (d.best_notation && d.best_notation !== d.notation) {
      body.push(h('p', { 'data-testid': 'best-move' }, 'The engine prefers ', moveWords(d.best_words, d.best_notation, who),
        here && d.best_cells?.length ? h('span.muted', ' (the green arrow)') : null, '.'));
    } else if (d.best_notation) {
      body.push(h('p', { 'data-testid': 'best-move' }, 'The engine agrees with this move.'));
    }
  }
  return h('div.analysis-decision', { 'data-testid': 'decision', 'data-ply': d.ply },
    h('p', h('b', `${who} played `), moveWords(d.words, d.notation, who), ' ', mark,
      here ? h('span.muted', d.mark && d.cells.length ? ' (the dashed arrow)' : '') : h('span', ' ', h('button', { 'data-testid': 'decision-go', onclick: () => go(d.ply) }, 'Show the position before it'))),
    body);
}

export { MARK_COLOUR };
