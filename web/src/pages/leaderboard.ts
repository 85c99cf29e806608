// Leaderboards (`/leaderboard/<game>`): the 50 best ratings of a game kind among players whose rating
// deviation is under 110 (so that a few lucky games do not top the board).

import { api, routes } from '../api';
import { shownRating } from '../logic/chart';
import { clear, h } from '../ui/dom';
import { catalog } from './lobby/catalog';

export async function leaderboardPage(root: HTMLElement, game: string | undefined): Promise<void> {
  clear(root);
  const games = await catalog();
  const id = game ?? games[0]?.id;
  if (!id) return;
  const board = await api.call(routes['GET /api/leaderboard/{game}'], { params: { game: id } });
  const name = games.find((g) => g.id === id)?.name ?? id;
  document.title = `${name} leaderboard — Tabula`;
  root.append(h('section.card', { 'data-testid': 'leaderboard', 'data-game': id },
    h('h2', `Leaderboard: ${name}`),
    h('nav.tabs', games.map((g) => h(g.id === id ? 'a.current' : 'a', { href: `/leaderboard/${g.id}`, 'data-link': '' }, g.name))),
    h('p.muted', `The 50 best ratings among players whose rating deviation (RD) is under ${board.max_rd}: a few rated games are not enough to be listed.`),
    board.players.length
      ? h('table.board-table',
          h('thead', h('tr', h('th', '#'), h('th', 'Player'), h('th', 'Rating'), h('th', 'RD'), h('th', 'Games'))),
          h('tbody', board.players.map((p) => h('tr',
            h('td', String(p.rank)),
            h('td', h('a', { href: `/@/${encodeURIComponent(p.name)}`, 'data-link': '' }, p.name)),
            h('td', shownRating(p.rating)),
            h('td', shownRating(p.rd)),
            h('td', String(p.games)),
          ))))
      : h('p', { 'data-testid': 'leaderboard-empty' }, 'Nobody is listed yet: play rated games to get here.'),
  ));
}
