// A page of the client: mounted into the main element by the router, unmounted when the route changes
// (its sockets, timers and listeners go with it).

import { ApiError } from '../api';
import { h } from '../ui/dom';

export interface Page {
  mount(root: HTMLElement): void;
  unmount(): void;
}

/** A page with nothing to tear down, drawn by `draw` (errors reported by `fail`). */
export function simplePage(draw: (root: HTMLElement) => Promise<void> | void, fail: (e: unknown) => void): Page {
  return {
    mount(root) {
      try {
        const done = draw(root);
        if (done instanceof Promise) done.catch(fail);
      } catch (e) {
        fail(e);
      }
    },
    unmount() {},
  };
}

/** Whether a call failed because what it asked for does not exist (HTTP 404). */
export function isNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.status === 404;
}

/** The one page for every address that leads nowhere (an unknown game, replay, player, leaderboard,
 * join link or path): a title, what may have happened, and the ways on. It sets the tab's title. */
export function notFound(): HTMLElement {
  document.title = 'Not found — Tabula';
  return h('section.card.not-found', { 'data-testid': 'not-found' },
    h('h2', 'Nothing here'),
    h('p', 'This address leads nowhere on this server: the link may be mistyped or cut short, or what it showed is no longer here.'),
    h('p', h('a', { href: '/', 'data-link': '' }, 'Go to the lobby'), ' to start or join a game, or ',
      h('a', { href: '/learn', 'data-link': '' }, 'learn a game'), '.'));
}
