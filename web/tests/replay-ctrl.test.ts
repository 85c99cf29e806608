// The replay's controller (src/pages/replay/ctrl.ts) without a DOM: a fake API, fake timers. Whom it
// asks as, how it steps, how a live game's list grows, how the analysis is asked for and polled.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Position } from '../src/logic/replay';
import type { Snapshot } from '../src/logic/snapshot';
import { POLL_MS, ReplayCtrl, type ReplayRegion } from '../src/pages/replay/ctrl';
import type { SeatCredential } from '../src/store';
import { fakeApi, type FakeCall } from './fake-api';

const token = 'a'.repeat(64);

/** A game of `moves` actions, as an observer's snapshot. */
function snap(moves: number, status: Snapshot['status'], seat: number | null): Snapshot {
  const events = Array.from({ length: moves }, (_, i) => ({ seq: 3 + i, at: 0, kind: 'action', actor: { seat: i % 2 }, notation: `m${i}`, cells: [], words: `move ${i}`, turn: i }));
  return {
    type: 'snapshot', id: 'g1', game: 'kyo', name: 'Kyo', status, seq: 2 + moves, now: 0,
    you: seat === null ? 'spectator' : { seat },
    seats: [{ seat: 0, name: 'Red', kind: 'human', joined: true }, { seat: 1, name: 'Gold', kind: 'ai', level: 1, joined: true }],
    options: {}, rated: false, to_act: { seat: 0 }, view: {}, legal: [], legal_sampled: false,
    events: [{ seq: 1, at: 0, kind: 'created' }, { seq: 2, at: 0, kind: 'start' }, ...events],
    draw_offer: null, takeback_offer: null, clock: null, result: null, seed_commitment: 'ab', seed: null, rematch: null, may: null,
  } as Snapshot;
}
const position = (n: number, total: number): Position => ({ id: 'g1', game: 'kyo', n, total, you: 'spectator', view: { after: n }, to_act: { seat: 0 }, last: null, result: null });

function setup(answer: (c: FakeCall) => unknown, seats: SeatCredential[] = [], positions = (n: number) => Promise.resolve(position(n, 4))) {
  const { call, calls } = fakeApi(answer);
  const redraws: (ReplayRegion | undefined)[] = [];
  const asked: number[] = [];
  let loaded = 0;
  const ctrl = new ReplayCtrl('g1', {
    call,
    seats: () => seats,
    fetcher: () => (n) => {
      asked.push(n);
      return positions(n);
    },
    download: () => undefined,
  }, { redraw: (r) => redraws.push(r), loaded: () => { loaded++; } });
  return { ctrl, calls, redraws, asked, loaded: () => loaded };
}
const flush = () => vi.advanceTimersByTimeAsync(1);

