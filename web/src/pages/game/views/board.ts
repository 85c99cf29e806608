// The game page's board region: the hot-seat cover, an earlier position while stepping back, or the
// live board with the selection, the setup draft, the explanation of a refused click and the hint's
// arrow; the game's panels go under the board.

import { lastMoveCells, lastTurnKey } from '../../../logic/replay';
import { moveList, mySeat } from '../../../logic/snapshot';
import { ownWords } from '../../../logic/select';
import { clear, h } from '../../../ui/dom';
import { drawMovesOnBoard } from '../../analysis';
import { positionBoard, positionLabel, replayButtons, zoomableBoard } from '../../position';
import type { GameCtrl } from '../ctrl';
import { restackView } from './restack';

/** Draws the board region into `boardHost` and the panels into `panelsHost` (both emptied first);
 * `onCell` takes the board's clicks. */
export function boardView(ctrl: GameCtrl, boardHost: HTMLElement, panelsHost: HTMLElement, onCell: (cell: string) => void): void {
  clear(boardHost);
  clear(panelsHost);
  const model = ctrl.model;
  if (!model || !ctrl.selection) return;
  const redrawBoard = () => ctrl.redraw(['board']);
  const cover = ctrl.seats.cover;
  if (cover !== null) {
    // Hot-seat: the board, panels and actions of this seat stay hidden until its player is at the device.
    const name = ctrl.seatName(cover);
    boardHost.appendChild(h('div.card.pass-cover', { 'data-testid': 'pass-cover', 'data-seat': cover },
      h('h2', `Pass the device to ${name}`),
      h('p', `${name} decides now. The board shows what ${name} may see (hidden cards, a hidden setup), so the other player looks away.`),
      h('button.primary', { 'data-testid': 'pass-show', onclick: () => ctrl.uncover() }, `I am ${name} — show`)));
    return;
  }
  const moves = moveList(model.events);
  const review = ctrl.review;
  if (review.active) {
    // An earlier position from the server, drawn read-only with its last move.
    const ctx = { game: model.game, options: model.options, seats: model.seats, seat: mySeat(model), bottomSeat: ctrl.bottomSeat(), moves };
    boardHost.appendChild(h('div.banner', { 'data-testid': 'review' },
      h('div.row', positionLabel(ctx, review.nav.n, moves.length)),
      h('div.row', replayButtons(review.nav, (k) => ctrl.reviewAt(k)),
        h('button.primary', { 'data-testid': 'replay-leave', onclick: () => review.leave() }, 'Back to the live game'))));
    if (review.error) boardHost.appendChild(h('div.banner.warn', review.error));
    if (review.position) {
      const { board, panels } = positionBoard(ctx, review.position);
      if (board) boardHost.appendChild(zoomableBoard(board, ctrl.zoom, redrawBoard));
      else boardHost.appendChild(h('p.muted.no-board', 'No board to draw at this position.'));
      for (const p of panels) panelsHost.appendChild(p);
    }
    return;
  }
  const me = mySeat(model);
  const setup = ctrl.setup;
  const { board, panels } = ctrl.renderer().render({
    gameId: model.game,
    view: model.view,
    options: model.options,
    seat: me,
    bottomSeat: ctrl.bottomSeat(),
    seatNames: model.seats.map((x) => x.name),
    selection: ctrl.selection,
    lastMove: lastMoveCells(moves, moves.length),
    lastTurn: lastTurnKey(moves, moves.length),
    onCell,
    sendNotation: me === null ? undefined : (notation: string) => ctrl.sendAction({ action: undefined, notation }),
    draft: setup.draft,
    extraTargets: setup.open && setup.codec ? new Set(setup.codec.home) : undefined,
    extraSelected: setup.picked,
  });
  if (board) {
    boardHost.appendChild(zoomableBoard(board, ctrl.zoom, redrawBoard));
    if ((ctrl.selection.commonFirst || ctrl.renderer().followUp) && me !== null) boardHost.appendChild(selectBar(ctrl));
    if (ctrl.chooser && ctrl.chooser.length) boardHost.appendChild(chooserPopover(ctrl, boardHost));
    const editor = restackView(ctrl);
    if (editor) {
      boardHost.appendChild(editor);
      requestAnimationFrame(() => placeAt(editor, boardHost, ctrl.restack.editor?.at ?? null));
    }
    const assist = ctrl.assist;
    if (assist.hint && assist.hint.cells.length) drawMovesOnBoard(boardHost, [{ cells: assist.hint.cells, kind: 'hint' }]);
  } else boardHost.appendChild(h('p.muted.no-board', 'No board to draw now: the panels and buttons show the game.'));
  for (const p of panels) panelsHost.appendChild(p);
}

