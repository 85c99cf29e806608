// Tabula's web client: routes, page chrome.

import './ui/style.css';
import { h, clear } from './ui/dom';
import { onRoute } from './router';
import { lobbyPage } from './pages/lobby/page';
import { gamePage, joinPage } from './pages/game/page';
import { rulesIndex, rulesPage } from './pages/rules';
import { replayPage } from './pages/replay/page';
import { isNotFound, notFound, simplePage, type Page } from './pages/page';
import { guidePage, learnIndexPage, lessonPage } from './pages/learn/page';
import { awaitingCount, currentSession, loadSession, onAccountChange, refreshMyGames, signOut, titleWith } from './account';
import { settingsPage, signInPage } from './pages/account';
import { profilePage } from './pages/profile';
import { leaveMyGames, myGamesPage } from './pages/mygames';
import { leaderboardPage } from './pages/leaderboard';
import { navigate } from './router';
import { onCsrfRefused } from './api';

const app = document.getElementById('app') ?? document.body;
const header = h('header.top',
  h('a.brand', { href: '/', 'data-link': '' }, '⚔ Tabula'),
  h('a', { href: '/', 'data-link': '' }, 'Play'),
  h('a', { href: '/learn', 'data-link': '' }, 'Learn'),
  h('a', { href: '/rules', 'data-link': '' }, 'Rules'),
  h('a', { href: '/leaderboard', 'data-link': '' }, 'Leaderboards'),
);
const accountBox = h('span.account', { 'data-testid': 'account-box' });
header.append(accountBox);
const main = h('main');
app.append(header, main);

/** The top bar's account part: "Sign in", or the player's name, My games (N) and "Sign out". */
function drawAccount(): void {
  clear(accountBox);
  const s = currentSession();
  const n = awaitingCount();
  document.title = titleWith(n, baseTitle);
  if (!s) {
    accountBox.append(h('a', { href: '/signin', 'data-link': '', 'data-testid': 'sign-in' }, 'Sign in'));
    return;
  }
  accountBox.append(
    h('a', { href: `/@/${encodeURIComponent(s.name)}`, 'data-link': '', 'data-testid': 'me' }, s.name),
    h('a', { href: '/me', 'data-link': '', 'data-testid': 'my-games-link' }, 'My games', n ? h('span.count', { 'data-testid': 'awaiting-count' }, String(n)) : ''),
    h('a', { href: '/account', 'data-link': '', title: 'Account settings' }, 'Account'),
    h('button.link', {
      'data-testid': 'top-sign-out',
      onclick: async () => {
        try {
          await signOut();
          navigate('/');
        } catch (e) {
          fail(e);
        }
      },
    }, 'Sign out'),
  );
}

/** The tab title without the count of games awaiting a move (a page may set its own). */
let baseTitle = 'Tabula';
const titleObserver = new MutationObserver(() => {
  // A page set its own title: keep it, with the count in front.
  const t = document.title.replace(/^\(\d+\) /, '');
  if (t !== baseTitle) {
    baseTitle = t;
    const want = titleWith(awaitingCount(), baseTitle);
    if (document.title !== want) document.title = want;
  }
});
const titleEl = document.querySelector('title');
if (titleEl) titleObserver.observe(titleEl, { childList: true });
onAccountChange(drawAccount);
drawAccount();

/** How often the top bar asks how many games await a move, while signed in. */
const POLL_MS = 30000;
window.setInterval(() => {
  if (currentSession() && !document.hidden) refreshMyGames().catch(() => undefined);
}, POLL_MS);
document.addEventListener('visibilitychange', () => {
  if (currentSession() && !document.hidden) refreshMyGames().catch(() => undefined);
});

function fail(e: unknown): void {
  clear(main);
  // A player, a leaderboard… that does not exist: the one not-found page.
  if (isNotFound(e)) {
    main.appendChild(notFound());
    return;
  }
  main.appendChild(h('div.card', h('p.error', e instanceof Error ? e.message : String(e)), h('a', { href: '/', 'data-link': '' }, 'Back to the lobby')));
}

/** The page of an address (the lobby at `/`, the not-found page for an address that leads nowhere). */
function pageFor(parts: string[]): Page {
  const page = (draw: (root: HTMLElement) => Promise<void> | void, leave?: () => void): Page => {
    const p = simplePage(draw, fail);
    return leave ? { mount: p.mount, unmount: leave } : p;
  };
  if (parts[0] === 'game' && parts[1]) return gamePage(parts[1], false);
  if (parts[0] === 'watch' && parts[1]) return gamePage(parts[1], true);
  // A join link: `/join/{id}/{seat}#{token}` (the token in the fragment never reaches a server's
  // log), or the older `/join/{id}/{seat}/{token}`.
  const joinToken = parts[3] ?? decodeURIComponent(location.hash.slice(1));
  if (parts[0] === 'join' && parts[1] && parts[2] && joinToken) return joinPage(parts[1], Number(parts[2]), joinToken);
  if (parts[0] === 'rules' && parts[1]) return page((root) => rulesPage(root, parts[1]));
  if (parts[0] === 'rules') return page((root) => rulesIndex(root));
  if (parts[0] === 'learn') {
    return parts[2] ? lessonPage(parts[1], Number(parts[2]), fail) : parts[1] ? guidePage(parts[1], fail) : learnIndexPage(fail);
  }
  if (parts[0] === 'replay' && parts[1]) return replayPage(parts[1]);
  if (parts[0]?.startsWith('@') && (parts[0].length > 1 || parts[1])) {
    return page((root) => profilePage(root, parts[0].length > 1 ? parts[0].slice(1) : parts[1]));
  }
  if (parts[0] === 'signin' || parts[0] === 'signup') return page((root) => signInPage(root, parts[0] === 'signup'));
  if (parts[0] === 'account') return page((root) => settingsPage(root));
  if (parts[0] === 'me') return page((root) => myGamesPage(root), leaveMyGames);
  if (parts[0] === 'leaderboard') return page((root) => leaderboardPage(root, parts[1]));
  if (parts.length === 0) return lobbyPage(fail);
  return page((root) => {
    clear(root);
    root.appendChild(notFound());
  });
}

/** The page shown now (unmounted when the route changes). */
let current: Page | null = null;

function route(path: string): void {
  current?.unmount();
  current = null;
  baseTitle = 'Tabula';
  document.title = titleWith(awaitingCount(), baseTitle);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  try {
    current = pageFor(parts);
    current.mount(main);
  } catch (e) {
    fail(e);
  }
}

onRoute(route);
onCsrfRefused(async () => (await loadSession(true).catch(() => null)) !== null);
// Who is signed in decides what some pages show: ask first (a failure leaves the page anonymous).
loadSession()
  .then(() => {
    if (currentSession()) refreshMyGames().catch(() => undefined);
  })
  .catch(() => undefined)
  .finally(() => route(location.pathname));
