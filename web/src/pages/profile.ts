// A player's profile (`/@/<name>`): ratings per game kind with their deviation and a small history
// chart, win/draw/loss counts, finished games (to their replays) and games in progress.

import { api, routes } from '../api';
import { currentSession } from '../account';
import { ratingChart, shownRating, type RatingPoint } from '../logic/chart';
import { clear, h, s } from '../ui/dom';
import { catalog } from './lobby/catalog';
import { loadSeats } from '../store';
import { opponentsNode, resultAgainst } from './people';

/** The names of the game kinds, by id (the catalog's; the id itself for one it does not list). */
export async function gameNames(): Promise<(id: string) => string> {
  const names = new Map((await catalog().catch(() => [])).map((g) => [g.id, g.name]));
  return (id) => names.get(id) ?? id;
}

export const day = (ms: number) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** The history chart of one game kind's rating, as inline SVG. */
export function historyChart(history: RatingPoint[]): SVGElement {
  const box = { width: 320, height: 120, left: 40, pad: 10 };
  const c = ratingChart(history, box);
  return s('svg.rating-chart', { viewBox: `0 0 ${box.width} ${box.height}`, role: 'img', 'aria-label': `Rating after each of ${history.length} rated games` },
    s('line', { x1: box.left, x2: box.width - box.pad, y1: c.yHigh, y2: c.yHigh, class: 'grid' }),
    s('line', { x1: box.left, x2: box.width - box.pad, y1: c.yLow, y2: c.yLow, class: 'grid' }),
    s('text', { x: box.left - 4, y: c.yHigh + 4, 'text-anchor': 'end' }, String(c.high)),
    s('text', { x: box.left - 4, y: c.yLow + 4, 'text-anchor': 'end' }, String(c.low)),
    s('path', { d: c.path, class: 'line' }),
    c.points.map((p, i) => s('circle', { cx: p.x, cy: p.y, r: 3, class: i ? 'dot' : 'dot start' },
      s('title', i ? `after game ${i}: ${shownRating(p.rating)}` : `start: ${shownRating(p.rating)}`))),
  );
}

export async function profilePage(root: HTMLElement, name: string): Promise<void> {
  clear(root);
  root.append(h('p.muted', 'Loading…'));
  const [p, gameName] = await Promise.all([api.call(routes['GET /api/players/{name}'], { params: { name } }), gameNames()]);
  clear(root);
  document.title = `${p.name} — Tabula`;
  const own = currentSession()?.name.toLowerCase() === p.name.toLowerCase();
  const kinds = Object.entries(p.ratings);
  const resultText: Record<string, string> = { win: 'Won', draw: 'Draw', loss: 'Lost' };
  root.append(
    h('section.card', { 'data-testid': 'profile', 'data-name': p.name },
      h('div.row', h('h2', { style: 'margin:0' }, p.name), own ? h('a', { href: '/account', 'data-link': '' }, 'Account settings') : null),
      h('p.muted', `Playing since ${day(p.created_at)}`),
      h('p.results', { 'data-testid': 'results' },
        h('span.win', `${p.results.win} won`), ' · ', h('span.draw', `${p.results.draw} drawn`), ' · ', h('span.loss', `${p.results.loss} lost`)),
    ),
    h('section.card',
      h('h3', 'Ratings'),
      kinds.length
        ? h('div.ratings', kinds.map(([game, r]) =>
            h('div.rating-card', { 'data-testid': 'rating', 'data-game': game, 'data-rating': r.rating.toFixed(1) },
              h('h4', h('a', { href: `/leaderboard/${game}`, 'data-link': '' }, gameName(game))),
              h('p', h('b.big', shownRating(r.rating)),
                h('span.muted', { title: 'Rating deviation: how uncertain the rating still is (350 at the start; it shrinks with every rated game)' },
                  ` RD ${shownRating(r.rd)} · ${r.games} rated game${r.games === 1 ? '' : 's'}`)),
              historyChart(r.history),
            )))
        : h('p.muted', 'No rated games yet.'),
    ),
    h('section.card',
      h('h3', 'Games in progress'),
      p.playing.length
        ? h('ul', { 'data-testid': 'playing' }, p.playing.map((g) =>
            h('li', { 'data-id': g.id }, h('a', { href: `/${loadSeats(g.id).length ? 'game' : 'watch'}/${g.id}`, 'data-link': '', 'data-testid': 'game-link' }, gameName(g.game)),
              g.opponents.length ? [' against ', ...opponentsNode(g.opponents)] : null,
              ` — ${g.status === 'waiting' ? 'waiting for players' : 'running'}`)))
        : h('p.muted', 'None.'),
    ),
    h('section.card',
      h('h3', 'Finished games'),
      p.recent_games.length
        ? h('ul', { 'data-testid': 'finished' }, p.recent_games.map((g) =>
            h('li', { 'data-id': g.id, 'data-result': g.result ?? '' },
              h('a', { href: `/replay/${g.id}`, 'data-link': '', 'data-testid': 'game-link' }, gameName(g.game)),
              ' — ',
              // "Won against alice (1,540)": the result from this player's side, the opponent named.
              g.opponents.length
                ? [`${resultAgainst(g.result).replace(/^./, (c) => c.toUpperCase())} `, ...opponentsNode(g.opponents)]
                : resultText[g.result ?? ''] ?? 'ended',
              `, ${day(g.at)}`)))
        : h('p.muted', 'None yet.'),
    ),
  );
}
