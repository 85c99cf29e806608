// The game page's header: title, connection, status line, last action, seats with their clocks, and
// the banners (invites, rematch, error, draw and takeback offers); and the players' bars above and
// below the board (who holds each seat, with their rating). Pure views of the controller.

import { seatColour } from '../../../games/art';
import { drawDeclinedBy, lastTakeback, moveList, outcomeOf, seatsMarkedToAct, statusLine, statusState, type Snapshot } from '../../../logic/snapshot';
import { solvedAny } from '../../../logic/learned';
import { loadInvites } from '../../../store';
import { h, s } from '../../../ui/dom';
import { moveText } from '../../position';
import { changeBadge, playerLink, ratingBadge } from '../../people';
import { clockFaces } from '../clocks';
import type { GameCtrl } from '../ctrl';
import { inviteCard } from './dialogs';

/** A small clock face drawn as SVG (a font's clock glyph renders as an empty box where the font lacks it). */
function clockIcon(): SVGElement {
  return s('svg.clock-icon', { viewBox: '0 0 16 16', 'aria-hidden': 'true' },
    s('circle', { cx: '8', cy: '8', r: '6.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.5' }),
    s('path', { d: 'M8 4.5V8l2.5 1.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.5', 'stroke-linecap': 'round' }));
}

/** The header's content; also sets the tab title (it says when the player is to move). */
export function headerView(ctrl: GameCtrl): Node[] {
  const model = ctrl.model;
  if (!model) return [h('p', 'Loading game…'), h('p.conn', ctrl.connText)];
  const me = ctrl.me;
  const owed = statusState(model);
  const myTurn = owed === 'yours';
  // An action of this page on its way to the server: the turn is not the player's to use until it is
  // answered (the board ignores clicks meanwhile), and the status says so (and so do its marks).
  const state = myTurn && ctrl.sent.pending ? 'sent' : owed;
  // Placing a hidden army (Cyvasse's setup): say what the editor is for and that it stays unseen.
  const line = myTurn && ctrl.setup.open ? 'Place your army — the opponent cannot see it' : statusLine(model);
  document.title = `${myTurn ? 'Your turn — ' : ''}${model.name ?? model.game} — Tabula`;
  const gentle = me !== null && !solvedAny() && model.seats.some((x) => x.kind === 'ai' && x.level === 1);
  // What the position means now, from the view (Caird: a check), while the game runs.
  const note = !outcomeOf(model) && ctrl.seats.cover === null ? ctrl.renderer().statusNote?.(model.view, me, model.seats.map((x) => x.name)) ?? null : null;
  const assist = ctrl.assist;
  const out: Node[] = [
    h('div.row',
      h('h2', { style: 'margin:0' }, model.name ?? model.game),
      model.rated ? h('span.rated', { 'data-testid': 'rated', title: 'The players\' ratings change when this game ends' }, 'Rated') : '',
      h('a', { href: `/rules/${model.game}`, 'data-link': '', target: '_blank' }, 'Rules'),
      h('a', { href: `/learn/${model.game}`, 'data-link': '', 'data-testid': 'how-to-play' }, 'How to play'),
      h(`span.conn${ctrl.connected ? '' : '.down'}`, { 'data-testid': 'conn' }, ctrl.connected ? '● live' : `○ ${ctrl.connText}`),
      // A newcomer's quick game is against the gentlest AI (the lobby chose it): say so, in the title
      // row (a banner of its own would push the board below the screen).
      gentle ? h('span.gentle', { 'data-testid': 'gentle-ai' }, 'Gentlest AI (level 1): you have not solved a lesson yet') : null),
    h(`div.banner${myTurn ? '.turn' : ''}`, { 'data-testid': 'status', 'data-state': state },
      ctrl.seats.hotseat && me !== null && !outcomeOf(model) ? `${ctrl.seatName(me)} (this device): ${line}` : line,
      note ? h('div.status-note', { 'data-testid': 'status-note' }, note) : null),
    // Why the last click on the board did nothing (the engine's words): beside the board, never over it.
    // Under the hot-seat cover the last action waits too (described as the next seat sees it).
    ctrl.seats.cover === null ? lastLine(model) : h('div.muted', { 'data-testid': 'last-move' }, 'Last action: shown with the board'),
    h('div.row', model.seats.map((x) => seatLine(ctrl, model, x.seat))),
  ];
  // Why the last click on the board did nothing (the engine's words): beside the board, never over it.
  if (assist.explained) out.splice(2, 0, h('div.explain-line', { 'data-testid': 'explain', role: 'status' }, assist.explained));
  const invites = model.status === 'waiting'
    ? loadInvites(ctrl.id).filter((i) => model.seats[i.seat]?.kind === 'human' && !model.seats[i.seat]?.joined)
    : [];
  if (invites.length) out.push(inviteCard(invites));
  if (model.rematch) {
    out.push(h('div.banner', 'A rematch was created. ',
      ctrl.seats.cred
        ? h('button', { onclick: () => void ctrl.ops.rematch() }, 'Play it') // asking again returns this seat's new token
        : h('a', { href: `/watch/${model.rematch.id}`, 'data-link': '' }, 'Watch it')));
  }
  if (ctrl.errorText) out.push(h('div.banner.warn', { 'data-testid': 'error' }, ctrl.errorText));
  out.push(...offerBanners(ctrl, model, me));
  return out;
}

