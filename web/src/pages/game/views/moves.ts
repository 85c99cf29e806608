// The game page's side column below the actions: the chance results, the move list with the step-back
// buttons, the game's controls (resign, draw, takeback, export, rematch, flip, sound, watch link) and
// the fair-chance details.

import { collapsible, groupByTurn, prefersNotation, setPrefersNotation, stepText, type Step } from '../../../logic/movelist';
import { fairnessText } from '../../../logic/record';
import { positionOfMove } from '../../../logic/replay';
import { moveList, outcomeOf, recentChance } from '../../../logic/snapshot';
import { h } from '../../../ui/dom';
import { isMuted, setMuted } from '../../../ui/sound';
import { scrollToCurrent } from '../../replay/views';
import type { GameCtrl } from '../ctrl';
import { confirmResign, showLink } from './dialogs';

/** Dice and other chance results since the last move. */
export function chanceView(ctrl: GameCtrl): HTMLElement | null {
  const chance = ctrl.model ? recentChance(ctrl.model.events) : [];
  return chance.length && !ctrl.review.active ? h('div.card', h('b', 'Chance: '), h('span', { 'data-testid': 'chance' }, chance.join(', '))) : null;
}

/** The move list: one numbered line per turn, its steps in words (or notation, by the switch); a
 * click on a step shows the position after it; the last one is the live game. */
export function movesView(ctrl: GameCtrl): HTMLElement | null {
  const model = ctrl.model;
  if (!model) return null;
  const moves = moveList(model.events);
  const review = ctrl.review;
  const inReview = review.active;
  const nav = review.nav;
  const notation = prefersNotation();
  const isCurrent = (i: number) => (inReview ? nav.n === positionOfMove(i) : i === moves.length - 1);
  const step = ({ index: i, move: m }: Step, k: number) => {
    const n = positionOfMove(i);
    return h('span', {
      class: ['step', isCurrent(i) ? 'current' : ''],
      'data-testid': 'move-step',
      title: notation ? (m.words ?? '') : (m.notation ?? 'hidden'),
      tabindex: 0,
      onclick: () => ctrl.reviewAt(n),
      onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); ctrl.reviewAt(n); } },
    }, stepText(m, k, model.seats, notation), i === moves.length - 1 ? ' ◀' : '');
  };
  const lines = groupByTurn(moves);
  // Each line's number is a box of its own, as wide as the longest number ("100." and on are never
  // clipped), beside the line's steps.
  const noWidth = `${String(lines.length).length + 1}ch`;
  const list = h('ol.move-lines', { 'data-testid': 'move-lines' }, lines.map((line, li) => {
    const first = line.steps[0].index;
    const no = h('span.move-no', { 'data-testid': 'move-no', style: `min-width:${noWidth}` }, `${li + 1}.`);
    // A turn of many steps (a Mana chain, a Syba turn) is one line: its first and last steps and how
    // many lie between, expandable; open while stepping back through one of its steps.
    const inner = line.steps.slice(1, -1);
    const folded = collapsible(line) && !ctrl.openLines.has(first) && !inner.some((x) => isCurrent(x.index));
    if (!collapsible(line)) return h('li', no, h('span.move-body', { 'data-testid': 'move-line' }, line.steps.map((x, k) => [k > 0 ? '; ' : '', step(x, k)]).flat()));
    const last = line.steps.length - 1;
    const toggle = h('button.fold', {
      'data-testid': 'move-fold', 'aria-expanded': String(!folded),
      title: folded ? 'Show every step of this turn' : 'Show the first and last steps only',
      onclick: () => {
        if (folded) ctrl.openLines.add(first);
        else ctrl.openLines.delete(first);
        ctrl.redraw(['side']);
      },
    }, folded ? `… ${inner.length} more ${inner.length === 1 ? 'step' : 'steps'} …` : 'fold');
    return h('li', no, h('span.move-body', { 'data-testid': 'move-line', 'data-steps': line.steps.length },
      step(line.steps[0], 0), ' ', toggle,
      h('span', { hidden: folded }, inner.map((x, k) => ['; ', step(x, k + 1)]).flat()),
      folded ? ' ' : '; ', step(line.steps[last], last),
      h('span.muted', ` (${line.steps.length} steps)`)));
  }));
  const notationSwitch = h('label.small', { title: 'Show the engine notation instead of words' },
    h('input', { type: 'checkbox', 'data-testid': 'move-notation', checked: notation, onchange: (e: Event) => {
      setPrefersNotation((e.target as HTMLInputElement).checked);
      ctrl.redraw();
    } }), ' Notation');
  const box = h('div.moves', { 'data-testid': 'moves' }, list);
  const atStart = moves.length === 0 || (inReview && nav.n === 0);
  const card = h('div.card', h('div.row', h('h3', `Moves (${moves.length})`), notationSwitch), box,
    h('div.row',
      h('button', { 'data-testid': 'review-first', title: 'The start', 'aria-label': 'The start', disabled: atStart, onclick: () => ctrl.reviewAt(0) }, '|◀'),
      h('button', { 'data-testid': 'review-prev', title: 'Back one action', 'aria-label': 'Back one action', disabled: atStart, onclick: () => ctrl.reviewAt((inReview ? nav.n : moves.length) - 1) }, '◀'),
      h('button', { 'data-testid': 'review-next', title: 'Forward one action', 'aria-label': 'Forward one action', disabled: !inReview, onclick: () => ctrl.reviewAt(nav.n + 1) }, '▶'),
      h('button', { 'data-testid': 'review-live', title: 'The live position', 'aria-label': 'The live position', disabled: !inReview, onclick: () => review.leave() }, '▶|'),
    ));
  requestAnimationFrame(() => {
    if (inReview) scrollToCurrent(box);
    else box.scrollTop = box.scrollHeight;
  });
  return card;
}

