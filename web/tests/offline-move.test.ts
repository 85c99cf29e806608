// A move tried while the connection is down (src/pages/game/ctrl.ts): the page says so in words,
// keeps the move, sends it when the connection returns, and the message goes then. Fake
// connections and a fake HTTP side, as in game-ctrl.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnHandlers } from '../src/conn';
import { GameCtrl, OFFLINE_MOVE, type GameEnv, type GameUi } from '../src/pages/game/ctrl';
import { Selection, type LegalAction } from '../src/logic/select';
import type { Renderer } from '../src/games/types';
import type { Snapshot } from '../src/logic/snapshot';
import { fakeApi } from './fake-api';

class FakeConn {
  sent: Record<string, unknown>[] = [];
  up = true;
  private next = 1;
  constructor(readonly handlers: ConnHandlers) {}
  connect() { this.handlers.onStatus(true, 'connected'); }
  send(msg: Record<string, unknown>) {
    if (!this.up) return null;
    this.sent.push(msg);
    return this.next++;
  }
  kick() {}
  drop() {}
  close() {}
}

const renderer: Renderer = { render: () => ({ board: null, panels: [] }) };
const move = (from: string, to: string): LegalAction => ({ action: { from, to }, notation: `${from}-${to}`, words: `${from} → ${to}`, cells: [from, to] });
const snap = (): Snapshot => ({
  type: 'snapshot', id: 'g1', game: 'kyo', name: 'Kyo', status: 'running', seq: 3, now: 0, you: { seat: 0 },
  seats: [{ seat: 0, name: 'Red', kind: 'human', joined: true }, { seat: 1, name: 'Gold', kind: 'ai', level: 1, joined: true }],
  options: {}, rated: false, to_act: { seat: 0 }, view: { turn: 0 }, legal: [move('a1', 'a2'), move('b1', 'b2')], legal_sampled: false,
  events: [{ seq: 1, at: 0, kind: 'created' }, { seq: 2, at: 0, kind: 'start' }, { seq: 3, at: 0, kind: 'join', seat: 0 }],
  draw_offer: null, takeback_offer: null, clock: null, result: null, seed_commitment: 'ab', seed: null, rematch: null,
  may: { takeback: false, takeback_refusal: 'nothing to take back', hint: true, draw_offer: true },
} as unknown as Snapshot);

function setup() {
  const conns: FakeConn[] = [];
  const { call, calls } = fakeApi();
  const env: GameEnv = {
    connect: (_cred, handlers) => {
      const c = new FakeConn(handlers);
      conns.push(c);
      return c;
    },
    call,
    fetcher: () => () => Promise.reject(new Error('not here')),
    forgetSeat: () => undefined,
    saveSeat: () => undefined,
    sound: () => undefined,
    renderer: () => renderer,
    selection: (_g, legal) => new Selection(legal, false),
  };
  const ui: GameUi = {
    redraw: () => undefined, gone: () => undefined, gameOver: () => undefined, download: () => undefined,
    navigate: () => undefined, chat: () => undefined, chatOver: () => undefined,
  };
  const ctrl = new GameCtrl('g1', [{ seat: 0, token: 'a'.repeat(64) }], env, ui);
  ctrl.start();
  conns[0].handlers.onMessage(snap());
  return { ctrl, conn: conns[0], posts: calls };
}

describe('a move while offline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says so, waits for the connection, is sent when it returns, and the message goes', async () => {
    const { ctrl, conn, posts } = setup();
    conn.up = false;
    conn.handlers.onStatus(false, 'offline — reconnecting when the network is back…');
    ctrl.sendAction(move('a1', 'a2'));
    // The HTTP fallback gets no answer at all: fetch's TypeError.
    posts[0].reject(new TypeError('Failed to fetch'));
    await vi.advanceTimersByTimeAsync(1);
    expect(ctrl.errorText).toBe(OFFLINE_MOVE);
    expect(ctrl.held.waiting).toBe(true);
    // Meanwhile the board takes no other move.
    ctrl.sendAction(move('b1', 'b2'));
    expect(posts).toHaveLength(1);
    // Back: the move goes out on the socket, and the message is gone.
    conn.up = true;
    conn.handlers.onStatus(true, 'connected');
    expect(conn.sent.filter((m) => m.type === 'action')).toEqual([{ type: 'action', action: { from: 'a1', to: 'a2' } }]);
    expect(ctrl.errorText).toBe('');
    expect(ctrl.held.waiting).toBe(false);
    expect(ctrl.sent.pending).toBe(true);
  });

  it('a refusal from the server is still a refusal, not "offline"', async () => {
    const { ctrl, conn, posts } = setup();
    conn.up = false;
    conn.handlers.onStatus(false, 'reconnecting…');
    ctrl.sendAction(move('a1', 'a2'));
    posts[0].reject(new Error('not your turn'));
    await vi.advanceTimersByTimeAsync(1);
    expect(ctrl.errorText).toBe('not your turn');
    expect(ctrl.held.waiting).toBe(false);
  });
});
