import { afterEach, describe, expect, it, vi } from 'vitest';
import { positionFetcher, routePath, routes } from '../src/api';
import { chanceAt, lastMoveCells, positionOfMove, ReplayNav, viewRequest, type Position } from '../src/logic/replay';

/** A position as the server sends it (`view` {after: n}). */
function position(n: number, total: number, rest: Partial<Position> = {}): Position {
  return { id: 'g', game: 'kyo', n, total, you: 'spectator', view: { after: n }, to_act: { seat: 0 }, last: null, result: null, ...rest };
}
import type { MoveEntry } from '../src/logic/snapshot';

/** A fake server: position k's view is {after: k}; records every request. */
function fakeServer(total: number) {
  const asked: number[] = [];
  const fetcher = async (n: number): Promise<Position> => {
    asked.push(n);
    if (n < 0 || n > total) throw new Error(`no position ${n}`);
    return position(n, total, { to_act: { seat: n % 2 }, result: n === total ? { results: ['win', 'loss'], reason: 'done' } : null });
  };
  return { asked, fetcher };
}

/** A fetcher whose answers the test releases by hand, in any order. */
function manualServer(total: number) {
  const waiting = new Map<number, (p: Position) => void>();
  const fetcher = (n: number) => new Promise<Position>((resolve) => waiting.set(n, resolve));
  const release = (n: number) => waiting.get(n)?.(position(n, total));
  return { fetcher, release };
}

describe('replay navigation', () => {
  it('steps first, back, forward and last, clamped to 0..total', async () => {
    const { fetcher } = fakeServer(5);
    const nav = new ReplayNav(fetcher, 5);
    expect(nav.n).toBe(5);
    expect(nav.atEnd()).toBe(true);
    expect((await nav.prev())?.view).toEqual({ after: 4 });
    expect((await nav.prev())?.view).toEqual({ after: 3 });
    expect((await nav.next())?.view).toEqual({ after: 4 });
    expect((await nav.first())?.view).toEqual({ after: 0 });
    expect(nav.atStart()).toBe(true);
    expect((await nav.prev())?.n).toBe(0); // already at the start: stays
    expect((await nav.last())?.n).toBe(5);
    expect((await nav.next())?.n).toBe(5); // already at the end: stays
    expect((await nav.goto(99))?.n).toBe(5);
    expect((await nav.goto(-3))?.n).toBe(0);
    expect((await nav.goto(Number.NaN))?.n).toBe(5);
  });

  it('jumps to a clicked move: the position after it', async () => {
    const { fetcher } = fakeServer(8);
    const nav = new ReplayNav(fetcher, 8);
    const pos = await nav.goto(positionOfMove(2));
    expect(pos?.n).toBe(3);
    expect(pos?.view).toEqual({ after: 3 });
  });

  it('caches positions: each is fetched once', async () => {
    const { asked, fetcher } = fakeServer(4);
    const nav = new ReplayNav(fetcher, 4);
    await nav.goto(2);
    await nav.goto(3);
    await nav.goto(2);
    await nav.goto(3);
    expect(asked).toEqual([2, 3]);
    expect(nav.cachedCount).toBe(2);
    expect(nav.cached(2)?.view).toEqual({ after: 2 });
  });

  it('shares one request between two steps to the same position', async () => {
    const { asked, fetcher } = fakeServer(4);
    const nav = new ReplayNav(fetcher, 4);
    const [a, b] = await Promise.all([nav.fetch(1), nav.fetch(1)]);
    expect(a).toBe(b);
    expect(asked).toEqual([1]);
  });

  it('drops a step overtaken by a later one, even when its answer comes last', async () => {
    const { fetcher, release } = manualServer(6);
    const nav = new ReplayNav(fetcher, 6);
    const slow = nav.goto(1);
    const fast = nav.goto(4);
    release(4);
    expect((await fast)?.n).toBe(4);
    release(1);
    expect(await slow).toBeNull();
    expect(nav.n).toBe(4);
    expect(nav.cached(1)?.n).toBe(1); // still cached for later
  });

  it('reports a failed fetch, caches nothing and can step on', async () => {
    let fail = true;
    const nav = new ReplayNav(async (n) => {
      if (fail) throw new Error('game not found');
      return position(n, 3, { view: n });
    }, 3);
    await expect(nav.goto(1)).rejects.toThrow('game not found');
    expect(nav.n).toBe(1);
    expect(nav.cachedCount).toBe(0);
    fail = false;
    expect((await nav.next())?.n).toBe(2);
    expect((await nav.goto(1))?.view).toBe(1);
  });

  it('refuses a position that is not the one asked for', async () => {
    const nav = new ReplayNav(async () => position(0, 3, { view: null }), 3);
    await expect(nav.goto(2)).rejects.toThrow('asked for position 2');
    expect(nav.cachedCount).toBe(0);
  });

  it('grows with a live game and never shrinks', async () => {
    const total = { now: 3 };
    const nav = new ReplayNav(async (n) => position(n, total.now, { view: n }), 3, 1);
    expect(nav.n).toBe(1);
    total.now = 7; // two more actions were played meanwhile
    await nav.goto(2);
    expect(nav.total).toBe(7);
    expect(nav.atEnd()).toBe(false);
    expect((await nav.last())?.n).toBe(7);
    nav.setTotal(2);
    expect(nav.total).toBe(7);
  });
});

