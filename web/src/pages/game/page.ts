// The game page: board, whose turn, move list, legal actions, clocks, draw/resign/takeback/rematch,
// game-over dialog, export, stepping back through every earlier position, hot-seat play and chat.
// The state and actions are the controller's (ctrl.ts, no DOM); this module mounts the regions and
// redraws them from it (views/*.ts).

import { api, positionFetcher, routes } from '../../api';
import { GameConn } from '../../conn';
import { attachBoardInput } from '../../games/board';
import { rendererFor, selectionFor } from '../../games/index';
import { navigate } from '../../router';
import { forgetSeat, loadSeats, saveSeat } from '../../store';
import { ChatPanel } from '../../ui/chat';
import { clear, h } from '../../ui/dom';
import { playSound } from '../../ui/sound';
import type { Page } from '../page';
import { GameCtrl, type Region } from './ctrl';
import { actionsView } from './views/actions';
import { boardView } from './views/board';
import { gameOverDialog, downloadRecord } from './views/dialogs';
import { isNotFound, notFound } from '../page';
import { headerView, playerBars, updateClocks } from './views/header';
import { chanceView, controlsView, movesView } from './views/moves';

/** The game page of game `id`, as this device's seats (or as a spectator). */
export function gamePage(id: string, spectate: boolean): Page {
  let root: HTMLElement | null = null;
  let ctrl: GameCtrl | null = null;
  let chat: ChatPanel | null = null;
  const header = h('div.card');
  const boardHost = h('div.board-wrap', { 'data-testid': 'board' });
  // Who plays: the opponents' bar above the board, this device's seat's below it.
  const topBar = h('div.player-bar.top', { 'data-testid': 'players-top' });
  const bottomBar = h('div.player-bar.bottom', { 'data-testid': 'players-bottom' });
  const panelsHost = h('div.panels');
  const side = h('div.side-body');
  const online = () => ctrl?.online();
  const offline = () => ctrl?.offline();

  /** A click on a cell. */
  function onCell(cell: string): void {
    ctrl?.onCell(cell);
  }

  /** The one redraw path: each region drawn from the controller. */
  function redraw(regions: Region[] = ['header', 'board', 'side']): void {
    if (!ctrl) return;
    if (regions.includes('header')) {
      clear(header);
      header.append(...headerView(ctrl));
      const bars = playerBars(ctrl);
      clear(topBar);
      topBar.append(...bars.top);
      clear(bottomBar);
      bottomBar.append(...bars.bottom);
    }
    if (regions.includes('header') || regions.includes('clocks')) updateClocks(header, ctrl);
    if (regions.includes('board')) boardView(ctrl, boardHost, panelsHost, onCell);
    if (regions.includes('side')) {
      clear(side);
      if (ctrl.model && ctrl.selection && ctrl.seats.cover === null) {
        side.append(...[chanceView(ctrl), actionsView(ctrl), movesView(ctrl), ...controlsView(ctrl)].filter((x): x is HTMLElement => x !== null));
      }
    }
  }

  function unmount(): void {
    if (!ctrl) return;
    document.title = 'Tabula';
    ctrl.stop();
    chat?.close();
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
    ctrl = null;
  }

  return {
    mount(el) {
      root = el;
      clear(root);
      const c: GameCtrl = new GameCtrl(id, spectate ? [] : loadSeats(id), {
        connect: (cred, handlers) => new GameConn(id, cred, handlers),
        call: api.call,
        fetcher: (cred) => positionFetcher(id, cred),
        forgetSeat: (seat, token) => forgetSeat(id, seat, token),
        saveSeat,
        sound: playSound,
        renderer: rendererFor,
        selection: (game, legal) => selectionFor(game, legal),
      }, {
        redraw,
        gone: () => {
          unmount();
          if (root) {
            clear(root);
            root.append(notFound());
          }
        },
        gameOver: () => void gameOverDialog(c, navigate),
        download: (rec) => downloadRecord(rec, id),
        navigate,
        chat: (msg) => chat?.onMessage(msg),
        chatOver: (over) => chat?.setOver(over),
      });
      ctrl = c;
      attachBoardInput(boardHost, onCell, (cell) => ctrl?.onCellMenu(cell));
      // The chat (web/src/ui/chat.ts) writes as the shown seat (hot-seat: the seat owing the decision).
      chat = new ChatPanel(id, () => c.seats.cred);
      // The board with the players' bars right above and below it, in one column (CSS: on a desktop beside
      // the status and panels, however tall they are); on a phone the column unwraps: the bars and the
      // board first, then the status and clocks, the panels, the actions.
      root.append(h('div.game-layout.play', h('div.main-col', header, h('div.board-col', topBar, boardHost, bottomBar), panelsHost), h('div.side', side, chat.el)));
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      c.start();
      redraw(['header']);
    },
    unmount,
  };
}

/** Joins a seat from a join link, stores the token, then opens the game. */
export function joinPage(id: string, seat: number, token: string): Page {
  let game: Page | null = null;
  let left = false;
  return {
    mount(root) {
      clear(root);
      root.appendChild(h('p', 'Joining…'));
      api.call(routes['POST /api/games/{id}/join'], { params: { id }, body: { seat, token } })
        .then((r) => {
          if (r.token === null) throw new Error('the server gave no token for the seat');
          saveSeat(id, { seat: r.seat, token: r.token });
          if (left) return;
          history.replaceState(null, '', `/game/${id}`);
          game = gamePage(id, false);
          game.mount(root);
        })
        .catch((e: unknown) => {
          if (left) return;
          clear(root);
          root.appendChild(isNotFound(e) ? notFound() : h('p.error', `Could not join: ${e instanceof Error ? e.message : String(e)}`));
        });
    },
    unmount() {
      left = true;
      game?.unmount();
    },
  };
}