describe('ReplayCtrl', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks as this device\'s seat with its token in a header; a stale token falls back to watching', async () => {
    const { ctrl, calls, loaded } = setup((c) => {
      if (c.path === '/api/games/g1?seat=1') return Promise.reject(new Error('bad token'));
      if (c.path === '/api/games/g1') return snap(4, 'over', null);
      return { status: 'none' };
    }, [{ seat: 1, token }]);
    await ctrl.start();
    expect(calls.slice(0, 2).map((c) => [c.path, c.headers])).toEqual([
      ['/api/games/g1?seat=1', { authorization: `Bearer ${token}` }],
      ['/api/games/g1', {}],
    ]);
    expect(ctrl.cred).toBeNull();
    expect(loaded()).toBe(1);
    // Opens at the end, and the analysis is looked for (the game is over).
    expect(ctrl.nav?.n).toBe(4);
    expect(ctrl.shown?.n).toBe(4);
    expect(calls.some((c) => c.method === 'GET' && c.path === '/api/games/g1/analysis')).toBe(true);
  });

  it('says why the game could not be loaded', async () => {
    const { ctrl, redraws } = setup(() => Promise.reject(new Error('no such game')));
    await ctrl.start();
    expect(ctrl.loadError).toBe('no such game');
    expect(redraws).toEqual([undefined]);
  });

  it('steps with the keys; a position that fails shows the error and stepping on still works', async () => {
    const { ctrl } = setup(() => snap(4, 'over', null), [], (n) => (n === 2 ? Promise.reject(new Error('position 2 is not available')) : Promise.resolve(position(n, 4))));
    await ctrl.start();
    expect(ctrl.key('Home')).toBe(true);
    await flush();
    expect(ctrl.shown?.n).toBe(0);
    expect(ctrl.key('x')).toBe(false);
    ctrl.key('ArrowRight');
    await flush();
    ctrl.key('ArrowRight');
    await flush();
    expect(ctrl.errorText).toBe('position 2 is not available');
    ctrl.key('ArrowRight');
    await flush();
    expect(ctrl.errorText).toBe('');
    expect(ctrl.shown?.n).toBe(3);
  });

  it('a live game that went on: the move list is asked for again and the latest position shown', async () => {
    let moves = 2;
    const { ctrl, asked } = setup(() => snap(moves, 'running', null), [], (n) => Promise.resolve(position(n, moves)));
    await ctrl.start();
    expect(ctrl.ctx?.moves).toHaveLength(2);
    moves = 3;
    // A position fetched now says there are 3 actions: the list follows.
    await ctrl.go(1);
    await flush();
    expect(ctrl.ctx?.moves).toHaveLength(3);
    expect(ctrl.nav?.total).toBe(3);
    expect(ctrl.shown?.n).toBe(1);
    ctrl.key('End');
    await flush();
    expect(ctrl.shown?.n).toBe(3);
    expect(asked).toEqual([2, 1, 3]);
  });

  it('requests the analysis and polls its progress until done; leaving the page stops the polling', async () => {
    const analysis = { game: 'kyo', seed: 's', iterations: 1, estimate_iterations: 1, thresholds: {}, plies: 4, seats: [], decisions: [] };
    const running = { status: 'running', done: 1, total: 4, waiting: false };
    const answers: unknown[] = [{ status: 'none' }, running, { status: 'done', analysis }];
    const { ctrl, calls, redraws } = setup((c) => {
      if (c.path === '/api/games/g1') return snap(4, 'over', null);
      if (c.path === '/api/games/g1/analysis') return c.method === 'POST' ? running : answers.shift();
      return undefined;
    });
    await ctrl.start();
    expect(ctrl.analysis).toEqual({ status: 'none' });
    await ctrl.requestAnalysis();
    expect(ctrl.analysis?.status).toBe('running');
    const polls = () => calls.filter((c) => c.method === 'GET' && c.path.endsWith('/analysis')).length;
    expect(polls()).toBe(1);
    redraws.length = 0;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(polls()).toBe(2);
    expect(ctrl.analysis?.status).toBe('running');
    expect(redraws).toEqual(['analysis']);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(ctrl.analysis?.status).toBe('done');
    // Done: the marks and arrows change too, so all of the page.
    expect(redraws.at(-1)).toBe('all');
    // No more polling once done, nor after the page is left.
    await vi.advanceTimersByTimeAsync(POLL_MS * 5);
    expect(polls()).toBe(3);
    answers.unshift(running);
    await ctrl.poll();
    ctrl.stop();
    await vi.advanceTimersByTimeAsync(POLL_MS * 5);
    expect(polls()).toBe(4);
  });

  it('a refused analysis request says why and offers it again', async () => {
    const { ctrl } = setup((c) => {
      if (c.path === '/api/games/g1') return snap(4, 'imported', null);
      if (c.path === '/api/games/g1/analysis') return c.method === 'POST' ? Promise.reject(new Error('the analysis queue is full')) : { status: 'none' };
      return undefined;
    });
    await ctrl.start();
    await ctrl.requestAnalysis();
    expect(ctrl.analysisError).toBe('the analysis queue is full');
    expect(ctrl.analysis).toEqual({ status: 'none' });
  });
});
