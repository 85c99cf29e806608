// The game page's controller (src/pages/game/ctrl.ts) without a DOM: fake connections, a fake HTTP
// side, fake timers. What it does with the server's messages, the player's actions and its timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnHandlers } from '../src/conn';
import { GameCtrl, type GameEnv, type GameUi, type Region } from '../src/pages/game/ctrl';
import { Selection, type LegalAction } from '../src/logic/select';
import type { Renderer } from '../src/games/types';
import { kyoRestack } from '../src/games/kyo';
import type { Snapshot } from '../src/logic/snapshot';
import type { SeatCredential } from '../src/store';
import { fakeApi } from './fake-api';

class FakeConn {
  sent: Record<string, unknown>[] = [];
  up = true;
  closed = false;
  private next = 1;
  constructor(readonly cred: SeatCredential | null, readonly handlers: ConnHandlers) {}
  connect() { this.handlers.onStatus(true, 'connected'); }
  send(msg: Record<string, unknown>) {
    if (!this.up) return null;
    this.sent.push(msg);
    return this.next++;
  }
  kick() {}
  drop() {}
  close() { this.closed = true; }
}

const renderer: Renderer = { render: () => ({ board: null, panels: [] }) };
const move = (from: string, to: string): LegalAction => ({ action: { from, to }, notation: `${from}-${to}`, words: `${from} → ${to}`, cells: [from, to] });

function snap(over: Partial<Snapshot> & { seat?: number | null }): Snapshot {
  const { seat = 0, ...rest } = over;
  return {
    type: 'snapshot', id: 'g1', game: 'kyo', name: 'Kyo', status: 'running', seq: 3, now: 0,
    you: seat === null ? 'spectator' : { seat },
    seats: [{ seat: 0, name: 'Red', kind: 'human', joined: true }, { seat: 1, name: 'Gold', kind: 'ai', level: 1, joined: true }],
    options: {}, rated: false, to_act: { seat: 0 }, view: { turn: 0 }, legal: [move('a1', 'a2'), move('b1', 'b2')], legal_sampled: false,
    events: [{ seq: 1, at: 0, kind: 'created' }, { seq: 2, at: 0, kind: 'start' }, { seq: 3, at: 0, kind: 'join', seat: 0 }],
    draw_offer: null, takeback_offer: null, clock: null, result: null, seed_commitment: 'ab', seed: null, rematch: null,
    may: seat === null ? null : { takeback: false, takeback_refusal: 'Red has not moved yet: there is nothing to take back', hint: true, draw_offer: true },
    ...rest,
  } as Snapshot;
}

function setup(creds: SeatCredential[], commonFirst = false, rend: Renderer = renderer) {
  const conns: FakeConn[] = [];
  const redraws: (Region[] | undefined)[] = [];
  const { call, calls: posts } = fakeApi();
  const sounds: string[] = [];
  const env: GameEnv = {
    connect: (cred, handlers) => {
      const c = new FakeConn(cred, handlers);
      conns.push(c);
      return c;
    },
    call,
    fetcher: () => () => Promise.reject(new Error('position 1 is not available')),
    forgetSeat: () => undefined,
    saveSeat: () => undefined,
    sound: (k) => sounds.push(k),
    renderer: () => rend,
    selection: (_g, legal) => new Selection(legal, commonFirst),
  };
  const ui: GameUi & { over: number; gone: () => void } = {
    over: 0,
    redraw: (r) => redraws.push(r),
    gone: vi.fn(),
    gameOver: () => { ui.over++; },
    download: () => undefined,
    navigate: () => undefined,
    chat: () => undefined,
    chatOver: () => undefined,
  };
  const ctrl = new GameCtrl('g1', creds, env, ui);
  ctrl.start();
  return { ctrl, conns, redraws, posts, sounds, ui };
}

const token = 'a'.repeat(64);
/** Lets the pending promises settle (the clock ticker's interval keeps running). */
const flush = () => vi.advanceTimersByTimeAsync(1);

