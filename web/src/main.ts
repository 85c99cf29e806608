// Tabula's web client: routes, page chrome.

import './ui/style.css';
import { h, clear } from './ui/dom';
import { onRoute } from './router';
import { lobbyPage } from './pages/lobby';
import { gamePage, joinPage, leaveGame } from './pages/game';
import { rulesIndex, rulesPage } from './pages/rules';
import { leaveReplay, replayPage } from './pages/replay';
import { guidePage, learnIndex, lessonPage } from './pages/learn';

const app = document.getElementById('app') ?? document.body;
const header = h('header.top',
  h('a.brand', { href: '/', 'data-link': '' }, '⚔ Tabula'),
  h('a', { href: '/', 'data-link': '' }, 'Play'),
  h('a', { href: '/learn', 'data-link': '' }, 'Learn'),
  h('a', { href: '/rules', 'data-link': '' }, 'Rules'),
);
const main = h('main');
app.append(header, main);

function fail(e: unknown): void {
  clear(main);
  main.appendChild(h('div.card', h('p.error', e instanceof Error ? e.message : String(e)), h('a', { href: '/', 'data-link': '' }, 'Back to the lobby')));
}

function route(path: string): void {
  leaveGame();
  leaveReplay();
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === 'game' && parts[1]) return gamePage(main, parts[1], false);
    if (parts[0] === 'watch' && parts[1]) return gamePage(main, parts[1], true);
    if (parts[0] === 'join' && parts[1] && parts[2] && parts[3]) {
      joinPage(main, parts[1], Number(parts[2]), parts[3]).catch(fail);
      return;
    }
    if (parts[0] === 'rules' && parts[1]) return rulesPage(main, parts[1]);
    if (parts[0] === 'rules') {
      rulesIndex(main).catch(fail);
      return;
    }
    if (parts[0] === 'learn') {
      const done = parts[2] ? lessonPage(main, parts[1], Number(parts[2])) : parts[1] ? guidePage(main, parts[1]) : learnIndex(main);
      done.catch(fail);
      return;
    }
    if (parts[0] === 'replay' && parts[1]) {
      replayPage(main, parts[1]).catch(fail);
      return;
    }
    lobbyPage(main).catch(fail);
  } catch (e) {
    fail(e);
  }
}

onRoute(route);
route(location.pathname);
