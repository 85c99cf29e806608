// People by name: how a player, their rating and a rating change are written wherever a person is
// shown (beside the board, the game-over dialog, My games, profiles, leaderboards).

import type { Opponent } from '../wire/server/Opponent';
import type { SeatPlayer } from '../wire/server/SeatPlayer';
import { h } from '../ui/dom';

/** The rating a player starts at (the server's Glicko-2 default), shown until their first rated game. */
export const START_RATING = 1500;

/** A rating as people read it: rounded, with a thousands separator, and "?" when provisional
 * ("1,512", "1,500?"). */
export function ratingText(rating: number | null | undefined, provisional: boolean): string {
  const r = typeof rating === 'number' && Number.isFinite(rating) ? rating : START_RATING;
  return `${Math.round(r).toLocaleString('en-US')}${provisional ? '?' : ''}`;
}

/** A rating change with its sign ("+12", "−12" with a minus sign, "±0"). */
export function changeText(change: number): string {
  const n = Math.round(change);
  if (n === 0) return '±0';
  return n > 0 ? `+${n}` : `\u2212${-n}`;
}

/** A player's name linked to their profile. */
export function playerLink(name: string): HTMLElement {
  return h('a.player-name', { href: `/@/${encodeURIComponent(name)}`, 'data-link': '' }, name);
}

/** A player's rating for a game as a small element ("1,500?"), titled with what "?" means. */
export function ratingBadge(p: SeatPlayer): HTMLElement {
  return h('span.player-rating', {
    'data-testid': 'player-rating',
    title: p.provisional ? 'Provisional rating: it settles after a few more rated games' : 'Rating in this game',
  }, ratingText(p.rating, p.provisional));
}

/** A rating change as an element coloured by its sign ("+12" green, "−12" red). */
export function changeBadge(change: number): HTMLElement {
  const n = Math.round(change);
  return h(`span.rating-change${n > 0 ? '.up' : n < 0 ? '.down' : ''}`, { 'data-testid': 'rating-change' }, changeText(change));
}

/** Who played another seat, for a list of games: the account linked with its rating at the time
 * ("alice (1,540)"), the AI ("AI level 2"), or an anonymous player. */
export function opponentNode(o: Opponent): Node {
  if (o.player) {
    return h('span.opponent', { 'data-testid': 'opponent', 'data-name': o.player.name },
      playerLink(o.player.name), ` (${ratingText(o.player.rating, o.player.provisional)})`);
  }
  if (o.ai_level !== null) return h('span.opponent', { 'data-testid': 'opponent' }, `AI level ${o.ai_level}`);
  return h('span.opponent', { 'data-testid': 'opponent' }, 'Anonymous');
}

/** The opponents of a game joined with "and" ("alice (1,540)", "alice (1,540) and AI level 2"). */
export function opponentsNode(os: Opponent[]): Node[] {
  const out: Node[] = [];
  os.forEach((o, i) => {
    if (i > 0) out.push(document.createTextNode(i === os.length - 1 ? ' and ' : ', '));
    out.push(opponentNode(o));
  });
  return out;
}

/** A finished game from the player's side, before its opponents: "won against", "drew with", "lost
 * to" (or "played" when the game ended without a result for the seat). */
export function resultAgainst(result: string | null): string {
  switch (result) {
    case 'win': return 'won against';
    case 'draw': return 'drew with';
    case 'loss': return 'lost to';
    default: return 'played';
  }
}
