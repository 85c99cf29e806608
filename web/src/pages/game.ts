// The game page: board, whose turn, move list, legal actions, clocks, draw/resign/rematch, game-over
// dialog, export, and stepping back through every earlier position (from the server, cached).

import { api, positionFetcher } from '../api';
import { GameConn, type ClientOp, type ServerMsg } from '../conn';
import { rendererFor, selectionFor } from '../games/index';
import { Selection, groupByVerb, ownWords, playerWords, type LegalAction } from '../logic/select';
import {
  clockIsLow, drawDeclinedBy, formatClock, lastTakeback, merge, moveList, mySeat, myResult, outcomeOf, recentChance,
  seatsMarkedToAct, seatsToAct, statusLine, statusState, takebackBlocked, type Snapshot,
} from '../logic/snapshot';
import { fairnessText, fileName, type JsonRecord } from '../logic/record';
import { forgetSeat, loadInvites, loadSeats, saveSeat, type SeatCredential } from '../store';
import { inStep, needsCover, seatToShow } from '../logic/hotseat';
import { clear, h, s } from '../ui/dom';
import { showDialog } from '../ui/dialog';
import { isMuted, playSound, setMuted } from '../ui/sound';
import { navigate } from '../router';
import { seatColour } from '../games/art';
import { attachBoardInput } from '../games/board';
import type { SetupCodec } from '../games/types';
import { setupLabel, setupRefusal, swap, type SetupDraft, type SwapMode } from '../logic/setup';
import { PendingAction } from '../logic/pending';
import { lastMoveCells, positionOfMove, ReplayNav, type Position } from '../logic/replay';
import { moveText, positionBoard, positionLabel, replayButtons, zoomableBoard, type ZoomState } from './position';
import { scrollToCurrent } from './replay';
import { groupByTurn, prefersNotation, setPrefersNotation, stepText } from '../logic/movelist';
import { firstFinish, nextUnsolved, solvedAny } from '../logic/learned';
import { canAskHint, type Hint } from '../logic/hint';
import { percent } from '../logic/analysis';
import { drawMovesOnBoard } from './analysis';
import { allLessons } from './learn';
import { ChatPanel } from '../ui/chat';
import type { ExplainReq } from '../wire/server/ExplainReq';
import type { Explanation } from '../wire/server/Explanation';

let active: { close(): void } | null = null;

/** A small clock face drawn as SVG (a font's clock glyph renders as an empty box where the font lacks it). */
function clockIcon(): SVGElement {
  return s('svg.clock-icon', { viewBox: '0 0 16 16', 'aria-hidden': 'true' },
    s('circle', { cx: '8', cy: '8', r: '6.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.5' }),
    s('path', { d: 'M8 4.5V8l2.5 1.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.5', 'stroke-linecap': 'round' }));
}

/** The key of the spectator's connection (seats are 0, 1, …). */
const SPECTATOR = -1;

export function leaveGame(): void {
  if (active) document.title = 'Tabula';
  active?.close();
  active = null;
}

