// My games (`/me`): the signed-in player's running games on every device, those awaiting their move
// first, and their latest finished games. Refreshed while the page is open; the top bar and the tab
// title count the games awaiting a move.

import { currentSession, refreshMyGames, type MyGame, type MyGames } from '../account';
import { navigate } from '../router';
import { saveSeat } from '../store';
import { clear, h } from '../ui/dom';
import { opponentsNode, resultAgainst } from './people';
import { day, gameNames } from './profile';

/** How often the open page asks again (the top bar asks less often). */
const REFRESH_MS = 15000;

let timer: number | undefined;

/** Stops refreshing (the page was left). */
export function leaveMyGames(): void {
  if (timer !== undefined) clearInterval(timer);
  timer = undefined;
}

/** Opens a game of the account: this device learns the seat's token first (the account may have taken
 * the seat on another device). */
function openGame(g: MyGame): void {
  saveSeat(g.id, { seat: g.seat, token: g.token });
  navigate(`/game/${g.id}`);
}

export async function myGamesPage(root: HTMLElement): Promise<void> {
  leaveMyGames();
  clear(root);
  if (!currentSession()) {
    root.append(h('section.card.narrow', h('h2', 'My games'),
      h('p', h('a', { href: '/signin?next=/me', 'data-link': '' }, 'Sign in'), ' to see your games on every device.')));
    return;
  }
  const gameName = await gameNames();
  const body = h('div');
  const note = h('p.error');
  root.append(body, note);
  const draw = (d: MyGames) => {
    clear(body);
    const line = (g: MyGame) => h(`li${g.your_turn ? '.your-turn' : ''}`, { 'data-id': g.id, 'data-your-turn': g.your_turn ? '1' : '0' },
      h('a', { href: `/game/${g.id}`, 'data-testid': 'game-link', onclick: (e: Event) => { e.preventDefault(); openGame(g); } }, gameName(g.game)),
      g.seat_name ? ` as ${g.seat_name}` : ` (seat ${g.seat + 1})`,
      g.opponents.length ? [' against ', ...opponentsNode(g.opponents)] : null,
      ' — ',
      g.your_turn ? h('b', 'your move') : g.status === 'waiting' ? 'waiting for players' : 'their move',
      h('span.muted', ` · ${day(g.updated_at)}`),
    );
    const resultText: Record<string, string> = { win: 'won', draw: 'drawn', loss: 'lost' };
    body.append(
      h('section.card', { 'data-testid': 'my-games' },
        h('div.row', h('h2', { style: 'margin:0' }, 'My games'),
          h('a', { href: `/@/${encodeURIComponent(d.name)}`, 'data-link': '' }, 'Profile')),
        h('p', { 'data-testid': 'awaiting' }, d.awaiting === 0 ? 'No game awaits your move.' : d.awaiting === 1 ? '1 game awaits your move.' : `${d.awaiting} games await your move.`),
        d.games.length
          ? h('ul.my-games', d.games.map(line))
          : h('p.muted', 'No game in progress. ', h('a', { href: '/', 'data-link': '' }, 'Start one'), '.'),
      ),
      h('section.card',
        h('h3', 'Finished'),
        d.finished.length
          ? h('ul', { 'data-testid': 'my-finished' }, d.finished.map((g) =>
              h('li', { 'data-id': g.id, 'data-result': g.result ?? '' }, h('a', { href: `/replay/${g.id}`, 'data-link': '', 'data-testid': 'game-link' }, gameName(g.game)),
                ' — ',
                g.opponents.length ? [`${resultAgainst(g.result)} `, ...opponentsNode(g.opponents)] : resultText[g.result ?? ''] ?? 'ended',
                `, ${day(g.updated_at)}`)))
          : h('p.muted', 'None yet.'),
      ),
    );
  };
  const refresh = async () => {
    try {
      const d = await refreshMyGames();
      if (d) draw(d);
      else navigate('/signin?next=/me');
      note.textContent = '';
    } catch (e) {
      note.textContent = e instanceof Error ? e.message : String(e);
      if (!currentSession()) leaveMyGames();
    }
  };
  await refresh();
  if (currentSession()) timer = window.setInterval(() => { if (!document.hidden) void refresh(); }, REFRESH_MS);
}
