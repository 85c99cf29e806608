// The game page's controller: the page's state (one model per local seat, the shown seat's selection,
// the action on its way), the socket handlers, the player's actions and the timers. No DOM: the views
// (views/*.ts) draw from it and call its actions; every change ends in `redraw` (tests/game-ctrl.test.ts).
import type { ClientOp, ServerMsg } from '../../conn';
import type { Conn, GameEnv, GameUi, Region } from './env';
import type { Renderer } from '../../games/types';
import { PendingAction } from '../../logic/pending';
import { Selection, type LegalAction } from '../../logic/select';
import { merge, moveList, mySeat, outcomeOf, type Snapshot } from '../../logic/snapshot';
import type { JsonValue } from '../../wire/serde_json/JsonValue';
import type { ZoomState } from '../position';
import type { SeatCredential } from '../../store';
import { Assist } from './assist';
import { ClockTicker } from './clocks';
import { Review } from './review';
import { FollowUp, offersOtherWays } from './followup';
import { HeldMove, OFFLINE_MOVE, postAction } from './offline';
import { Restacker } from './restack';
import { LocalSeats } from './seats';
import { TurnSounds } from './sounds';
import { SeatOps } from './ops';
import { SetupEditor } from './setup';

export type { Conn, GameEnv, GameUi, Region } from './env';

export { OFFLINE_MOVE } from './offline';

export class GameCtrl {
  readonly seats: LocalSeats;
  /** Each connection's state, by seat (the spectator's: SPECTATOR). */
  readonly models = new Map<number, Snapshot>();
  private readonly conns = new Map<number, Conn>();
  private readonly up = new Map<number, boolean>();
  /** The shown seat's state. */
  model: Snapshot | null = null;
  selection: Selection | null = null;
  /** The actions the last click could mean (a chooser, shown at `chooserAt`: the cell clicked), or null. */
  chooser: LegalAction[] | null = null;
  chooserAt: string | null = null;
  /** "Other ways…": the next click on a target shows every way to move there, not the common one. */
  variantMode = false;
  /** The action on its way (the board offers nothing meanwhile), and the connection that carries it. */
  readonly sent = new PendingAction();
  private sentBy = -2;
  readonly held = new HeldMove(); // a move tried while the connection was down (offline.ts)
  errorText = '';
  connText = 'connecting…';
  connected = false;
  flipped = false;
  fairnessOpen = false;
  /** The move list's long turns the player unfolded (by the index of their first step). */
  readonly openLines = new Set<number>();
  readonly zoom: ZoomState = { on: false, left: 0, top: 0 };
  readonly setup = new SetupEditor();
  readonly review: Review;
  readonly assist: Assist;
  readonly clocks = new ClockTicker();
  /** The stack editor (reordering a stack's chips), at the stack. */
  readonly restack = new Restacker({ send: (a) => this.sendAction(a), redraw: () => this.redraw(['board']) });
  readonly followUp = new FollowUp(); // a split move's second half, a payment's rest (followup.ts)
  /** Resign, draw, takeback, the record and the rematch. */
  readonly ops: SeatOps;
  private overShown = false;
  private readonly sounds: TurnSounds;

  constructor(readonly id: string, creds: SeatCredential[], private readonly env: GameEnv, private readonly ui: GameUi) {
    this.seats = new LocalSeats(creds);
    this.sounds = new TurnSounds((k) => env.sound(k));
    this.review = new Review(env.fetcher(this.seats.cred), () => this.redraw());
    this.assist = new Assist(id, {
      at: () => (this.model ? { seq: this.model.seq, seat: mySeat(this.model) } : null),
      cred: () => this.seats.cred,
      call: env.call,
      redraw: (regions) => this.redraw(regions),
      error: (text) => { this.errorText = text; },
    });
    this.ops = new SeatOps(id, {
      model: () => this.model,
      creds: () => this.seats.creds,
      send: (msg, seat) => this.send(msg, seat),
      call: env.call,
      saveSeat: env.saveSeat,
      download: ui.download,
      navigate: ui.navigate,
      error: (text) => { this.errorText = text; this.redraw(); },
      clearError: () => { this.errorText = ''; },
    });
  }