describe('replay positions from the server', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks as a spectator without a token, as a seat with a bearer header', () => {
    const route = routes['GET /api/games/{id}/view/{n}'];
    const spectator = viewRequest(null);
    expect(spectator).toEqual({ query: {}, headers: {} });
    expect(routePath(route, { id: 'g 1', n: 4 }, spectator.query)).toBe('/api/games/g%201/view/4');
    const seat = viewRequest({ seat: 1, token: 'ab' });
    expect(seat).toEqual({ query: { seat: 1 }, headers: { authorization: 'Bearer ab' } });
    expect(routePath(route, { id: 'g1', n: 0 }, seat.query)).toBe('/api/games/g1/view/0?seat=1');
  });

  it('fetches through the HTTP API with the credential, and shows the server error', async () => {
    const calls: { url: string; headers: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: { headers: unknown }) => {
      calls.push({ url, headers: init.headers });
      if (url.endsWith('/view/9?seat=0')) {
        return new Response(JSON.stringify({ error: { code: 'bad_request', message: 'n must be at most 4' } }), { status: 400 });
      }
      return new Response(JSON.stringify(position(3, 4, { view: { x: 1 }, to_act: 'chance', last: { seq: 7, actor: 'chance', notation: '5', cells: [], words: 'Chance: 5', turn: 2 } })));
    });
    const nav = new ReplayNav(positionFetcher('g', { seat: 0, token: 't0' }), 4);
    expect((await nav.goto(3))?.view).toEqual({ x: 1 });
    expect(calls[0]).toEqual({ url: '/api/games/g/view/3?seat=0', headers: { authorization: 'Bearer t0' } });
    await expect(positionFetcher('g', { seat: 0, token: 't0' })(9)).rejects.toThrow('n must be at most 4');
  });
});

describe('what a replay position shows', () => {
  // Each action's cells are the server's (none for chance, a hidden action or a button).
  const moves: MoveEntry[] = [
    { seq: 3, actor: 'chance', notation: 'White first', cells: [] },
    { seq: 4, actor: { seat: 0 }, notation: 'a1-a2', cells: ['a1', 'a2'] },
    { seq: 5, actor: 'chance', notation: '3+4', cells: [] },
    { seq: 6, actor: { seat: 1 }, notation: null, cells: [] },
    { seq: 7, actor: 'chance', notation: '6+6', cells: [] },
    { seq: 8, actor: 'chance', notation: '1+2', cells: [] },
  ];
  it('highlights the cells of the last turn before the position', () => {
    expect(lastMoveCells(moves, 0)).toEqual([]);
    expect(lastMoveCells(moves, 1)).toEqual([]); // only chance so far
    expect(lastMoveCells(moves, 2)).toEqual(['a1', 'a2']);
    expect(lastMoveCells(moves, 3)).toEqual(['a1', 'a2']); // the dice after it are no move
    expect(lastMoveCells(moves, 4)).toEqual([]); // the hidden move names no cell
    expect(lastMoveCells(moves, 6)).toEqual([]);
  });
  it('keeps a whole multi-action turn (a chain, then end) and no cell of a button (an army)', () => {
    const turn: MoveEntry[] = [
      { seq: 1, actor: { seat: 1 }, notation: 'c3-c4', cells: ['c3', 'c4'] },
      { seq: 2, actor: { seat: 0 }, notation: 'e1*d2', cells: ['e1', 'd2'] },
      { seq: 3, actor: { seat: 0 }, notation: 'd2-d1', cells: ['d2', 'd1'] },
      { seq: 4, actor: { seat: 0 }, notation: 'end', cells: [] },
      { seq: 5, actor: { seat: 1 }, notation: 'setup Ka1 Ra2 Ra3', cells: [] },
    ];
    expect(lastMoveCells(turn, 4)).toEqual(['d2', 'd1', 'e1']);
    expect(lastMoveCells(turn, 1)).toEqual(['c3', 'c4']);
    expect(lastMoveCells(turn, 5)).toEqual([]);
  });
  it("uses the server's last action when the move list is shorter", () => {
    expect(lastMoveCells([], 3, { seq: 9, actor: { seat: 1 }, notation: 'b2-b3', cells: ['b2', 'b3'], words: 'Red: b2 → b3', turn: 2 })).toEqual(['b2', 'b3']);
    expect(lastMoveCells([], 3, { seq: 9, actor: 'chance', notation: 'e5', cells: ['e5'], words: 'Chance: e5', turn: 2 })).toEqual([]);
  });
  it('shows the chance outcomes since the last seat move', () => {
    expect(chanceAt(moves, 1)).toEqual(['White first']);
    expect(chanceAt(moves, 2)).toEqual([]);
    expect(chanceAt(moves, 3)).toEqual(['3+4']);
    expect(chanceAt(moves, 6)).toEqual(['6+6', '1+2']);
  });
});