/** Under the board of a game whose engine lists the common variant first (Kyo) or whose moves have a
 * common follow-up (Syba, Cyvasse Trump): what is selected, "Other ways…" (the next target clicked
 * shows every way to move there, or makes the move without its follow-up) and Cancel. Always there,
 * so the board never moves when a piece is selected. */
function selectBar(ctrl: GameCtrl): HTMLElement {
  const sel = ctrl.selection;
  const bar = h('div.select-bar', { 'data-testid': 'select-bar' });
  const otherWays = () => h(ctrl.variantMode ? 'button.primary' : 'button', {
    'data-testid': 'other-ways', 'aria-pressed': String(ctrl.variantMode),
    title: ctrl.renderer().otherWays ?? 'The next cell you click shows every way to move there (fewer chips, the chips alone, deploys)',
    onclick: () => ctrl.toggleVariants(),
  }, ctrl.variantMode ? 'Other ways: click a cell' : 'Other ways…');
  if (!sel || !sel.prefix.length) {
    bar.append(h('span.muted', sel?.commonFirst ? 'Click a highlighted stack, then where it goes.' : 'Click a highlighted piece or area, then where it goes.'));
    if (ctrl.hasVariants()) bar.append(otherWays());
    return bar;
  }
  bar.append(h('span', `${sel.prefix.join(' → ')} selected`));
  if (ctrl.hasVariants()) bar.append(otherWays());
  // What the selected stack itself may do (Kyo: reorder its chips, in the stack editor at the stack).
  const here = sel.complete();
  const last = sel.prefix[sel.prefix.length - 1];
  if (here.length) {
    bar.append(h('button', { 'data-testid': 'stack-ways', title: 'Reorder the chips of this stack where it stands', onclick: () => ctrl.onCellMenu(last) },
      here.length === 1 ? ownWords(here[0], ctrl.me === null ? undefined : ctrl.seatName(ctrl.me)) : 'Reorder the stack…'));
  }
  bar.append(h('button', { onclick: () => ctrl.cancelSelection() }, 'Cancel'));
  return bar;
}

/** The choice between actions on the same cells, at the cell: a small box under it (above it when
 * there is no room below), inside the board's box and on the screen; thumb-sized buttons in the
 * engine's words, the notation in small print. */
function chooserPopover(ctrl: GameCtrl, host: HTMLElement): HTMLElement {
  const mine = ctrl.me === null ? undefined : ctrl.seatName(ctrl.me);
  const at = ctrl.chooserAt;
  const pop = h('div.chooser-pop', { 'data-testid': 'chooser', role: 'dialog', 'aria-label': `Choose how${at ? ` (${at})` : ''}`, 'data-cell-at': at ?? '' },
    h('div.chooser-head', h('b', at ? `${at}: choose how` : 'Choose how'),
      h('button.close', { 'aria-label': 'Close', title: 'Close', onclick: () => { ctrl.closeChooser(); ctrl.redraw(); } }, '×')),
    (ctrl.chooser ?? []).map((a, i) => h(i === 0 ? 'button.choice.first' : 'button.choice', {
      'data-notation': a.notation, title: a.notation, onclick: () => ctrl.sendAction(a), disabled: ctrl.sent.pending,
    }, h('span', ownWords(a, mine)), h('small', a.notation))));
  requestAnimationFrame(() => placeAt(pop, host, at));
  return pop;
}

/** Places `pop` (absolute, in `host`) under the cell `at`, or above it when the window has no room
 * below; kept inside the host's width. */
function placeAt(pop: HTMLElement, host: HTMLElement, at: string | null): void {
  if (!pop.isConnected) return;
  const cell = at ? [...host.querySelectorAll('[data-cell]')].find((e) => e.getAttribute('data-cell') === at) : null;
  const hr = host.getBoundingClientRect();
  const pr = pop.getBoundingClientRect();
  const cr = cell?.getBoundingClientRect() ?? { left: hr.left + hr.width / 2, right: hr.left + hr.width / 2, top: hr.top + hr.height / 3, bottom: hr.top + hr.height / 3 };
  const left = Math.max(4, Math.min(hr.width - pr.width - 4, (cr.left + cr.right) / 2 - hr.left - pr.width / 2));
  const below = cr.bottom - hr.top + 4;
  const above = cr.top - hr.top - pr.height - 4;
  const roomBelow = window.innerHeight - cr.bottom;
  const top = roomBelow >= pr.height + 8 || above < 0 ? below : above;
  pop.style.left = `${left}px`;
  pop.style.top = `${Math.max(0, top)}px`;
  pop.classList.add('placed');
  const now = pop.getBoundingClientRect();
  if (now.bottom > window.innerHeight || now.top < 0) pop.scrollIntoView({ block: 'nearest' });
}