  /** Connects every local seat (a spectator: one connection) and starts the clocks. */
  start(): void {
    const creds: (SeatCredential | null)[] = this.seats.creds.length ? this.seats.creds : [null];
    for (const c of creds) {
      const k = LocalSeats.key(c?.seat ?? null);
      this.conns.set(k, this.env.connect(c, {
        onStatus: (isUp, detail) => this.onStatus(k, isUp, detail),
        onMessage: (msg) => this.onMessage(k, msg),
        // Forget the seat, so a reload opens the game as a spectator instead of redialling a dead token.
        onRevoked: () => { if (c) this.env.forgetSeat(c.seat, c.token); },
        onGone: () => this.ui.gone(),
      }));
    }
    this.conns.forEach((c) => c.connect());
    this.clocks.start(() => this.ui.redraw(['clocks']));
  }

  stop(): void {
    this.conns.forEach((c) => c.close());
    this.clocks.stop();
  }

  /** The browser is back online: redial at once. */
  online(): void {
    this.conns.forEach((c) => c.kick());
  }

  offline(): void {
    this.conns.forEach((c) => c.drop('offline — reconnecting when the network is back…'));
  }

  redraw(regions?: Region[]): void {
    this.ui.redraw(regions);
  }

  /** The game's renderer (once a state came). */
  renderer(): Renderer {
    return this.env.renderer(this.model?.game ?? '');
  }

  get me(): number | null {
    return this.model ? mySeat(this.model) : null;
  }

  seatName(i: number): string {
    return this.model?.seats[i]?.name ?? `Seat ${i + 1}`;
  }

  /** The number of moves in the live game. */
  get moveCount(): number {
    return this.model ? moveList(this.model.events).length : 0;
  }

  private send(msg: ClientOp, seat: number | null = this.seats.shown): number | null {
    return this.conns.get(LocalSeats.key(seat))?.send(msg) ?? null;
  }

  onStatus(k: number, isUp: boolean, detail: string): void {
    this.up.set(k, isUp);
    this.connected = [...this.conns.keys()].every((c) => this.up.get(c) === true);
    // A dropped connection may have lost the answer: the reconnect's snapshot tells; meanwhile the
    // player may act again (over HTTP), and a repeated action is refused with a clear error.
    const cleared = !isUp && this.sent.pending && k === this.sentBy;
    if (cleared) this.sent.clear();
    if (isUp && this.errorText === OFFLINE_MOVE) this.errorText = '';
    const back = isUp ? this.held.release(k) : null; // the move tried meanwhile goes out now
    const id = back ? this.conns.get(k)?.send({ type: 'action', ...back }) ?? null : null;
    if (id !== null) {
      this.sentBy = k;
      this.sent.sent(id);
    }
    this.connText = detail;
    this.redraw(cleared ? ['header', 'side'] : ['header']);
  }

  onMessage(k: number, msg: ServerMsg): void {
    if (msg.type === 'chat' || msg.type === 'chat_history') {
      this.ui.chat(msg);
    } else if (msg.type === 'snapshot' || msg.type === 'update') {
      const { model: next, gap } = merge(this.models.get(k) ?? null, msg);
      this.models.set(k, next);
      this.ui.chatOver(outcomeOf(next) !== null);
      if (gap) this.conns.get(k)?.send({ type: 'sync' });
      if (k === this.sentBy) this.sent.onState(msg.type, next.seq, msg.events, mySeat(next));
      const switched = this.seats.choose(this.models);
      if (switched) this.onSwitch();
      if (!switched && k !== this.seats.shownKey) return; // another local seat's state: kept for its turn
      const m = this.models.get(this.seats.shownKey);
      if (m) this.adopt(m, switched);
    } else if (msg.type === 'error') {
      if (k === this.sentBy) this.sent.onError(msg.id);
      if (k !== this.seats.shownKey && k !== this.sentBy) return;
      this.refused(msg.message);
      this.redraw();
    } else if (msg.type === 'ack') {
      if (k !== this.sentBy) return;
      this.errorText = '';
      this.setup.error = null;
      const was = this.sent.pending;
      if (typeof msg.seq === 'number' && msg.id !== null) this.sent.onAck(msg.id, msg.seq, this.models.get(k)?.seq ?? 0);
      if (was && !this.sent.pending) {
        this.redraw();
        this.sendFollowUp();
      }
    }
  }

