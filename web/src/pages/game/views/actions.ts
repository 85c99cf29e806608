// The game page's actions card: what is selected, the chooser of actions sharing their cells, the
// buttons of actions naming no cell, every legal action in a list, the setup editor, the Hint.

import { groupByVerb, ownWords, playerWords, type LegalAction } from '../../../logic/select';
import { percent } from '../../../logic/analysis';
import { outcomeOf } from '../../../logic/snapshot';
import { h } from '../../../ui/dom';
import type { GameCtrl } from '../ctrl';
import { setupView } from './setup';

export function short(notation: string): string {
  return notation.length > 48 ? `${notation.slice(0, 45)}…` : notation;
}

/** The actions card of the shown seat (null when it has none to show: a spectator, the game over,
 * stepping back). */
export function actionsView(ctrl: GameCtrl): HTMLElement | null {
  const model = ctrl.model;
  const selection = ctrl.selection;
  const me = ctrl.me;
  if (!model || !selection || me === null || outcomeOf(model) || ctrl.review.active) return null;
  const box = h('div.card', { 'data-testid': 'actions', 'data-pending': ctrl.sent.pending ? '1' : '0' });
  const mine = ctrl.seatName(me);
  if (selection.prefix.length) {
    box.appendChild(h('p', `Selected: ${selection.prefix.join(' → ')} `,
      h('button', { onclick: () => ctrl.cancelSelection() }, 'Cancel')));
  }
  if (ctrl.setup.open) {
    box.append(...setupView(ctrl));
    return box;
  }
  // A choice between actions on the same cells opens at the cell on the board (views/board.ts).
  const chooser = ctrl.chooser && ctrl.chooser.length ? ctrl.chooser : null;
  if (model.legal.length === 0) {
    box.appendChild(h('p.muted', ctrl.sent.pending ? 'Sending…' : 'Nothing to do now.'));
  } else {
    const buttons = selection.cellless();
    if (chooser) box.appendChild(h('p.muted', 'Choose in the box on the board.'));
    else if (selection.targets().size) {
      box.appendChild(h('p.muted', !selection.prefix.length ? 'Click a highlighted piece or cell to move.'
        : selection.commonFirst ? 'Click a highlighted cell: the common move is made at once. Other ways to move there (fewer chips, the chips alone, deploys): "Other ways…" under the board, or a right click on the cell.'
          : 'Click a highlighted cell to continue.'));
    }
    // A decision by buttons with a common choice (Territories' payment): that choice as one large
    // button, the other buttons one step away behind "Other ways…".
    const common = ctrl.renderer().common?.(model.view, model.legal, me) ?? null;
    if (common && buttons.includes(common.action)) {
      box.appendChild(h('button.primary.common-choice', {
        'data-testid': 'common-action', 'data-notation': common.action.notation, title: common.action.notation, disabled: ctrl.sent.pending,
        onclick: () => {
          ctrl.followUp.repeat(ctrl.renderer(), common.action);
          ctrl.sendAction(common.action);
        },
      }, common.words));
      const others = h('details', { 'data-testid': 'common-others' }, h('summary', 'Other ways…'),
        h('div.actions', buttons.map((a) =>
          h('button', { 'data-notation': a.notation, title: a.notation, onclick: () => ctrl.sendAction(a), disabled: ctrl.sent.pending }, short(ownWords(a, mine))))));
      box.append(others);
    } else if (buttons.length) {
      // Many buttons (trades, purchases, abilities) are grouped by their first word.
      const groups = buttons.length > 12 ? groupByVerb(buttons.slice(0, 400)) : [['', buttons]] as [string, LegalAction[]][];
      for (const [verb, list] of groups) {
        if (verb) box.appendChild(h('div.muted', { style: 'margin-top:.3rem' }, verb));
        box.appendChild(h('div.actions', list.map((a) =>
          h('button', { 'data-notation': a.notation, title: a.notation, onclick: () => ctrl.sendAction(a), disabled: ctrl.sent.pending }, short(ownWords(a, mine))))));
      }
    }
    box.appendChild(allMoves(ctrl, model.legal, mine));
  }
  // The server says when the engine gives this seat a hint (casual games against the AI, its decision).
  if (model.may?.hint && model.legal.length > 0) box.appendChild(hintBox(ctrl));
  return box;
}

/** Every legal action in words and notation, for players who prefer a list (and for accessibility). */
function allMoves(ctrl: GameCtrl, legal: LegalAction[], mine: string): HTMLElement {
  const sel = h('select', { 'data-testid': 'legal-select', 'aria-label': 'Every legal move' },
    h('option', { value: '' }, `All ${legal.length} legal moves…`),
    legal.slice(0, 2000).map((a, i) => h('option', { value: String(i) }, `${ownWords(a, mine)} (${a.notation})`))) as HTMLSelectElement;
  sel.addEventListener('change', () => {
    const a = legal[Number(sel.value)];
    if (sel.value !== '' && a) ctrl.sendAction(a);
  });
  return h('div', { style: 'margin-top:.5rem' }, sel);
}

/** The Hint button and the hint once given. */
function hintBox(ctrl: GameCtrl): HTMLElement {
  const box = h('div.hint-box', { 'data-testid': 'hint-box' });
  const { hint, busy } = ctrl.assist;
  if (hint) {
    box.appendChild(h('div.banner.turn', { 'data-testid': 'hint-text', role: 'status' },
      'The engine suggests ', h('b', { 'data-testid': 'hint-move', title: hint.notation }, playerWords(hint.words, ctrl.seatName(hint.seat))),
      ' ', h('small.muted', short(hint.notation)),
      hint.estimate !== undefined ? ` (your winning chance with it: ${percent(hint.estimate)})` : '',
      hint.cells.length ? ' — the green arrow on the board.' : '.'));
  } else {
    box.appendChild(h('button', {
      'data-testid': 'hint', disabled: busy || ctrl.sent.pending, title: 'The engine\'s move for this decision, from what you can see',
      onclick: () => void ctrl.assist.askHint(),
    }, busy ? 'Thinking…' : 'Hint'));
  }
  return box;
}