describe('GameCtrl', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('adopts the seat\'s snapshot, then walks a click-click move to the server and waits for its answer', () => {
    const { ctrl, conns } = setup([{ seat: 0, token }]);
    expect(ctrl.connected).toBe(true);
    conns[0].handlers.onMessage(snap({}));
    expect(ctrl.me).toBe(0);
    expect(ctrl.selection?.targets().has('a1')).toBe(true);
    ctrl.onCell('a1');
    expect(ctrl.selection?.prefix).toEqual(['a1']);
    ctrl.onCell('a2');
    expect(conns[0].sent).toEqual([{ type: 'action', action: { from: 'a1', to: 'a2' } }]);
    expect(ctrl.sent.pending).toBe(true);
    // The board offers nothing meanwhile; the ack (with the state caught up) ends the wait.
    ctrl.onCell('b1');
    expect(conns[0].sent).toHaveLength(1);
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 4, events: [{ seq: 4, at: 1, kind: 'action', actor: { seat: 0 }, notation: 'a1-a2', cells: ['a1', 'a2'], words: 'a1 → a2', turn: 0 }], to_act: { seat: 1 }, legal: [] }));
    conns[0].handlers.onMessage({ type: 'ack', id: 1, seq: 4 });
    expect(ctrl.sent.pending).toBe(false);
    expect(ctrl.moveCount).toBe(1);
  });

  it('one gesture per move: the engine\'s first listed variant at once, the others at the target cell', () => {
    const { ctrl, conns } = setup([{ seat: 0, token }], true);
    const slice = (n: string, k: number): LegalAction => ({ action: { n }, notation: n, words: `Heavy B0 → B1, carries ${k} chips`, cells: ['B0', 'B1'] });
    const legal = [slice('B0-B1', 3), slice('B0/1-B1', 2), move('B0', 'C1')];
    conns[0].handlers.onMessage(snap({ legal }));
    ctrl.onCell('B0');
    expect(ctrl.hasVariants()).toBe(true);
    ctrl.onCell('B1');
    expect(ctrl.chooser).toBeNull();
    expect(conns[0].sent).toEqual([{ type: 'action', action: { n: 'B0-B1' } }]);
    // The next decision: "Other ways…", then the target: its variants at the target, nothing sent.
    conns[0].handlers.onMessage({ type: 'ack', id: 1, seq: 3 });
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 4, events: [], legal }));
    ctrl.onCell('B0');
    ctrl.toggleVariants();
    expect(ctrl.variantMode).toBe(true);
    ctrl.onCell('B1');
    expect(ctrl.chooser?.map((a) => a.notation)).toEqual(['B0-B1', 'B0/1-B1']);
    expect(ctrl.chooserAt).toBe('B1');
    expect(conns[0].sent).toHaveLength(1);
    ctrl.sendAction(ctrl.chooser![1]);
    expect(conns[0].sent[1]).toEqual({ type: 'action', action: { n: 'B0/1-B1' } });
    expect(ctrl.chooser).toBeNull();
    expect(ctrl.variantMode).toBe(false);
    // A right click (long press) on a target with one way makes it; with several, shows them.
    conns[0].handlers.onMessage({ type: 'ack', id: 2, seq: 4 });
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 5, events: [], legal }));
    ctrl.onCell('B0');
    ctrl.onCellMenu('B1');
    expect(ctrl.chooser).toHaveLength(2);
    ctrl.onCellMenu('C1');
    expect(conns[0].sent[2]).toEqual({ type: 'action', action: { from: 'B0', to: 'C1' } });
  });

  it('a stack\'s reorders open the stack editor at the stack; Done sends the order arranged', () => {
    const { ctrl, conns } = setup([{ seat: 0, token }], true, { ...renderer, restack: kyoRestack });
    const shuffle = (order: string): LegalAction => ({ action: { shuffle: { at: 'B0', order } }, notation: `B0~${order}`, words: `Gold: reorders B0 to ${order}`, cells: ['B0'] });
    const legal = [move('B0', 'B1'), shuffle('LD'), shuffle('LDD')];
    conns[0].handlers.onMessage(snap({ legal, view: { board: { B0: 'DDLH' } } }));
    ctrl.onCell('B0');
    ctrl.onCellMenu('B0');
    expect(ctrl.chooser).toBeNull();
    const ed = ctrl.restack.editor;
    expect(ed?.at).toBe('B0');
    // Nothing is sent while the arrangement is not a listed one.
    ctrl.restack.done();
    expect(conns[0].sent).toHaveLength(0);
    ctrl.restack.move(2, 0);
    // An update that changes nothing for this player keeps the editor and its arrangement.
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 4, events: [], legal, view: { board: { B0: 'DDLH' } } }));
    expect(ctrl.restack.editor?.order()).toBe('LDD');
    ctrl.restack.done();
    expect(conns[0].sent).toEqual([{ type: 'action', action: { shuffle: { at: 'B0', order: 'LDD' } } }]);
    expect(ctrl.restack.editor).toBeNull();
    // A new decision without those reorders closes an open editor.
    conns[0].handlers.onMessage({ type: 'ack', id: 1, seq: 4 });
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 5, events: [], legal, view: { board: { B0: 'DDLH' } } }));
    ctrl.onCell('B0');
    ctrl.onCellMenu('B0');
    expect(ctrl.restack.editor).not.toBeNull();
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 6, events: [], legal: [move('B0', 'B1')], view: { board: { B0: 'DDLH' } } }));
    expect(ctrl.restack.editor).toBeNull();
  });

  it('a move with a common follow-up (Syba\'s army move, then confirm) gets it at once; "Other ways…" leaves it to the player', () => {
    const confirm: LegalAction = { action: 'confirm', notation: 'confirm', words: 'confirm', cells: [] };
    const hold: LegalAction = { action: { hold: 3 }, notation: 'hold u3', words: 'hold u3', cells: ['u3'] };
    const selecting = { state: { stack: [{ select: { seat: 0, chosen: [3, 4] } }] } };
    const rend: Renderer = { ...renderer, followUp: (view, legal, seat) => ((view as typeof selecting).state.stack.length && seat === 0 ? legal.find((a) => a.notation === 'confirm') ?? null : null) };
    const { ctrl, conns } = setup([{ seat: 0, token }], false, rend);
    const army = move('kaul', 'heran');
    conns[0].handlers.onMessage(snap({ legal: [army], view: { state: { stack: [] } } }));
    expect(ctrl.hasVariants()).toBe(true);
    ctrl.onCell('kaul');
    ctrl.onCell('heran');
    expect(conns[0].sent).toEqual([{ type: 'action', action: army.action }]);
    // The selection the move opened (every unit chosen) arrives before the ack: confirmed once the ack is in.
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 4, events: [], legal: [hold, confirm], view: selecting }));
    expect(conns[0].sent).toHaveLength(1);
    conns[0].handlers.onMessage({ type: 'ack', id: 1, seq: 4 });
    expect(conns[0].sent[1]).toEqual({ type: 'action', action: 'confirm' });
    // Once only: the next state does not confirm again.
    conns[0].handlers.onMessage({ type: 'ack', id: 2, seq: 5 });
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 6, events: [], legal: [army], view: { state: { stack: [] } } }));
    expect(conns[0].sent).toHaveLength(2);
    // "Other ways…": the move alone; the selection stays for the player to hold units back.
    ctrl.toggleVariants();
    ctrl.onCell('kaul');
    ctrl.toggleVariants();
    ctrl.onCell('heran');
    expect(conns[0].sent[2]).toEqual({ type: 'action', action: army.action });
    conns[0].handlers.onMessage({ type: 'ack', id: 3, seq: 7 });
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 7, events: [], legal: [hold, confirm], view: selecting }));
    expect(conns[0].sent).toHaveLength(3);
    // A chooser at the area (actions there too): its choice gets the follow-up; closing it and making
    // the move by "Other ways…" does not.
    const power = (n: string): LegalAction => ({ action: { power: n }, notation: n, words: n, cells: ['kaul'] });
    const mixed = [army, power('p1'), power('p2')];
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 8, events: [], legal: mixed, view: { state: { stack: [] } } }));
    ctrl.onCell('kaul');
    expect(ctrl.chooser).toHaveLength(2);
    ctrl.closeChooser();
    ctrl.toggleVariants();
    ctrl.onCell('heran');
    expect(conns[0].sent[3]).toEqual({ type: 'action', action: army.action });
    conns[0].handlers.onMessage({ type: 'ack', id: 4, seq: 9 });
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 9, events: [], legal: [hold, confirm], view: selecting }));
    expect(conns[0].sent).toHaveLength(4);
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 10, events: [], legal: mixed, view: { state: { stack: [] } } }));
    ctrl.onCell('kaul');
    ctrl.sendAction(ctrl.chooser![0]);
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 11, events: [], legal: [hold, confirm], view: selecting }));
    conns[0].handlers.onMessage({ type: 'ack', id: 5, seq: 11 });
    expect(conns[0].sent[5]).toEqual({ type: 'action', action: 'confirm' });
  });

  it('sends an action over HTTP while the socket is down, and shows a refusal in the page\'s words', async () => {
    const { ctrl, conns, posts } = setup([{ seat: 0, token }]);
    conns[0].handlers.onMessage(snap({}));
    conns[0].up = false;
    conns[0].handlers.onStatus(false, 'reconnecting…');
    expect(ctrl.connected).toBe(false);
    ctrl.sendAction(move('a1', 'a2'));
    expect(posts.map((p) => p.path)).toEqual(['/api/games/g1/action']);
    expect(posts[0].body).toEqual({ seat: 0, token, action: { from: 'a1', to: 'a2' } });
    expect(ctrl.sent.pending).toBe(true);
    posts[0].reject(new Error('illegal action: not your turn'));
    await flush();
    expect(ctrl.errorText).toBe('illegal action: not your turn');
    expect(ctrl.sent.pending).toBe(false);
  });

  it('ticks the clocks twice a second while started, and not after it stops', () => {
    const { ctrl, redraws } = setup([{ seat: 0, token }]);
    redraws.length = 0;
    vi.advanceTimersByTime(2000);
    expect(redraws.filter((r) => r?.length === 1 && r[0] === 'clocks')).toHaveLength(4);
    ctrl.stop();
    vi.advanceTimersByTime(2000);
    expect(redraws).toHaveLength(4);
  });

  it('keeps a hint only while the game stays at the position it was asked at', async () => {
    const { ctrl, conns, posts } = setup([{ seat: 0, token }]);
    conns[0].handlers.onMessage(snap({}));
    void ctrl.assist.askHint();
    expect(ctrl.assist.busy).toBe(true);
    expect(posts[0].path).toBe('/api/games/g1/hint');
    // A move came meanwhile (a takeback, the opponent): the answer is for an old position.
    conns[0].handlers.onMessage(snap({ seq: 5 }));
    posts[0].resolve({ seat: 0, action: {}, notation: 'a1-a2', words: 'a1 → a2', cells: ['a1', 'a2'] });
    await flush();
    expect(ctrl.assist.busy).toBe(false);
    expect(ctrl.assist.hint).toBeNull();
    void ctrl.assist.askHint();
    posts[1].resolve({ seat: 0, action: {}, notation: 'a1-a2', words: 'a1 → a2', cells: ['a1', 'a2'] });
    await flush();
    expect(ctrl.assist.hint?.seq).toBe(5);
    conns[0].handlers.onMessage(snap({ seq: 6 }));
    expect(ctrl.assist.hint).toBeNull();
  });

  it('shows the engine\'s explanation of the last refused click only', async () => {
    const { ctrl, conns, posts, redraws } = setup([{ seat: 0, token }]);
    conns[0].handlers.onMessage(snap({}));
    ctrl.onCell('c5');
    ctrl.onCell('c6');
    expect(posts.map((p) => (p.body as { cells: string[] }).cells)).toEqual([['c5'], ['c6']]);
    posts[0].resolve({ reason: 'That is Gold\'s pawn' });
    await flush();
    expect(ctrl.assist.explained).toBeNull();
    posts[1].resolve({ reason: 'No piece on c6' });
    await flush();
    expect(ctrl.assist.explained).toBe('No piece on c6');
    // The line is under the status (the header), never over the board.
    expect(redraws[redraws.length - 1]).toEqual(['header']);
  });

  it('hot-seat: shows the seat owing the decision once both sockets are in step, covering when views differ', () => {
    const { ctrl, conns } = setup([{ seat: 0, token }, { seat: 1, token: 'b'.repeat(64) }]);
    expect(conns).toHaveLength(2);
    const two = { seats: [{ seat: 0, name: 'North', kind: 'human', joined: true }, { seat: 1, name: 'South', kind: 'human', joined: true }] } as Partial<Snapshot>;
    conns[0].handlers.onMessage(snap({ ...two, to_act: { seat: 1 }, legal: [], view: { hand: [1] } }));
    expect(ctrl.seats.shown).toBeNull(); // waits for the other socket
    conns[1].handlers.onMessage(snap({ ...two, seat: 1, to_act: { seat: 1 }, view: { hand: [2] } }));
    expect(ctrl.seats.shown).toBe(1);
    expect(ctrl.seats.cover).toBe(1);
    expect(ctrl.me).toBe(1);
    ctrl.uncover();
    expect(ctrl.seats.cover).toBeNull();
    // Seat 1 moves; the decision passes to seat 0, whose view differs: covered again.
    const after = { ...two, seq: 4, to_act: { seat: 0 } } as Partial<Snapshot>;
    conns[1].handlers.onMessage(snap({ ...after, seat: 1, legal: [], view: { hand: [] } }));
    expect(ctrl.seats.shown).toBe(1);
    conns[0].handlers.onMessage(snap({ ...after, view: { hand: [1, 3] } }));
    expect(ctrl.seats.shown).toBe(0);
    expect(ctrl.seats.cover).toBe(0);
    ctrl.ops.drawOp('offer', 0);
    expect(conns[0].sent).toEqual([{ type: 'draw', op: 'offer' }]);
  });

  it('opens the game-over dialog once, and plays a chime when it becomes the player\'s turn', () => {
    const { conns, ui, sounds } = setup([{ seat: 0, token }]);
    conns[0].handlers.onMessage(snap({ to_act: { seat: 1 }, legal: [] }));
    conns[0].handlers.onMessage(snap({ type: 'update', seq: 4, events: [] }));
    expect(sounds).toEqual(['turn']);
    const over = { status: 'over', to_act: { over: { results: ['win', 'loss'], reason: 'resign' } }, result: { results: ['win', 'loss'], reason: 'resign' }, legal: [] } as Partial<Snapshot>;
    conns[0].handlers.onMessage(snap({ ...over, seq: 5 }));
    conns[0].handlers.onMessage(snap({ ...over, seq: 6 }));
    expect(ui.over).toBe(1);
  });

  it('a review step that fails shows the error and no stale board; back to the live game clears it', async () => {
    const { ctrl, conns } = setup([{ seat: 0, token }]);
    conns[0].handlers.onMessage(snap({ events: [
      { seq: 1, at: 0, kind: 'start' },
      { seq: 2, at: 0, kind: 'action', actor: { seat: 0 }, notation: 'a1-a2', cells: ['a1', 'a2'], words: 'x', turn: 0 },
      { seq: 3, at: 0, kind: 'action', actor: { seat: 1 }, notation: 'b7-b6', cells: ['b7', 'b6'], words: 'y', turn: 1 },
    ] }));
    ctrl.reviewAt(1);
    await flush();
    expect(ctrl.review.active).toBe(true);
    expect(ctrl.review.error).toBe('position 1 is not available');
    expect(ctrl.review.position).toBeNull();
    ctrl.onCell('a1'); // no moves while stepping back
    expect(ctrl.selection?.prefix).toEqual([]);
    ctrl.review.leave();
    expect(ctrl.review.active).toBe(false);
  });

  it('a spectator has one connection and no seat', () => {
    const { ctrl, conns } = setup([]);
    expect(conns.map((c) => c.cred)).toEqual([null]);
    conns[0].handlers.onMessage(snap({ seat: null, legal: [] }));
    expect(ctrl.me).toBeNull();
    ctrl.stop();
    expect(conns[0].closed).toBe(true);
  });
});
