// The game page's board region: the hot-seat cover, an earlier position while stepping back, or the
// live board with the selection, the setup draft, the explanation of a refused click and the hint's
// arrow; the game's panels go under the board.

import { lastMoveCells } from '../../../logic/replay';
import { moveList, mySeat } from '../../../logic/snapshot';
import { clear, h } from '../../../ui/dom';
import { drawMovesOnBoard } from '../../analysis';
import { positionBoard, positionLabel, replayButtons, zoomableBoard } from '../../position';
import type { GameCtrl } from '../ctrl';

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
    onCell,
    sendNotation: me === null ? undefined : (notation: string) => ctrl.sendAction({ action: undefined, notation }),
    draft: setup.draft,
    extraTargets: setup.open && setup.codec ? new Set(setup.codec.home) : undefined,
    extraSelected: setup.picked,
  });
  if (board) {
    boardHost.appendChild(zoomableBoard(board, ctrl.zoom, redrawBoard));
    const assist = ctrl.assist;
    if (assist.hint && assist.hint.cells.length) drawMovesOnBoard(boardHost, [{ cells: assist.hint.cells, kind: 'hint' }]);
  } else boardHost.appendChild(h('p.muted.no-board', 'No board to draw now: the panels and buttons show the game.'));
  for (const p of panels) panelsHost.appendChild(p);
}