function seatLine(ctrl: GameCtrl, model: Snapshot, seat: number): HTMLElement {
  const x = model.seats[seat];
  const me = ctrl.me;
  const local = ctrl.seats.hotseat && ctrl.seats.local.includes(seat);
  const whose = local ? (seat === me ? ' (this device, shown)' : ' (this device)') : seat === me ? ' (you)' : '';
  const what = x.kind === 'ai' ? `AI level ${x.level ?? '?'}` : x.joined ? 'player' : x.open ? 'open seat' : 'invited, not joined yet';
  const colour = ctrl.renderer().seatColour?.(model.view, seat) ?? seatColour(seat);
  return h('span', { 'data-seat': seat },
    h('span.seat-chip', { style: `background:${colour}` }),
    `${x.name}${whose} — ${what}`,
    seatsMarkedToAct(model).includes(seat) ? h('b', ' ◀ to act') : '',
    model.clock ? h('span.clock', { 'data-clock': seat }, clockIcon(), h('span.clock-time')) : '');
}

/** Refreshes the clocks' text in the header (twice a second, and after each redraw). */
export function updateClocks(header: HTMLElement, ctrl: GameCtrl): void {
  clockFaces(ctrl.model, Date.now()).forEach((f, i) => {
    const el = header.querySelector(`[data-clock="${i}"] .clock-time`);
    if (!el) return;
    el.textContent = f.text;
    el.parentElement?.classList.toggle('running', f.running);
    el.parentElement?.classList.toggle('low', f.low);
  });
}

/** The last action in words (also when it names no cell on the board: a trade, an end of turn). */
function lastLine(model: Snapshot): HTMLElement {
  const moves = moveList(model.events);
  const m = moves[moves.length - 1];
  return h('div.muted', { 'data-testid': 'last-move' }, m ? `Last: ${moveText(m, model.seats)}` : 'No move yet');
}

/** The draw offer (or the last answer to one) and the takeback request (or the answer to the last one),
 * with Accept / Decline for each seat of this device that answers (hot-seat: named). */
