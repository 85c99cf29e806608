// Replay: step through any game — finished, imported or still running — as a seat (with its stored
// token) or as a spectator. Every position comes from the server (`GET /api/games/{id}/view/{n}`: the
// observer's view after the first n action events); the client knows no rules. Positions are cached.
// A finished game can be analysed by the engine (`/api/games/{id}/analysis`): a winning-chance graph,
// the marks in the move list, and at a judged decision the engine's preferred move drawn on the board.
// The state and actions are the controller's (ctrl.ts, no DOM); this module mounts the regions and
// redraws them from it (views.ts).

import { api, positionFetcher } from '../../api';
import { fileName, type JsonRecord } from '../../logic/record';
import { loadSeats } from '../../store';
import { ChatPanel } from '../../ui/chat';
import { clear, h } from '../../ui/dom';
import { notFound, type Page } from '../page';
import { ReplayCtrl, type ReplayRegion } from './ctrl';
import { analysisView, boardView, headView, movesView, scrollToCurrent } from './views';

/** Saves a game record as a file. */
function saveRecord(record: JsonRecord, id: string): void {
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
  const a = h('a', { href: URL.createObjectURL(blob), download: fileName(record, id) }) as HTMLAnchorElement;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** The replay of game `id`. */
export function replayPage(id: string): Page {
  let ctrl: ReplayCtrl | null = null;
  let chat: ChatPanel | null = null;
  let keys: ((e: KeyboardEvent) => void) | null = null;
  return {
    mount(root) {
      clear(root);
      const head = h('div.card');
      const boardHost = h('div.board-wrap', { 'data-testid': 'replay-board' });
      const analysisHost = h('div.card.analysis', { 'data-testid': 'analysis' });
      const panels = h('div.panels');
      const side = h('div.side-body');
      const sideCol = h('div.side', side);
      root.append(h('div.game-layout.with-analysis', h('div.main-col', head, boardHost, analysisHost, panels), sideCol));
      const slider = h('input', { type: 'range', min: 0, max: 0, value: 0, 'data-testid': 'replay-slider', 'aria-label': 'Position' }) as HTMLInputElement;
      // On release: one request, not one per pixel.
      slider.addEventListener('change', () => void c.go(Number(slider.value)));

      const c: ReplayCtrl = new ReplayCtrl(id, {
        call: api.call,
        seats: () => loadSeats(id),
        fetcher: (cred) => positionFetcher(id, cred),
        download: (record) => saveRecord(record, id),
      }, {
        redraw,
        loaded() {
          // A finished game keeps its chat: the players' channel for this browser's seat, the spectators' for all.
          if (c.live()) return;
          const seatCred = c.cred;
          chat = new ChatPanel(id, () => seatCred);
          chat.setOver(true);
          sideCol.append(chat.el);
        },
      });

      function drawAnalysis(): void {
        if (!c.ctx) return;
        clear(analysisHost);
        const parts = analysisView(c);
        analysisHost.hidden = parts === null;
        if (parts) analysisHost.append(...parts);
        if (c.analysis?.status === 'done' && parts) analysisHost.setAttribute('data-state', 'done');
      }

      /** The one redraw path: the regions drawn from the controller. */
      function redraw(region: ReplayRegion = 'all'): void {
        if (c.missing) {
          // No such game: the not-found page alone, as for every address that leads nowhere.
          clear(root);
          root.appendChild(notFound());
          return;
        }
        if (c.nav) {
          slider.max = String(c.nav.total);
          slider.value = String(c.nav.n);
        }
        if (region === 'slider') return;
        drawAnalysis();
        if (region === 'analysis') return;
        clear(head);
        head.append(...headView(c, slider));
        if (!c.nav) return;
        clear(boardHost);
        clear(panels);
        panels.append(...boardView(c, boardHost, () => redraw()));
        clear(side);
        const moves = movesView(c);
        if (moves) {
          side.appendChild(moves.card);
          requestAnimationFrame(() => scrollToCurrent(moves.box));
        }
      }

      // ← → step, Home / End jump (not while typing in a field or moving the slider, which has its own keys).
      keys = (e: KeyboardEvent) => {
        const t = e.target as HTMLElement | null;
        if (e.altKey || e.ctrlKey || e.metaKey || (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) return;
        if (c.key(e.key)) e.preventDefault();
      };
      document.addEventListener('keydown', keys);
      ctrl = c;
      head.append(...headView(c, slider));
      void c.start();
    },
    unmount() {
      if (keys) document.removeEventListener('keydown', keys);
      keys = null;
      ctrl?.stop();
      ctrl = null;
      chat?.close();
      chat = null;
    },
  };
}
