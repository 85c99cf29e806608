// The lobby: pick a game, its options, who sits where (me, a friend by link, the AI at a level), a clock;
// join open games, watch live ones, import a record. The state and actions are the controller's
// (ctrl.ts, no DOM); this module mounts the regions and redraws them from it (views.ts).

import { api } from '../../api';
import { currentSession } from '../../account';
import { solvedAny } from '../../logic/learned';
import { navigate } from '../../router';
import { saveInvites, saveSeat } from '../../store';
import { clear, h } from '../../ui/dom';
import type { Page } from '../page';
import { catalog } from './catalog';
import { LobbyCtrl, type LobbyRegion } from './ctrl';
import { cardView, importView, listsView } from './views';

/** The lobby page (`fail` shows an error instead of the page). */
export function lobbyPage(fail: (e: unknown) => void): Page {
  let ctrl: LobbyCtrl | null = null;
  return {
    mount(root) {
      clear(root);
      // What Tabula is, in one sentence, and the way in for someone new: Kyo's first lesson.
      root.append(h('section.card.intro', { 'data-testid': 'intro' },
        h('p', 'Tabula is a place to play fantasy war games of strategy — Cyvasse, Kyo, Territories and Syba Chess — in your browser, against the computer or with friends.'),
        h('a.btn.primary', { href: '/learn/kyo/1', 'data-link': '', 'data-testid': 'learn-kyo' }, 'New here? Learn Kyo in 5 minutes')));
      const grid = h('div.grid.games');
      const lists = h('section.card');
      const cards = new Map<string, ReturnType<typeof cardView>>();
      const c: LobbyCtrl = new LobbyCtrl({
        call: api.call,
        catalog,
        saveSeat,
        saveInvites,
        navigate,
        origin: location.origin,
        search: location.search,
        load: (key) => {
          try {
            return localStorage.getItem(key);
          } catch {
            return null; // storage disabled
          }
        },
        store: (key, value) => {
          try {
            localStorage.setItem(key, value);
          } catch {
            /* storage disabled: the choice holds for this page */
          }
        },
        signedIn: () => currentSession() !== null,
        solvedAny,
      }, { redraw, fail });
      const imports = importView(c);

      /** The one redraw path: a region drawn from the controller. */
      function redraw(region: LobbyRegion): void {
        if (region === 'games') {
          // Drawn once the catalog came: the cards, the lists (loading), the import.
          for (const g of c.games ?? []) {
            const view = cardView(c, g);
            cards.set(g.id, view);
            grid.appendChild(view.el);
          }
          root.append(h('section.card.games-section', h('h2', 'Start a game'), grid), lists, imports.el);
          redraw('lists');
        } else if (region === 'lists') {
          clear(lists);
          lists.append(...listsView(c));
        } else if (region === 'import') {
          imports.draw();
        } else {
          const [kind, id] = [region.slice(0, region.indexOf(':')), region.slice(region.indexOf(':') + 1)];
          const card = cards.get(id);
          if (kind === 'card') card?.draw();
          else if (kind === 'seats') card?.form()?.drawSeats();
          else card?.form()?.drawStatus();
        }
      }

      ctrl = c;
      void c.start();
    },
    unmount() {
      ctrl?.stop();
      ctrl = null;
    },
  };
}