  /** Hot-seat: another seat is shown; everything of the previous one's decision goes. */
  private onSwitch(): void {
    this.review.reset(this.env.fetcher(this.seats.cred));
    this.sent.clear();
    this.sentBy = -2;
    this.errorText = '';
    this.setup.reset();
    this.selection = null;
    this.closeChooser();
    this.followUp.disarm();
  }

  closeChooser(): void {
    this.chooser = null;
    this.chooserAt = null;
    this.variantMode = false;
    this.restack.close();
  }

  /** Makes `next` (the shown seat's state) the page's model and redraws. */
  private adopt(next: Snapshot, fresh: boolean): void {
    this.assist.onState(next.seq, mySeat(next), this.model?.seq ?? null);
    this.model = next;
    const halfMade = this.selection && !fresh ? [...this.selection.prefix] : [];
    const choosing = this.chooser !== null && !fresh;
    const at = this.chooserAt;
    const variantMode = this.variantMode && !fresh;
    const editor = fresh ? null : this.restack.editor;
    this.closeChooser();
    const moves = moveList(next.events).length;
    this.review.nav.setTotal(moves);
    this.sounds.hear(next, moves, this.seats.hotseat);
    const me = mySeat(next);
    const renderer = this.env.renderer(next.game);
    this.selection = this.env.selection(next.game, me === null ? [] : next.legal);
    this.restack.editor = editor;
    this.restack.keep(renderer.restack, me === null ? [] : next.legal);
    // A half-made choice survives an update that still allows it (a join, a draw offer, the other
    // seat's hidden setup); otherwise the one piece that can act is selected already.
    if (this.selection.keep(halfMade)) {
      const variants = this.selection.complete();
      this.variantMode = variantMode;
      if (choosing && variants.length > 1) {
        this.chooser = variants;
        this.chooserAt = at;
      }
    } else {
      this.selection.autoSelect();
    }
    this.setup.adopt(me !== null && next.legal.length ? renderer.setup?.(next.view, next.options, me) ?? null : null, next.legal);
    this.redraw();
    this.sendFollowUp();
    if (!this.overShown && outcomeOf(next)) {
      this.overShown = true;
      this.ui.gameOver();
    }
  }

  /** Shows the server's refusal: in the setup editor when it refused the setup sent from there. */
  private refused(message: string): void {
    if (!this.setup.refused(message)) this.errorText = message;
  }

  /** Sends a listed action, or (`action` undefined) an action written in notation only. */
  sendAction(a: Pick<LegalAction, 'action' | 'notation'>, fromSetupEditor = false): void {
    if (!this.model || this.sent.pending || this.held.waiting) return;
    this.followUp.sending(a);
    this.errorText = '';
    this.setup.error = null;
    this.setup.sent = fromSetupEditor;
    // A listed action is the JSON the server listed it as.
    const body = a.action === undefined ? { notation: a.notation } : { action: a.action as JsonValue };
    const sentId = this.send({ type: 'action', ...body });
    this.sentBy = this.seats.shownKey;
    const cred = this.seats.cred;
    if (sentId !== null) this.sent.sent(sentId);
    else if (cred) {
      // Not connected: fall back to HTTP so the move is not lost.
      this.sent.sent(null);
      void postAction(this.env.call, this.id, cred, body, this.sentBy, this.held).then((error) => {
        if (error === null) this.send({ type: 'sync' });
        else if (error === OFFLINE_MOVE) this.errorText = error;
        else this.refused(error);
        this.sent.clear();
        this.redraw();
      });
    } else return;
    this.selection?.reset();
    this.closeChooser();
    this.redraw();
  }

