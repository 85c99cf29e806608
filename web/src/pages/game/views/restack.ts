// The stack editor at the stack (Kyo's shuffle): the chips that may move as a column, top chip at
// the top, thumb-sized; a chip dragged onto another place moves there, two chips tapped one after the
// other swap. Under the column: whether the arrangement is allowed (and in words why not), "Done"
// (only for an allowed one), "Start over" and "Cancel".

import { h } from '../../../ui/dom';
import { ownWords } from '../../../logic/select';
import type { GameCtrl } from '../ctrl';

/** The editor's box (absolute, placed at the stack by the board view), or null when it is closed. */
export function restackView(ctrl: GameCtrl): HTMLElement | null {
  const ed = ctrl.restack.editor;
  const codec = ctrl.renderer().restack;
  if (!ed || !codec) return null;
  const chips = ed.chips();
  const match = ed.match();
  const why = ed.why();
  const mine = ctrl.me === null ? undefined : ctrl.seatName(ctrl.me);
  // Top first, as the stack stands.
  const places = chips.map((_, i) => i).reverse();
  const column = h('div.restack-column', { 'data-testid': 'restack-column' }, places.map((i) => {
    const c = chips[i];
    const look = codec.look(c);
    return h('button', {
      'data-testid': 'restack-chip', 'data-place': i, 'data-kind': c.kind,
      'aria-pressed': String(ed.picked === i),
      class: ['restack-chip', ed.picked === i ? 'picked' : ''],
      style: `background:${look.fill};color:${look.ink};border-color:${look.edge}`,
      title: 'Drag onto another place, or tap this chip and then another to swap them',
    }, codec.kindName(c.kind));
  }));
  attachDrag(column, (from, to) => ctrl.restack.move(from, to), (i) => ctrl.restack.tap(i));
  const fixed = ed.below.length
    ? h('div.restack-below.muted', `Below, staying: ${[...ed.below].reverse().map((c) => codec.kindName(c.kind)).join(', ')}`)
    : null;
  return h('div.chooser-pop.restack-pop', { 'data-testid': 'restack', role: 'dialog', 'aria-label': `Reorder the stack on ${ed.at}`, 'data-cell-at': ed.at },
    h('div.chooser-head', h('b', `${ed.at}: reorder the chips`),
      h('button.close', { 'aria-label': 'Cancel', title: 'Cancel', onclick: () => ctrl.restack.cancel() }, '×')),
    h('p.muted.restack-help', 'Top of the stack first. Drag a chip to its new place, or tap two chips to swap them.'),
    column, fixed,
    h('p', { 'data-testid': 'restack-why', class: match ? 'restack-ok' : 'restack-no' },
      match ? `Allowed: ${ownWords(match, mine)}` : why ?? ''),
    h('div.row',
      h('button.primary', { 'data-testid': 'restack-done', disabled: !match || ctrl.sent.pending, 'data-notation': match?.notation ?? '', onclick: () => ctrl.restack.done() }, 'Done'),
      h('button', { 'data-testid': 'restack-reset', onclick: () => ctrl.restack.reset() }, 'Start over'),
      h('button', { 'data-testid': 'restack-cancel', onclick: () => ctrl.restack.cancel() }, 'Cancel')));
}

/** A press on a chip and a release over another place moves it there; a press and release on the same
 * chip (a click, a tap, Enter on the button) is a tap. */
function attachDrag(column: HTMLElement, move: (from: number, to: number) => void, tap: (i: number) => void): void {
  const placeOf = (el: Element | null): number | null => {
    const b = el?.closest?.('[data-place]');
    return b ? Number(b.getAttribute('data-place')) : null;
  };
  let down: number | null = null;
  let dragged = false;
  column.addEventListener('pointerdown', (ev) => {
    down = placeOf(ev.target as Element | null);
    dragged = false;
    if (down !== null) ev.preventDefault();
  });
  column.addEventListener('pointerup', (ev) => {
    const from = down;
    down = null;
    if (from === null) return;
    const to = placeOf(document.elementFromPoint(ev.clientX, ev.clientY));
    if (to !== null && to !== from) {
      dragged = true;
      move(from, to);
    }
  });
  column.addEventListener('click', (ev) => {
    if (dragged) {
      dragged = false;
      return;
    }
    const i = placeOf(ev.target as Element | null);
    if (i !== null) tap(i);
  });
}