export function gamePage(root: HTMLElement, id: string, spectate: boolean): void {
  leaveGame();
  clear(root);
  // Every seat of this device in this game (several: hot-seat play); one WebSocket each, each with its
  // own view and legal actions. The page shows one seat at a time (`shown`): the one owing the decision.
  const creds: SeatCredential[] = spectate ? [] : loadSeats(id);
  const local = creds.map((c) => c.seat);
  const hotseat = local.length > 1;
  let shown: number | null = hotseat ? null : (local[0] ?? null); // hot-seat: chosen once every seat's state is in
  let cred: SeatCredential | null = hotseat ? null : (creds[0] ?? null);
  const models = new Map<number, Snapshot>(); // by seat (SPECTATOR: the spectator's)
  const conns = new Map<number, GameConn>();
  const up = new Map<number, boolean>();
  // Hot-seat: the seat the device must be handed to before its board shows (views differ), or null.
  let cover: number | null = null;
  let sentBy = -2; // the seat whose connection carries the pending action
  let model: Snapshot | null = null;
  let selection: Selection | null = null;
  let chooser: LegalAction[] | null = null;
  /** Why the last click led to no legal action (the engine's words), shown until the next click. */
  let explained: string | null = null;
  let explainAsked = 0;
  /** Whether that line shows at the bottom of the board (the click was in its upper half). */
  let explainBelow = false;
  const sent = new PendingAction(); // the action on its way (the board offers nothing meanwhile)
  let errorText = '';
  let connText = 'connecting…';
  let connected = false;
  let shownOver = false;
  // Stepping back: the positions come from the server (`view/{n}`), cached by `nav`; `review` is the one
  // shown (null: the live position).
  let nav = new ReplayNav(positionFetcher(id, cred), 0);
  let review: Position | null = null;
  let reviewError = '';
  const zoom: ZoomState = { on: false, left: 0, top: 0 };
  // The hidden-setup editor (Cyvasse): a draft army edited by swapping cells, then sent as one action.
  let codec: SetupCodec | null = null;
  let draft: SetupDraft | null = null;
  let draftSel: string | null = null;
  let swapMode: SwapMode = 'pieces';
  let draftSource = '';
  // A setup sent from the editor, and the server's reasons for refusing it (shown in the editor).
  let setupSent = false;
  let setupError: string[] | null = null;
  let setupErrorStale = false; // the draft was edited since the refusal
  let clockTimer: number | undefined;
  /** Flip board: the other side at the bottom (kept while the page is open). */
  let flipped = false;
  /** The number of moves and whether it was this player's turn when last drawn (for sounds; -1: not yet). */
  let heardMoves = -1;
  let wasMyTurn = false;
  /** Whether the fair-chance details are unfolded (kept across redraws). */
  let fairnessOpen = false;
  // The engine's hint for the shown seat's current decision (games against the AI, casual): valid
  // while the game stays at the position (`seq`) it was asked at.
  let hint: (Hint & { seq: number }) | null = null;
  let hintBusy = false;

  const header = h('div.card');
  const boardHost = h('div.board-wrap', { 'data-testid': 'board' });
  attachBoardInput(boardHost, (cell) => onCell(cell));
  const panelsHost = h('div.panels');
  const side = h('div.side-body');
  // The chat (web/src/ui/chat.ts) writes as the shown seat (hot-seat: the seat owing the decision).
  const chat = new ChatPanel(id, () => cred);
  // On a phone the column unwraps (CSS) so that the actions come right after the board, before panels.
  root.append(h('div.game-layout', h('div.main-col', header, boardHost, panelsHost), h('div.side', side, chat.el)));

  const keyOf = (seat: number | null) => seat ?? SPECTATOR;
  const connOf = (seat: number | null) => conns.get(keyOf(seat)) ?? null;
  const send = (msg: ClientOp, seat: number | null = shown) => connOf(seat)?.send(msg) ?? null;

  function onStatus(k: number, isUp: boolean, detail: string): void {
    up.set(k, isUp);
    connected = [...conns.keys()].every((c) => up.get(c) === true);
    // A dropped connection may have lost the answer: the reconnect's snapshot tells; meanwhile the
    // player may act again (over HTTP), and a repeated action is refused with a clear error.
    if (!isUp && sent.pending && k === sentBy) {
      sent.clear();
      drawSide();
    }
    connText = detail;
    drawHeader();
  }

  function onMessage(k: number, msg: ServerMsg): void {
    if (msg.type === 'chat' || msg.type === 'chat_history') {
      chat.onMessage(msg);
      return;
    }
    if (msg.type === 'snapshot' || msg.type === 'update') {
      const { model: next, gap } = merge(models.get(k) ?? null, msg);
      models.set(k, next);
      chat.setOver(outcomeOf(next) !== null);
      if (gap) conns.get(k)?.send({ type: 'sync' });
      if (k === sentBy) sent.onState(msg.type, next.seq, msg.events, mySeat(next));
      const switched = hotseat && chooseSeat();
      if (!switched && k !== keyOf(shown)) return; // another local seat's state: kept for its turn
      const m = models.get(keyOf(shown));
      if (!m) return;
      adopt(m, switched);
    } else if (msg.type === 'error') {
      if (k === sentBy) sent.onError(msg.id);
      if (k !== keyOf(shown) && k !== sentBy) return;
      refused(msg.message);
      draw();
    } else if (msg.type === 'ack') {
      if (k !== sentBy) return;
      errorText = '';
      setupError = null;
      const was = sent.pending;
      if (typeof msg.seq === 'number' && msg.id !== null) sent.onAck(msg.id, msg.seq, models.get(k)?.seq ?? 0);
      if (was && !sent.pending) draw();
    }
  }

  /** Hot-seat: once every local seat's state is at the same position, shows the seat owing the decision;
   * passing the device between seats whose views differ covers the board first. Returns whether the
   * shown seat changed. */
  function chooseSeat(): boolean {
    const states = local.map((s) => models.get(s));
    if (!inStep(states)) return false;
    const now = models.get(local[0]);
    if (!now) return false;
    const next = seatToShow(local, outcomeOf(now) ? [] : seatsToAct(now.to_act), shown);
    if (next === null || next === shown) return false;
    const first = shown === null;
    const target = models.get(next);
    // On opening the page the other seats' views are compared with it (someone else may be looking).
    const others = first ? local.filter((s) => s !== next) : [shown as number];
    cover = others.some((s) => needsCover(models.get(s), target)) ? next : null;
    shown = next;
    cred = creds.find((c) => c.seat === next) ?? null;
    nav = new ReplayNav(positionFetcher(id, cred), 0);
    review = null;
    reviewError = '';
    sent.clear();
    sentBy = -2;
    errorText = '';
    setupError = null;
    draft = null;
    draftSel = null;
    selection = null;
    chooser = null;
    return true;
  }

  /** Makes `next` (the shown seat's state) the page's model and redraws. */
  function adopt(next: Snapshot, fresh: boolean): void {
    if (model && model.seq !== next.seq) explained = null;
    model = next;
    if (hint && (hint.seq !== next.seq || hint.seat !== mySeat(next))) hint = null;
    const halfMade = selection && !fresh ? [...selection.prefix] : [];
    const choosing = chooser !== null && !fresh;
    chooser = null;
    const moves = moveList(next.events).length;
    nav.setTotal(moves);
    // Sound: a chime when it becomes this player's turn, else a click for a new move (none on opening).
    const turnNow = statusState(next) === 'yours';
    if (heardMoves >= 0) {
      // Hot-seat: the device passes between seats; a click for each move, no chime for each hand-over.
      if (turnNow && !wasMyTurn && !hotseat) playSound('turn');
      else if (moves > heardMoves) playSound('move');
    }
    heardMoves = moves;
    wasMyTurn = turnNow;
    const me = mySeat(next);
    const renderer = rendererFor(next.game);
    selection = selectionFor(next.game, me === null ? [] : next.legal);
    // A half-made choice survives an update that still allows it (a join, a draw offer, the other
    // seat's hidden setup); otherwise the one piece that can act is selected already.
    if (selection.keep(halfMade)) {
      const variants = selection.complete();
      if (choosing && variants.length > 1) chooser = variants;
    } else {
      selection.autoSelect();
    }
    codec = me !== null && next.legal.length ? renderer.setup?.(next.view, next.options, me) ?? null : null;
    if (!codec) {
      draft = null;
      draftSel = null;
    } else if (!draft) {
      for (const a of next.legal) {
        const d = codec.fromAction(a.action);
        if (d) {
          draft = d;
          draftSource = setupLabel(a.notation, next.legal.indexOf(a));
          break;
        }
      }
    }
    draw();
    maybeGameOver();
  }

  const seatsToConnect: (SeatCredential | null)[] = creds.length ? creds : [null];
  for (const c of seatsToConnect) {
    const k = keyOf(c?.seat ?? null);
    conns.set(k, new GameConn(id, c, {
      onStatus: (isUp, detail) => onStatus(k, isUp, detail),
      onMessage: (msg) => onMessage(k, msg),
      // Forget the seat, so a reload opens the game as a spectator instead of redialling a dead token.
      onRevoked: () => {
        if (c) forgetSeat(id, c.seat, c.token);
      },
      onGone: () => noSuchGame(),
    }));
  }
  /** The address names no game: say so (instead of "reconnecting…" forever) and offer the way on. */
  function noSuchGame(): void {
    leaveGame();
    clear(root);
    root.append(h('div.card.no-game', { 'data-testid': 'no-such-game' },
      h('h2', 'No such game'),
      h('p', `There is no game "${id}" on this server: the link may be mistyped or cut short.`),
      h('p', h('a', { href: '/', 'data-link': '' }, 'Go to the lobby'), ' to start or join a game, or ',
        h('a', { href: '/learn', 'data-link': '' }, 'learn a game'), '.')));
  }
  const online = () => conns.forEach((c) => c.kick());
  const offline = () => conns.forEach((c) => c.drop('offline — reconnecting when the network is back…'));
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  active = {
    close() {
      conns.forEach((c) => c.close());
      chat.close();
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      window.clearInterval(clockTimer);
    },
  };
  conns.forEach((c) => c.connect());
  clockTimer = window.setInterval(() => drawClocks(), 500);

  /** Shows the position after k actions (k = the number of actions so far: back to the live game). */
  async function reviewAt(k: number): Promise<void> {
    if (!model) return;
    reviewError = '';
    if (k >= moveList(model.events).length) {
      review = null;
      draw();
      return;
    }
    let pos: Position | null;
    try {
      pos = await nav.goto(k);
    } catch (e) {
      reviewError = e instanceof Error ? e.message : String(e);
      review = null; // the banner shows the error and the steps; no stale board under a new label
      draw();
      return;
    }
    if (!pos) return; // overtaken by a later step
    review = pos;
    draw();
  }

  /** Whether the page shows an earlier position (or failed to fetch one) rather than the live game. */
  function reviewing(): boolean {
    return review !== null || reviewError !== '';
  }

  function leaveReview(): void {
    review = null;
    reviewError = '';
    draw();
  }

  function seatName(i: number): string {
    return model?.seats[i]?.name ?? `Seat ${i + 1}`;
  }

  /** Shows the server's refusal: in the setup editor when it refused the setup sent from there. */
  function refused(message: string): void {
    if (setupSent && codec && draft) {
      setupError = setupRefusal(message);
      setupErrorStale = false;
    } else {
      errorText = message;
    }
  }

  /** Sends a listed action, or (`action` undefined) an action written in notation only. */
  function sendAction(a: Pick<LegalAction, 'action' | 'notation'>, fromSetupEditor = false): void {
    if (!model || sent.pending) return;
    errorText = '';
    setupError = null;
    setupSent = fromSetupEditor;
    const body = a.action === undefined ? { notation: a.notation } : { action: a.action };
    const sentId = send({ type: 'action', ...body });
    sentBy = keyOf(shown);
    if (sentId === null) {
      // Not connected: fall back to HTTP so the move is not lost.
      if (!cred) return;
      sent.sent(null);
      api.post(`/api/games/${id}/action`, { seat: cred.seat, token: cred.token, ...body })
        .then(() => send({ type: 'sync' }))
        .catch((e: unknown) => {
          refused(e instanceof Error ? e.message : String(e));
        })
        .finally(() => {
          sent.clear();
          draw();
        });
    } else {
      sent.sent(sentId);
    }
    selection?.reset();
    draw();
  }

  function onCell(cell: string): void {
    if (!selection || reviewing() || sent.pending) return;
    if (codec && draft) {
      if (!codec.home.includes(cell)) return;
      if (draftSel === null) draftSel = cell;
      else if (draftSel === cell) draftSel = null;
      else {
        draft = swap(draft, draftSel, cell, swapMode);
        draftSel = null;
        draftSource = 'edited';
        setupErrorStale = setupError !== null;
      }
      draw();
      return;
    }
    chooser = null;
    explained = null;
    const r = selection.click(cell);
    if (r.kind === 'submit') sendAction(r.action);
    else if (r.kind === 'choose') chooser = r.options;
    else if (r.kind === 'clear') {
      // The line goes to the half of the board away from the click, clear of the piece's own tooltip.
      const el = boardHost.querySelector(`[data-cell="${CSS.escape(cell)}"]`)?.getBoundingClientRect();
      const host = boardHost.getBoundingClientRect();
      explainBelow = !!el && el.top + el.height / 2 < host.top + host.height / 2;
      void explainClick(r.cells);
    }
    draw();
  }

  /** Asks the engine why the clicked cells lead to no legal action (`POST /api/games/{id}/explain`)
   * and shows its answer near the board until the next click; nothing when it has nothing to say. */
  async function explainClick(cells: string[]): Promise<void> {
    if (!model || !cred) return;
    const asked = ++explainAsked;
    const seq = model.seq;
    try {
      const ask: ExplainReq = { seat: cred.seat, token: cred.token, cells };
      const got = await api.post<Explanation>(`/api/games/${encodeURIComponent(id)}/explain`, ask);
      // Shown only for the last click, in the position it was asked about.
      if (asked !== explainAsked || !model || model.seq !== seq || typeof got?.reason !== 'string' || !got.reason) return;
      explained = got.reason;
      drawBoard();
    } catch {
      // The explanation is a courtesy: a refused or failed question shows nothing.
    }
  }

  function drawHeader(): void {
    clear(header);
    if (!model) {
      header.append(h('p', 'Loading game…'), h('p.conn', connText));
      return;
    }
    const me = mySeat(model);
    const toAct = seatsMarkedToAct(model);
    const state = statusState(model);
    const myTurn = state === 'yours';
    // Placing a hidden army (Cyvasse's setup): say what the editor is for and that it stays unseen.
    const placing = myTurn && codec !== null && draft !== null;
    const line = placing ? 'Place your army — the opponent cannot see it' : statusLine(model);
    // The tab says when the player is to move, so a game waiting in a background tab is noticed.
    document.title = `${myTurn ? 'Your turn — ' : ''}${model.name ?? model.game} — Tabula`;
    header.append(
      h('div.row',
        h('h2', { style: 'margin:0' }, model.name ?? model.game),
        model.rated ? h('span.rated', { 'data-testid': 'rated', title: 'The players\' ratings change when this game ends' }, 'Rated') : '',
        h('a', { href: `/rules/${model.game}`, 'data-link': '', target: '_blank' }, 'Rules'),
        h('a', { href: `/learn/${model.game}`, 'data-link': '', 'data-testid': 'how-to-play' }, 'How to play'),
        h(`span.conn${connected ? '' : '.down'}`, { 'data-testid': 'conn' }, connected ? '● live' : `○ ${connText}`),
      ),
      h(`div.banner${myTurn ? '.turn' : ''}`, { 'data-testid': 'status', 'data-state': state },
        hotseat && me !== null && !outcomeOf(model) ? `${seatName(me)} (this device): ${line}` : line),
      // Under the hot-seat cover the last action waits too (described as the next seat sees it).
      cover === null ? lastLine() : h('div.muted', { 'data-testid': 'last-move' }, 'Last action: shown with the board'),
      h('div.row', model.seats.map((s) =>
        h('span', { 'data-seat': s.seat },
          h('span.seat-chip', { style: `background:${rendererFor(model!.game).seatColour?.(model!.view, s.seat) ?? seatColour(s.seat)}` }),
          `${s.name}${hotseat && local.includes(s.seat) ? (s.seat === me ? ' (this device, shown)' : ' (this device)') : s.seat === me ? ' (you)' : ''} — ${s.kind === 'ai' ? `AI level ${s.level ?? '?'}` : s.joined ? 'player' : s.open ? 'open seat' : 'invited, not joined yet'}`,
          toAct.includes(s.seat) ? h('b', ' ◀ to act') : '',
          model!.clock ? h('span.clock', { 'data-clock': s.seat }, clockIcon(), h('span.clock-time')) : '',
        ))),
          );
    const invites = model.status === 'waiting'
      ? loadInvites(id).filter((i) => model!.seats[i.seat]?.kind === 'human' && !model!.seats[i.seat]?.joined)
      : [];
    if (invites.length) header.appendChild(inviteCard(invites));
    if (model.rematch) {
      const rm = model.rematch;
      header.appendChild(h('div.banner', 'A rematch was created. ',
        cred
          ? h('button', { onclick: () => rematch() }, 'Play it') // asking again returns this seat's new token
          : h('a', { href: `/watch/${rm.id}`, 'data-link': '' }, 'Watch it')));
    }
    if (me !== null && !solvedAny() && model.seats.some((s) => s.kind === 'ai' && s.level === 1)) {
      // A newcomer's quick game is against the gentlest AI (the lobby chose it): say so, and where to learn.
      // A line in the title row, not a banner of its own: it must not push the board below the screen.
      header.querySelector('div.row')?.appendChild(h('span.gentle', { 'data-testid': 'gentle-ai' },
        'Gentlest AI (level 1): you have not solved a lesson yet'));
    }
    if (errorText) header.appendChild(h('div.banner.warn', { 'data-testid': 'error' }, errorText));
    if (model.draw_offer) header.appendChild(drawOfferBanner(model, me));
    else {
      const decliner = drawDeclinedBy(model);
      if (decliner !== null && decliner !== me) {
        const ai = model.seats[decliner]?.kind === 'ai';
        header.appendChild(h('div.banner', { 'data-testid': 'draw-declined' },
          ai ? 'The AI declined your draw offer — play on.' : `${seatName(decliner)} declined the draw offer — play on.`));
      }
    }
    const tb = takebackBanner(model, me);
    if (tb) header.appendChild(tb);
    drawClocks();
  }

  /** Whether every seat but `me` is played by the AI (a takeback is then immediate). */
  function againstAi(m: Snapshot, me: number): boolean {
    return m.seats.every((s) => s.seat === me || s.kind === 'ai');
  }

  /** A pending takeback request (with Accept / Decline for the seats of this device that answer it), or
   * the answer to the last one. */
  function takebackBanner(m: Snapshot, me: number | null): HTMLElement | null {
    const offer = m.takeback_offer;
    if (offer) {
      const answering = (hotseat ? local : me !== null ? [me] : []).filter((s) => !offer.accepted.includes(s));
      const as = (s: number) => (hotseat ? ` as ${seatName(s)}` : '');
      const asker = offer.by === me && !hotseat ? 'You ask' : me !== null && !hotseat ? 'Your opponent asks' : `${seatName(offer.by)} asks`;
      const whose = offer.by === me && !hotseat ? 'your' : 'their';
      return h('div.banner', { 'data-testid': 'takeback-offer' }, `${asker} to take back ${whose} last move. `,
        answering.length
          ? answering.map((s) => [
              h('button', { 'data-testid': 'takeback-accept', onclick: () => send({ type: 'takeback', op: 'accept' }, s) }, `Accept${as(s)}`),
              h('button', { 'data-testid': 'takeback-decline', onclick: () => send({ type: 'takeback', op: 'decline' }, s) }, `Decline${as(s)}`)])
          : h('span.muted', 'Waiting for an answer.'));
    }
    const last = lastTakeback(m);
    if (!last) return null;
    if ('declined' in last) {
      if (last.declined === me && !hotseat) return null;
      return h('div.banner', { 'data-testid': 'takeback-declined' },
        `${me !== null && !hotseat ? 'Your opponent' : seatName(last.declined)} declined the takeback — play on.`);
    }
    const mine = last.done === me && !hotseat;
    return h('div.banner', { 'data-testid': 'takeback-done' },
      mine ? 'Your last move was taken back — play again.' : `${seatName(last.done)}'s last move was taken back.`);
  }

  /** The last action in words (also when it names no cell on the board: a trade, an end of turn). */
  function lastLine(): HTMLElement {
    const moves = model ? moveList(model.events) : [];
    const m = moves[moves.length - 1];
    return h('div.muted', { 'data-testid': 'last-move' }, m && model ? `Last: ${moveText(m, model.seats)}` : 'No move yet');
  }

  function drawOfferBanner(m: Snapshot, me: number | null): HTMLElement {
    const offer = m.draw_offer;
    if (!offer) return h('span');
    // Every seat of this device that has not accepted yet answers for itself (hot-seat: named).
    const answering = (hotseat ? local : me !== null ? [me] : []).filter((s) => !offer.accepted.includes(s));
    const as = (s: number) => (hotseat ? ` as ${seatName(s)}` : '');
    return h('div.banner', `${seatName(offer.by)} offers a draw. `,
      answering.length
        ? answering.map((s) => [
            h('button', { 'data-testid': 'draw-accept', onclick: () => send({ type: 'draw', op: 'accept' }, s) }, `Accept${as(s)}`),
            h('button', { 'data-testid': 'draw-decline', onclick: () => send({ type: 'draw', op: 'decline' }, s) }, `Decline${as(s)}`)])
        : h('span.muted', 'Waiting for an answer.'));
  }

  function drawClocks(): void {
    if (!model?.clock) return;
    const base = model.now ?? Date.now();
    const lag = Date.now() - base;
    model.clock.seats.forEach((c, i) => {
      const el = header.querySelector(`[data-clock="${i}"] .clock-time`);
      if (!el) return;
      const running = c.running && !outcomeOf(model!);
      const ms = running ? c.remaining_ms - Math.max(0, lag) : c.remaining_ms;
      el.textContent = formatClock(ms);
      el.parentElement?.classList.toggle('running', running);
      el.parentElement?.classList.toggle('low', clockIsLow(ms, model!.clock?.kind ?? ''));
    });
  }

  function drawBoard(): void {
    clear(boardHost);
    clear(panelsHost);
    if (!model || !selection) return;
    if (cover !== null) {
      // Hot-seat: the board, panels and actions of this seat stay hidden until its player is at the device.
      const to = cover;
      boardHost.appendChild(h('div.card.pass-cover', { 'data-testid': 'pass-cover', 'data-seat': to },
        h('h2', `Pass the device to ${seatName(to)}`),
        h('p', `${seatName(to)} decides now. The board shows what ${seatName(to)} may see (hidden cards, a hidden setup), so the other player looks away.`),
        h('button.primary', { 'data-testid': 'pass-show', onclick: () => { cover = null; draw(); } }, `I am ${seatName(to)} — show`)));
      return;
    }
    const moves = moveList(model.events);
    if (reviewing()) {
      // Replay mode: an earlier position from the server, drawn read-only with its last move.
      const ctx = { game: model.game, options: model.options, seats: model.seats, seat: mySeat(model), bottomSeat: bottomSeat(), moves };
      boardHost.appendChild(h('div.banner', { 'data-testid': 'review' },
        h('div.row', positionLabel(ctx, nav.n, moves.length)),
        h('div.row', replayButtons(nav, (k) => void reviewAt(k)),
          h('button.primary', { 'data-testid': 'replay-leave', onclick: () => leaveReview() }, 'Back to the live game'))));
      if (reviewError) boardHost.appendChild(h('div.banner.warn', reviewError));
      if (review) {
        const { board, panels } = positionBoard(ctx, review);
        if (board) boardHost.appendChild(zoomableBoard(board, zoom, () => drawBoard()));
        else boardHost.appendChild(h('p.muted.no-board', 'No board to draw at this position.'));
        for (const p of panels) panelsHost.appendChild(p);
      }
      return;
    }
    const renderer = rendererFor(model.game);
    const view = model.view;
    const { board, panels } = renderer.render({
      gameId: model.game,
      view,
      options: model.options,
      seat: mySeat(model),
      bottomSeat: bottomSeat(),
      seatNames: model.seats.map((s) => s.name),
      selection,
      lastMove: lastMoveCells(moves, moves.length),
      onCell,
      sendNotation: reviewing() || mySeat(model) === null ? undefined : (notation: string) => sendAction({ action: undefined, notation }),
      draft,
      extraTargets: codec && draft ? new Set(codec.home) : undefined,
      extraSelected: draftSel,
    });
    if (board) {
      boardHost.appendChild(zoomableBoard(board, zoom, () => drawBoard()));
      if (explained) boardHost.appendChild(h(explainBelow ? 'div.explain-toast.below' : 'div.explain-toast', { 'data-testid': 'explain', role: 'status' }, explained));
      if (hint && hint.cells.length) drawMovesOnBoard(boardHost, [{ cells: hint.cells, kind: 'hint' }]);
    } else boardHost.appendChild(h('p.muted.no-board', 'No board to draw now: the panels and buttons show the game.'));
    for (const p of panels) panelsHost.appendChild(p);
  }

  /** The seat drawn at the bottom: the player's own (a spectator's: the first), or the other when flipped. */
  function bottomSeat(): number {
    const own = (model && mySeat(model)) ?? 0;
    return flipped ? 1 - own : own;
  }

  function drawSide(): void {
    clear(side);
    if (!model || !selection || cover !== null) return;
    const me = mySeat(model);
    const over = outcomeOf(model);
    // Dice and other chance results since the last move.
    const chance = recentChance(model.events);
    if (chance.length && !reviewing()) side.appendChild(h('div.card', h('b', 'Chance: '), h('span', { 'data-testid': 'chance' }, chance.join(', '))));

    if (me !== null && !over && !reviewing()) {
      const box = h('div.card', { 'data-testid': 'actions', 'data-pending': sent.pending ? '1' : '0' });
      const buttons = selection.cellless();
      const targets = selection.targets();
      if (selection.prefix.length) {
        box.appendChild(h('p', `Selected: ${selection.prefix.join(' → ')} `,
          h('button', { onclick: () => { selection?.reset(); chooser = null; draw(); } }, 'Cancel')));
      }
      if (codec && draft) {
        const c = codec;
        const d = draft;
        box.appendChild(h('div', { 'data-testid': 'setup-editor' },
          h('p', h('b', 'Your hidden setup. '), 'Click a cell of your half, then another, to swap what they hold. Your opponent cannot see it; theirs stays covered until both are ready.'),
          c.terrain ? h('div.row', 'Swap: ',
            h(swapMode === 'pieces' ? 'button.primary' : 'button', { onclick: () => { swapMode = 'pieces'; draw(); } }, 'pieces'),
            h(swapMode === 'terrain' ? 'button.primary' : 'button', { onclick: () => { swapMode = 'terrain'; draftSel = null; draw(); } }, 'terrain')) : null,
          h('p.muted', `Starting point: ${draftSource}`),
          h('div.row', h('button.primary', {
            'data-notation': 'ready', 'data-testid': 'setup-ready',
            onclick: () => sendAction({ action: c.toAction(d), notation: 'ready' }, true),
            disabled: sent.pending,
          }, 'Ready — commit this setup')),
          setupError ? h('div.banner.warn', { 'data-testid': 'setup-error', 'data-stale': setupErrorStale ? '1' : '0', role: 'alert' },
            h('b', setupErrorStale ? 'The server refused the setup you sent before these changes:' : 'The server refused this setup:'),
            h('ul', setupError.map((r) => h('li', r))),
            h('div', setupErrorStale ? 'Press Ready to send the changed setup.' : 'Swap pieces or terrain to fix it, then press Ready again.')) : null,
          h('p', h('b', 'Start from a listed setup (presets, random):'))));
        // Each listed setup's notation names where it comes from (a preset, a random setup): the
        // buttons say so (the full notation is the tooltip).
        box.appendChild(h('div.actions', model.legal.map((a, i) =>
          h('button', { title: a.notation, 'data-testid': 'setup-listed', onclick: () => {
            const nd = c.fromAction(a.action);
            if (nd) { draft = nd; draftSel = null; setupError = null; draftSource = setupLabel(a.notation, i); draw(); } else sendAction(a);
          } }, setupLabel(a.notation, i)))));
        side.appendChild(box);
        drawMovesAndControls(me, over);
        return;
      }
      if (chooser && chooser.length) {
        box.appendChild(h('p', h('b', 'Choose:')));
        const mine = seatName(me);
        box.appendChild(h('div.actions', chooser.map((a) =>
          h('button.primary', { 'data-notation': a.notation, title: a.notation, onclick: () => sendAction(a) },
            ownWords(a, mine), ' ', h('small.muted', a.notation)))));
      }
      if (model.legal.length === 0) {
        box.appendChild(h('p.muted', sent.pending ? 'Sending…' : 'Nothing to do now.'));
      } else {
        if (targets.size && !chooser) box.appendChild(h('p.muted', selection.prefix.length ? 'Click a highlighted cell to continue.' : 'Click a highlighted piece or cell to move.'));
        if (buttons.length) {
          // Many buttons (trades, purchases, abilities) are grouped by their first word.
          const groups = buttons.length > 12 ? groupByVerb(buttons.slice(0, 400)) : [['', buttons]] as [string, LegalAction[]][];
          for (const [verb, list] of groups) {
            if (verb) box.appendChild(h('div.muted', { style: 'margin-top:.3rem' }, verb));
            box.appendChild(h('div.actions', list.map((a) =>
              h('button', { 'data-notation': a.notation, title: a.notation, onclick: () => sendAction(a), disabled: sent.pending }, short(ownWords(a, seatName(me)))))));
          }
        }
        box.appendChild(allMoves(model.legal, seatName(me)));
      }
      if (canAskHint(model)) box.appendChild(hintBox());
      side.appendChild(box);
    }
    drawMovesAndControls(me, over);
  }

  function drawMovesAndControls(me: number | null, over: ReturnType<typeof outcomeOf>): void {
    if (!model) return;
    // Move list: one numbered line per turn, its steps in words (or notation, by the switch); a click
    // on a step shows the position after it (replay); the last one is the live game.
    const moves = moveList(model.events);
    const inReview = reviewing();
    const notation = prefersNotation();
    const list = h('ol', { 'data-testid': 'move-lines' }, groupByTurn(moves).map((line) => h('li', { 'data-testid': 'move-line' },
      line.steps.map(({ index: i, move: m }, k) => {
        const n = positionOfMove(i);
        const current = inReview ? nav.n === n : i === moves.length - 1;
        return [k > 0 ? '; ' : '', h('span', {
          class: ['step', current ? 'current' : ''],
          'data-testid': 'move-step',
          title: notation ? (m.words ?? '') : (m.notation ?? 'hidden'),
          tabindex: 0,
          onclick: () => void reviewAt(n),
          onkeydown: (e: KeyboardEvent) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); void reviewAt(n); } },
        }, stepText(m, k, model!.seats, notation), i === moves.length - 1 ? ' ◀' : '')];
      }).flat())));
    const notationSwitch = h('label.small', { title: 'Show the engine notation instead of words' },
      h('input', { type: 'checkbox', 'data-testid': 'move-notation', checked: notation, onchange: (e: Event) => {
        setPrefersNotation((e.target as HTMLInputElement).checked);
        draw();
      } }), ' Notation');
    const box = h('div.moves', { 'data-testid': 'moves' }, list);
    const movesBox = h('div.card', h('div.row', h('h3', `Moves (${moves.length})`), notationSwitch), box,
      h('div.row',
        h('button', { 'data-testid': 'review-first', title: 'The start', 'aria-label': 'The start', disabled: moves.length === 0 || (inReview && nav.n === 0), onclick: () => void reviewAt(0) }, '|◀'),
        h('button', { 'data-testid': 'review-prev', title: 'Back one action', 'aria-label': 'Back one action', disabled: moves.length === 0 || (inReview && nav.n === 0), onclick: () => void reviewAt((inReview ? nav.n : moves.length) - 1) }, '◀'),
        h('button', { 'data-testid': 'review-next', title: 'Forward one action', 'aria-label': 'Forward one action', disabled: !inReview, onclick: () => void reviewAt(nav.n + 1) }, '▶'),
        h('button', { 'data-testid': 'review-live', title: 'The live position', 'aria-label': 'The live position', disabled: !inReview, onclick: () => leaveReview() }, '▶|'),
      ));
    side.appendChild(movesBox);
    requestAnimationFrame(() => {
      if (inReview) scrollToCurrent(box);
      else box.scrollTop = box.scrollHeight;
    });

    // Game controls.
    const controls = h('div.card.row');
    if (me !== null && !over && model.status === 'running') {
      controls.append(
        h('button', { onclick: async () => {
          // Hot-seat: the shown seat (the one owing the decision) resigns, and the dialog names it.
          const who = me;
          const title = hotseat ? `Resign as ${seatName(who)}?` : 'Resign?';
          const text = hotseat ? `${seatName(who)} loses this game.` : 'You lose this game.';
          if ((await showDialog(title, text, [{ label: 'Resign', value: 'yes', primary: true }, { label: 'Cancel', value: 'no' }])) === 'yes') send({ type: 'resign' }, who);
        } }, 'Resign'),
      );
      if (!model.draw_offer) controls.append(h('button', { onclick: () => send({ type: 'draw', op: 'offer' }, me) }, hotseat ? `Offer draw as ${seatName(me)}` : 'Offer draw'));
      // Takeback: against the AI at once; between people a request the opponent answers. Greyed out
      // with the reason when the server would refuse it.
      const why = takebackBlocked(model, me);
      const label = againstAi(model, me) ? 'Take back' : hotseat ? `Ask to take back as ${seatName(me)}` : 'Ask to take back';
      controls.append(h('button', {
        'data-testid': 'takeback',
        disabled: why !== null,
        title: why ?? (againstAi(model, me) ? 'Undo your last move (and the AI\'s reply)' : 'Ask your opponent to let you take back your last move'),
        onclick: () => { errorText = ''; send({ type: 'takeback', op: 'offer' }, me); },
      }, label));
    }
    if (over) {
      controls.append(
        h('button', { 'data-testid': 'export', onclick: () => exportRecord() }, 'Download record'),
        h('a.btn', { href: `/replay/${id}`, 'data-link': '' }, 'Replay'),
      );
      if (me !== null) controls.append(h('button', { onclick: () => rematch() }, 'Rematch'));
    }
    controls.append(
      model && rendererFor(model.game).flippable && model.seats.length === 2
        ? h('button', { 'data-testid': 'flip', 'aria-pressed': String(flipped), onclick: () => { flipped = !flipped; drawBoard(); drawSide(); } }, 'Flip board')
        : '',
      h('button', {
        'data-testid': 'mute',
        'aria-pressed': String(isMuted()),
        title: 'Sounds on moves and when it is your turn',
        onclick: () => { setMuted(!isMuted()); drawSide(); },
      }, isMuted() ? 'Sound: off' : 'Sound: on'),
      h('button', { onclick: () => copy(`${location.origin}/watch/${id}`) }, 'Copy watch link'),
      h('a', { href: '/', 'data-link': '' }, 'Lobby'),
    );
    side.appendChild(controls);

    // Provably fair chance: the seed's commitment from the start, the seed once the game is over.
    const fair = fairnessText(model);
    if (fair.commitment) {
      side.appendChild(h('details.card.fairness', {
        'data-testid': 'fairness', open: fairnessOpen,
        ontoggle: (e: Event) => { fairnessOpen = (e.currentTarget as HTMLDetailsElement).open; },
      },
        h('summary', 'Game details: fair chance'),
        h('p', 'Seed commitment (SHA-256): ', h('code.hash', { 'data-testid': 'seed-commitment' }, fair.commitment)),
        fair.seed !== null ? h('p', 'Seed: ', h('code', { 'data-testid': 'seed' }, fair.seed)) : null,
        h('p.muted', fair.note),
      ));
    }
  }

  /** The Hint button (games against the AI, casual, the seat's own decision) and the hint once given. */
  function hintBox(): HTMLElement {
    const box = h('div.hint-box', { 'data-testid': 'hint-box' });
    if (hint) {
      box.appendChild(h('div.banner.turn', { 'data-testid': 'hint-text', role: 'status' },
        'The engine suggests ', h('b', { 'data-testid': 'hint-move', title: hint.notation }, playerWords(hint.words, seatName(hint.seat))),
        ' ', h('small.muted', short(hint.notation)),
        hint.estimate !== undefined ? ` (your winning chance with it: ${percent(hint.estimate)})` : '',
        hint.cells.length ? ' — the green arrow on the board.' : '.'));
    } else {
      box.appendChild(h('button', {
        'data-testid': 'hint', disabled: hintBusy || sent.pending, title: 'The engine\'s move for this decision, from what you can see',
        onclick: () => void askHint(),
      }, hintBusy ? 'Thinking…' : 'Hint'));
    }
    return box;
  }

  async function askHint(): Promise<void> {
    if (!model || !cred || hintBusy) return;
    const asked = { seq: model.seq, seat: cred.seat };
    hintBusy = true;
    errorText = '';
    drawSide();
    try {
      const got = await api.post<Hint>(`/api/games/${encodeURIComponent(id)}/hint`, { seat: cred.seat, token: cred.token });
      // Kept only if the game is still where it was asked (no move came meanwhile).
      if (model && model.seq === asked.seq && mySeat(model) === asked.seat) hint = { ...got, seq: asked.seq };
    } catch (e) {
      errorText = e instanceof Error ? e.message : String(e);
    } finally {
      hintBusy = false;
      draw();
    }
  }

  function allMoves(legal: LegalAction[], mine: string): HTMLElement {
    // Every legal action in words and notation, for players who prefer a list (and for accessibility).
    const sel = h('select', { 'data-testid': 'legal-select', 'aria-label': 'Every legal move' },
      h('option', { value: '' }, `All ${legal.length} legal moves…`),
      legal.slice(0, 2000).map((a, i) => h('option', { value: String(i) }, `${ownWords(a, mine)} (${a.notation})`))) as HTMLSelectElement;
    sel.addEventListener('change', () => {
      const a = legal[Number(sel.value)];
      if (sel.value !== '' && a) sendAction(a);
    });
    return h('div', { style: 'margin-top:.5rem' }, sel);
  }

  async function exportRecord(): Promise<void> {
    try {
      const rec = await api.get<JsonRecord>(`/api/games/${encodeURIComponent(id)}/record`);
      const blob = new Blob([JSON.stringify(rec, null, 2)], { type: 'application/json' });
      const a = h('a', { href: URL.createObjectURL(blob), download: fileName(rec, id) }) as HTMLAnchorElement;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (e) {
      errorText = e instanceof Error ? e.message : String(e);
      draw();
    }
  }

  async function rematch(): Promise<void> {
    if (!creds.length) return;
    try {
      // Every seat of this device asks (the first creates the rematch, the others join it), so a hot-seat
      // rematch starts at once, again on this device, the sides swapped.
      let next = '';
      for (const c of creds) {
        const r = await api.post<{ id: string; seat: number; token: string }>(`/api/games/${id}/rematch`, { seat: c.seat, token: c.token });
        saveSeat(r.id, { seat: r.seat, token: r.token });
        next = r.id;
      }
      navigate(`/game/${next}`);
    } catch (e) {
      errorText = e instanceof Error ? e.message : String(e);
      draw();
    }
  }

  async function maybeGameOver(): Promise<void> {
    if (!model || shownOver) return;
    const over = outcomeOf(model);
    if (!over) return;
    shownOver = true;
    const me = mySeat(model);
    // After this device's first finished game of a kind: the next lesson it has not solved.
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
      lesson !== null ? h('p', { 'data-testid': 'suggest-lesson' }, `Your first game of ${model.name ?? game} is over. Learn more with lesson ${lesson}.`) : null);
    const choice = await showDialog(hotseat ? 'Game over' : myResult(over, me), body, buttons);
    if (choice === 'rematch') await rematch();
    else if (choice === 'replay') navigate(`/replay/${id}`);
    else if (choice === 'learn' && lesson !== null) navigate(`/learn/${game}/${lesson}`);
  }

  function draw(): void {
    drawHeader();
    drawBoard();
    drawSide();
  }

  /** The links to send to friends, each with a Copy button, while their seats are not joined. */
  function inviteCard(invites: { seat: number; name: string; url: string }[]): HTMLElement {
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

  function copy(text: string): void {
    navigator.clipboard?.writeText(text).catch(() => undefined);
    errorText = '';
    showDialog('Link', h('input', { value: text, readonly: true, size: 50 }), [{ label: 'OK', value: 'ok' }]);
  }

  drawHeader();
}

function short(notation: string): string {
  return notation.length > 48 ? `${notation.slice(0, 45)}…` : notation;
}

/** Joins a seat from a join link, stores the token, then opens the game. */
export async function joinPage(root: HTMLElement, id: string, seat: number, token: string): Promise<void> {
  clear(root);
  root.appendChild(h('p', 'Joining…'));
  try {
    const r = await api.post<{ seat: number; token: string }>(`/api/games/${id}/join`, { seat, token });
    saveSeat(id, { seat: r.seat, token: r.token });
    history.replaceState(null, '', `/game/${id}`);
    gamePage(root, id, false);
  } catch (e) {
    clear(root);
    root.appendChild(h('p.error', `Could not join: ${e instanceof Error ? e.message : String(e)}`));
  }
}