  /** A click on a board cell. */
  onCell(cell: string): void {
    if (!this.selection || this.review.active || this.sent.pending || this.held.waiting) return;
    if (this.setup.open) {
      this.setup.click(cell);
      this.redraw();
      return;
    }
    const variantMode = this.variantMode;
    this.closeChooser();
    this.assist.clearExplanation();
    this.followUp.disarm();
    if (variantMode && this.selection.prefix.length && this.selection.targets().has(cell)) {
      // "Other ways…": every action this target completes, at the target.
      this.showVariants(cell);
      return;
    }
    const r = this.selection.click(cell);
    if (!variantMode && (r.kind === 'submit' || r.kind === 'choose')) this.followUp.arm(this.renderer(), r.kind === 'submit' ? [r.action] : r.options);
    if (r.kind === 'submit') this.sendAction(r.action);
    else if (r.kind === 'choose') {
      this.chooser = r.options;
      this.chooserAt = cell;
    } else if (r.kind === 'clear') void this.assist.explain(r.cells);
    this.redraw();
  }

  /** A long press or right click on a cell: every action it completes (the variants of a move to it,
   * the reorders of a stack), offered at the cell; one alone is made at once. */
  onCellMenu(cell: string): void {
    if (!this.selection || this.review.active || this.sent.pending || this.setup.open) return;
    this.closeChooser();
    this.assist.clearExplanation();
    this.showVariants(cell);
  }

  private showVariants(cell: string): void {
    const options = this.selection?.variants(cell) ?? [];
    // A stack's reorders: the stack editor at the stack, not a list of orders.
    if (this.restack.open(this.renderer().restack, this.model?.view, cell, options)) {
      this.redraw(['board']);
      return;
    }
    if (options.length === 1) {
      this.sendAction(options[0]);
      return;
    }
    if (options.length > 1) {
      this.chooser = options;
      this.chooserAt = cell;
    }
    this.redraw();
  }

  /** "Other ways…": the next target clicked shows its variants (clicked again: back to the common move). */
  toggleVariants(): void {
    const on = !this.variantMode;
    this.closeChooser();
    this.variantMode = on;
    this.redraw();
  }

  /** The second half of the move just sent, once the seat's next decision is in. */
  private sendFollowUp(): void {
    const next = this.model ? this.followUp.take(this.renderer(), this.model, this.sent.pending) : null;
    if (next) this.sendAction(next);
  }

  /** Whether "Other ways…" offers something (followup.ts). */
  hasVariants(): boolean {
    return this.selection !== null && offersOtherWays(this.renderer(), this.selection);
  }

  cancelSelection(): void {
    this.selection?.reset();
    this.closeChooser();
    this.redraw();
  }

  /** Sends the setup editor's draft (Ready). */
  sendSetup(): void {
    this.sendAction({ action: this.setup.action(), notation: 'ready' }, true);
  }

  /** Starts the draft from listed setup `i` (or sends it when the editor cannot read it). */
  pickSetup(a: LegalAction, i: number): void {
    if (this.setup.pickListed(a, i)) this.redraw();
    else this.sendAction(a);
  }

  flip(): void {
    this.flipped = !this.flipped;
    this.redraw(['board', 'side']);
  }

  /** The seat drawn at the bottom: the player's own (a spectator's: the first), or the other when flipped. */
  bottomSeat(): number {
    return this.flipped ? 1 - (this.me ?? 0) : this.me ?? 0;
  }

  /** Hot-seat: the player the device was passed to is there. */
  uncover(): void {
    this.seats.cover = null;
    this.redraw();
  }

  /** Steps to the position after k actions (k ≥ the number of moves: back to the live game). */
  reviewAt(k: number): void {
    if (this.model) void this.review.goto(k, this.moveCount);
  }
}