function offerBanners(ctrl: GameCtrl, m: Snapshot, me: number | null): HTMLElement[] {
  const out: HTMLElement[] = [];
  const hotseat = ctrl.seats.hotseat;
  const as = (x: number) => (hotseat ? ` as ${ctrl.seatName(x)}` : '');
  const answer = (kind: 'draw' | 'takeback', accepted: number[]) => {
    const seats = ctrl.seats.answering(me, accepted);
    const op = (o: 'accept' | 'decline', x: number) => () => (kind === 'draw' ? ctrl.ops.drawOp(o, x) : ctrl.ops.takebackOp(o, x));
    return seats.length
      ? seats.map((x) => [
          h('button', { 'data-testid': `${kind}-accept`, onclick: op('accept', x) }, `Accept${as(x)}`),
          h('button', { 'data-testid': `${kind}-decline`, onclick: op('decline', x) }, `Decline${as(x)}`)])
      : h('span.muted', 'Waiting for an answer.');
  };
  if (m.draw_offer) out.push(h('div.banner', `${ctrl.seatName(m.draw_offer.by)} offers a draw. `, answer('draw', m.draw_offer.accepted)));
  else {
    const decliner = drawDeclinedBy(m);
    if (decliner !== null && decliner !== me) {
      const ai = m.seats[decliner]?.kind === 'ai';
      out.push(h('div.banner', { 'data-testid': 'draw-declined' },
        ai ? 'The AI declined your draw offer — play on.' : `${ctrl.seatName(decliner)} declined the draw offer — play on.`));
    }
  }
  const offer = m.takeback_offer;
  if (offer) {
    const asker = offer.by === me && !hotseat ? 'You ask' : me !== null && !hotseat ? 'Your opponent asks' : `${ctrl.seatName(offer.by)} asks`;
    const whose = offer.by === me && !hotseat ? 'your' : 'their';
    out.push(h('div.banner', { 'data-testid': 'takeback-offer' }, `${asker} to take back ${whose} last move. `, answer('takeback', offer.accepted)));
    return out;
  }
  const last = lastTakeback(m);
  if (!last) return out;
  if ('declined' in last) {
    if (last.declined !== me || hotseat) {
      out.push(h('div.banner', { 'data-testid': 'takeback-declined' },
        `${me !== null && !hotseat ? 'Your opponent' : ctrl.seatName(last.declined)} declined the takeback — play on.`));
    }
    return out;
  }
  const mine = last.done === me && !hotseat;
  out.push(h('div.banner', { 'data-testid': 'takeback-done' },
    mine ? 'Your last move was taken back — play again.' : `${ctrl.seatName(last.done)}'s last move was taken back.`));
  return out;
}

/** Who holds a seat, as its bar beside the board says: the account (linked to its profile) with its
 * rating for this game and, once a rated game is over, the change; "AI level N" for the AI; an
 * anonymous player; or a seat nobody has taken yet. */
function playerChip(ctrl: GameCtrl, model: Snapshot, seat: number): HTMLElement {
  const x = model.seats[seat];
  const colour = ctrl.renderer().seatColour?.(model.view, seat) ?? seatColour(seat);
  const p = x.player;
  const who: Node[] = p
    ? [playerLink(p.name), ratingBadge(p), p.rating_change !== undefined ? changeBadge(p.rating_change) : null].filter((n): n is HTMLElement => n !== null)
    : [h('span.player-name', x.kind === 'ai' ? `AI level ${x.level}` : x.joined ? 'Anonymous' : x.open ? 'Open seat' : 'Waiting for a player')];
  const mine = seat === ctrl.me && !ctrl.seats.hotseat;
  return h('span.player', { 'data-testid': 'player', 'data-player-seat': seat, 'data-name': p?.name ?? '' },
    h('span.seat-chip', { style: `background:${colour}`, title: x.name }),
    ...who,
    mine ? h('span.muted', ' (you)') : null);
}

/** The players' bars: the opponents above the board, this device's seat below it (a spectator: the
 * first seat below, the others above), lichess-style. */
export function playerBars(ctrl: GameCtrl): { top: Node[]; bottom: Node[] } {
  const model = ctrl.model;
  if (!model) return { top: [], bottom: [] };
  const below = ctrl.me ?? 0;
  const others = model.seats.map((x) => x.seat).filter((i) => i !== below);
  return {
    top: others.map((i) => playerChip(ctrl, model, i)),
    bottom: model.seats[below] ? [playerChip(ctrl, model, below)] : [],
  };
}
