// The game page's dialogs and cards outside the regions: resign, the watch link, the game-over dialog,
// the invite links, the page of an unknown game, saving a record.

import { firstFinish, nextUnsolved } from '../../../logic/learned';
import { fileName, type JsonRecord } from '../../../logic/record';
import { myResult, outcomeOf, statusLine } from '../../../logic/snapshot';
import { showDialog } from '../../../ui/dialog';
import { h } from '../../../ui/dom';
import { allLessons } from '../../learn/lessons';
import type { GameCtrl } from '../ctrl';
import type { Snapshot } from '../../../logic/snapshot';
import { changeBadge, ratingText } from '../../people';

/** Resign, confirmed (hot-seat: the shown seat resigns, and the dialog names it). */
export async function confirmResign(ctrl: GameCtrl, seat: number): Promise<void> {
  const hotseat = ctrl.seats.hotseat;
  const title = hotseat ? `Resign as ${ctrl.seatName(seat)}?` : 'Resign?';
  const text = hotseat ? `${ctrl.seatName(seat)} loses this game.` : 'You lose this game.';
  const choice = await showDialog(title, text, [{ label: 'Resign', value: 'yes', primary: true }, { label: 'Cancel', value: 'no' }]);
  if (choice === 'yes') ctrl.ops.resign(seat);
}

/** A link to copy (to the clipboard when the browser allows, and shown to select). */
export function showLink(text: string): void {
  navigator.clipboard?.writeText(text).catch(() => undefined);
  void showDialog('Link', h('input', { value: text, readonly: true, size: 50 }), [{ label: 'OK', value: 'ok' }]);
}

/** A rated game's end: each player's new rating and its change ("alice 1,512 (+12)"), or null when
 * the game changed no rating (casual, or not every seat an account). */
export function ratingChanges(model: Snapshot): HTMLElement | null {
  const changed = model.seats.filter((x) => x.player?.rating_after !== undefined && x.player.rating_change !== undefined);
  if (!changed.length) return null;
  return h('ul.rating-changes', { 'data-testid': 'rating-changes' }, changed.map((x) => {
    const p = x.player;
    if (!p || p.rating_after === undefined || p.rating_change === undefined) return null;
    return h('li', { 'data-player-seat': x.seat, 'data-name': p.name },
      h('b', p.name),
      h('span', { 'data-testid': 'new-rating' }, ratingText(p.rating_after, false)),
      h('span', '(', changeBadge(p.rating_change), ')'));
  }));
}

/** The game-over dialog: the result, each player's rating change after a rated game, Replay,
 * Rematch, and after this device's first finished game of a kind the next lesson it has not solved. */
export async function gameOverDialog(ctrl: GameCtrl, navigate: (path: string) => void): Promise<void> {
  const model = ctrl.model;
  const over = model ? outcomeOf(model) : null;
  if (!model || !over) return;
  const me = ctrl.me;
  const game = model.game;
  const lesson = me !== null && firstFinish(game)
    ? await allLessons().then((gs) => {
        const g = gs.find((x) => x.game === game);
        return g ? nextUnsolved(game, g.count) : null;
      }).catch(() => null)
    : null;
  const buttons = [
    { label: 'Close', value: 'close' },
    { label: 'Replay', value: 'replay' },
    ...(lesson !== null ? [{ label: `Lesson ${lesson}`, value: 'learn' }] : []),
    ...(me !== null ? [{ label: 'Rematch', value: 'rematch', primary: true }] : []),
  ];
  const body = h('div', h('p', { 'data-testid': 'result' }, statusLine(model)),
    ratingChanges(model),
    lesson !== null ? h('p', { 'data-testid': 'suggest-lesson' }, `Your first game of ${model.name ?? game} is over. Learn more with lesson ${lesson}.`) : null);
  const choice = await showDialog(ctrl.seats.hotseat ? 'Game over' : myResult(over, me), body, buttons);
  if (choice === 'rematch') await ctrl.ops.rematch();
  else if (choice === 'replay') navigate(`/replay/${ctrl.id}`);
  else if (choice === 'learn' && lesson !== null) navigate(`/learn/${game}/${lesson}`);
}

/** The links to send to friends, each with a Copy button, while their seats are not joined. */
export function inviteCard(invites: { seat: number; name: string; url: string }[]): HTMLElement {
  return h('div.card.invites', { 'data-testid': 'invites' },
    h('b', invites.length > 1 ? 'Send each friend their link' : 'Send this link to your friend'),
    h('span.muted', ' — the game starts when every seat has joined.'),
    invites.map((i) => {
      const field = h('input.invite-url', { value: i.url, readonly: true, 'data-join-seat': i.seat, onfocus: (e: Event) => (e.target as HTMLInputElement).select() }) as HTMLInputElement;
      const button = h('button', { 'data-testid': `copy-invite-${i.seat}` }, 'Copy') as HTMLButtonElement;
      button.addEventListener('click', () => {
        field.select();
        const done = () => { button.textContent = 'Copied ✓'; };
        if (navigator.clipboard) navigator.clipboard.writeText(i.url).then(done, () => { button.textContent = 'Select and copy (Ctrl+C)'; });
        else button.textContent = 'Select and copy (Ctrl+C)';
      });
      return h('div.invite', h('label', `${i.name}: `), field, button);
    }));
}

/** Saves a game record as a JSON file. */
export function downloadRecord(rec: JsonRecord, id: string): void {
  const blob = new Blob([JSON.stringify(rec, null, 2)], { type: 'application/json' });
  const a = h('a', { href: URL.createObjectURL(blob), download: fileName(rec, id) }) as HTMLAnchorElement;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
