// Leaderboards (`/leaderboard/<game>`): the 50 best ratings of a game kind, the established ones (a
// rating deviation under 110) first, then the provisional ones marked "?" (so that a new site's board
// is not empty, and a few lucky games do not top it).

import { api, routes } from '../api';
import { shownRating } from '../logic/chart';
import { ratingText } from './people';
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
    board.players.length
      ? [
          h('p.muted.leaderboard-legend', { 'data-testid': 'leaderboard-legend' },
            `Established ratings (deviation under ${board.max_rd}) come first. A "?" marks a provisional rating: `,
            'fewer rated games, so it can still move a lot; it settles after a few more.'),
          h('table.board-table',
            h('thead', h('tr', h('th', '#'), h('th', 'Player'), h('th', 'Rating'), h('th', 'RD'), h('th', 'Games'))),
            h('tbody', board.players.map((p) => h(`tr${p.provisional ? '.provisional' : ''}`, { 'data-name': p.name, 'data-provisional': p.provisional ? '1' : '0' },
              h('td', String(p.rank)),
              h('td', h('a', { href: `/@/${encodeURIComponent(p.name)}`, 'data-link': '' }, p.name)),
              h('td', { 'data-testid': 'board-rating', title: p.provisional ? 'Provisional rating' : 'Established rating' }, ratingText(p.rating, p.provisional)),
              h('td', shownRating(p.rd)),
              h('td', String(p.games)),
            )))),
        ]
      : h('div', { 'data-testid': 'leaderboard-empty' },
          h('p', `Nobody has played a rated game of ${name} yet.`),
          h('p', 'To get on this board: sign in, then in the lobby choose "Options & friends" for this game, tick "Rated", leave a seat open, ',
            'and play the signed-in player who joins. Your rating shows here (marked "?" while provisional) as soon as the game ends.')),
  ));
}