/** The takeback button: offered exactly when the server would accept it (`may.takeback`), greyed out
 * with the server's reason otherwise. */
function takebackButton(ctrl: GameCtrl, me: number): HTMLElement {
  const may = ctrl.model?.may;
  const ai = ctrl.ops.againstAi(me);
  const why = may?.takeback ? null : sentence(may?.takeback_refusal ?? 'The game is not running.');
  const label = ai ? 'Take back' : ctrl.seats.hotseat ? `Ask to take back as ${ctrl.seatName(me)}` : 'Ask to take back';
  return h('button', {
    'data-testid': 'takeback',
    disabled: why !== null,
    title: why ?? (ai ? 'Undo your last move (and the AI\'s reply)' : 'Ask your opponent to let you take back your last move'),
    onclick: () => ctrl.ops.takebackOp('offer', me),
  }, label);
}

/** The server's refusal as a sentence for a tooltip: a capital first letter and a full stop. */
export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  return `${t[0].toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

/** The game's controls, and the provably fair chance details (the seed's commitment from the start,
 * the seed once the game is over). */
export function controlsView(ctrl: GameCtrl): HTMLElement[] {
  const model = ctrl.model;
  if (!model) return [];
  const me = ctrl.me;
  const over = outcomeOf(model);
  const controls = h('div.card.row');
  if (me !== null && !over && model.status === 'running') {
    controls.append(h('button', { onclick: () => void confirmResign(ctrl, me) }, 'Resign'));
    if (model.may?.draw_offer) controls.append(h('button', { onclick: () => ctrl.ops.drawOp('offer', me) }, ctrl.seats.hotseat ? `Offer draw as ${ctrl.seatName(me)}` : 'Offer draw'));
    controls.append(takebackButton(ctrl, me));
  }
  if (over) {
    controls.append(
      h('button', { 'data-testid': 'export', onclick: () => void ctrl.ops.exportRecord() }, 'Download record'),
      h('a.btn', { href: `/replay/${ctrl.id}`, 'data-link': '' }, 'Replay'),
    );
    if (me !== null) controls.append(h('button', { onclick: () => void ctrl.ops.rematch() }, 'Rematch'));
  }
  controls.append(
    ctrl.renderer().flippable && model.seats.length === 2
      ? h('button', { 'data-testid': 'flip', 'aria-pressed': String(ctrl.flipped), onclick: () => ctrl.flip() }, 'Flip board')
      : '',
    h('button', {
      'data-testid': 'mute',
      'aria-pressed': String(isMuted()),
      title: 'Sounds on moves and when it is your turn',
      onclick: () => { setMuted(!isMuted()); ctrl.redraw(['side']); },
    }, isMuted() ? 'Sound: off' : 'Sound: on'),
    h('button', { onclick: () => { ctrl.errorText = ''; showLink(`${location.origin}/watch/${ctrl.id}`); } }, 'Copy watch link'),
    h('a', { href: '/', 'data-link': '' }, 'Lobby'),
  );
  const out = [controls];
  const fair = fairnessText(model);
  if (fair.commitment) {
    out.push(h('details.card.fairness', {
      'data-testid': 'fairness', open: ctrl.fairnessOpen,
      ontoggle: (e: Event) => { ctrl.fairnessOpen = (e.currentTarget as HTMLDetailsElement).open; },
    },
      h('summary', 'Game details: fair chance'),
      h('p', 'Seed commitment (SHA-256): ', h('code.hash', { 'data-testid': 'seed-commitment' }, fair.commitment)),
      fair.seed !== null ? h('p', 'Seed: ', h('code', { 'data-testid': 'seed' }, fair.seed)) : null,
      h('p.muted', fair.note),
    ));
  }
  return out;
}
