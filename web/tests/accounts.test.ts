// @vitest-environment happy-dom
// Accounts in the client: the rating-history chart's scale, when the create form allows a rated game,
// the rating range, the tab title's count, the stored seats claimed into an account after signing in,
// and the CSRF token sent with state-changing requests only.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ratingChart, shownRating } from '../src/logic/chart';
import { ratedBlock, ratingRange } from '../src/logic/rated';
import { api, onCsrfRefused, routes, setCsrf } from '../src/api';
import { claimSeats, titleWith } from '../src/account';
import { allSeats, saveSeat } from '../src/store';

const box = { width: 320, height: 120, left: 40, pad: 10 };
const pt = (rating: number) => ({ at: 0, rating, rd: 100 });

describe('rating chart', () => {
  it('starts at 1500 and spans the ratings, rounded out to 50s', () => {
    const c = ratingChart([pt(1662.3), pt(1580)], box);
    expect(c.points.map((p) => p.rating)).toEqual([1500, 1662.3, 1580]);
    expect([c.low, c.high]).toEqual([1500, 1700]);
    // Evenly spaced from the left margin to the right edge; higher ratings are higher up.
    expect(c.points.map((p) => p.x)).toEqual([40, 175, 310]);
    expect(c.points[0].y).toBe(c.yLow);
    expect(c.points[1].y).toBeLessThan(c.points[2].y);
    expect(c.path).toBe(`M40 110 L175 ${c.points[1].y} L310 ${c.points[2].y}`);
  });

  it('keeps a scale of at least 100 so that a small change is not a cliff', () => {
    const c = ratingChart([pt(1520)], box);
    expect(c.high - c.low).toBeGreaterThanOrEqual(100);
    for (const p of c.points) {
      expect(p.y).toBeGreaterThanOrEqual(c.yHigh);
      expect(p.y).toBeLessThanOrEqual(c.yLow);
    }
    const flat = ratingChart([], box);
    expect(flat.points).toEqual([{ x: 40, y: 60, rating: 1500 }]);
    expect([flat.low, flat.high]).toEqual([1450, 1550]);
  });

  it('keeps every point inside the box when the range is just under 100', () => {
    const c = ratingChart([pt(1401), pt(1499)], box, 1450);
    for (const p of c.points) {
      expect(p.y).toBeGreaterThanOrEqual(c.yHigh);
      expect(p.y).toBeLessThanOrEqual(c.yLow);
    }
    expect(c.low).toBeLessThanOrEqual(1401);
    expect(c.high).toBeGreaterThanOrEqual(1499);
  });

  it('leaves out ratings that are not numbers and shows ratings whole', () => {
    expect(ratingChart([pt(Number.NaN), pt(1600)], box).points).toHaveLength(2);
    expect(shownRating(1662.6)).toBe('1663');
    expect(shownRating(null)).toBe('—');
  });
});

describe('rated games in the create form', () => {
  it('needs a signed-in creator with one seat and people in every other seat', () => {
    expect(ratedBlock(true, ['me', 'open'])).toBeNull();
    expect(ratedBlock(true, ['friend', 'me', 'open'])).toBeNull();
    expect(ratedBlock(false, ['me', 'open'])).toMatch(/Sign in/);
    expect(ratedBlock(true, ['me', 'ai3'])).toMatch(/AI/);
    expect(ratedBlock(true, ['me', 'me'])).toMatch(/hot-seat/);
    expect(ratedBlock(true, ['friend', 'open'])).toMatch(/one seat yourself/);
  });

  it('reads the optional rating range', () => {
    expect(ratingRange('', '')).toEqual({ ok: true, value: null });
    expect(ratingRange('1400', '1700')).toEqual({ ok: true, value: { min: 1400, max: 1700 } });
    expect(ratingRange('1400', ' ')).toEqual({ ok: true, value: { min: 1400, max: 5000 } });
    expect(ratingRange('', '1600')).toEqual({ ok: true, value: { min: 0, max: 1600 } });
    expect(ratingRange('1700', '1400')).toEqual({ ok: false, error: 'The rating range is empty: 1700 is above 1400.' });
    expect(ratingRange('abc', '1400').ok).toBe(false);
  });
});

describe('tab title', () => {
  it('puts the count of games awaiting a move first', () => {
    expect(titleWith(0)).toBe('Tabula');
    expect(titleWith(2)).toBe('(2) Tabula');
    expect(titleWith(1, 'alice — Tabula')).toBe('(1) alice — Tabula');
  });
});

describe('signing in on a device', () => {
  const T = (c: string) => c.repeat(64);
  const calls: { url: string; method: string; headers: Record<string, string>; body: unknown }[] = [];
  beforeEach(() => {
    localStorage.clear();
    calls.length = 0;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body });
      // The account holds seat 0 of game g3 already.
      if (url === '/api/me/games') {
        const g3 = { id: 'g3', game: 'kyo', seat: 0, token: T('d'), status: 'running', your_turn: false, result: null, updated_at: 0 };
        return new Response(JSON.stringify({ name: 'alice', awaiting: 0, games: [g3], finished: [] }), { status: 200 });
      }
      // The server refuses the seat of game g2 (say, a rated game).
      if (body?.game === 'g2') return new Response(JSON.stringify({ error: { code: 'conflict', message: 'rated' } }), { status: 409 });
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setCsrf(null);
  });

  it('claims every stored seat into the account, going on past a refused one', async () => {
    saveSeat('g1', { seat: 0, token: T('a') });
    saveSeat('g1', { seat: 1, token: T('b') });
    saveSeat('g2', { seat: 1, token: T('c') });
    saveSeat('g3', { seat: 0, token: T('d') });
    localStorage.setItem('unrelated', 'x');
    expect(allSeats().map((g) => g.id).sort()).toEqual(['g1', 'g2', 'g3']);
    setCsrf('csrf-1');
    expect(await claimSeats()).toBe(2);
    const claims = calls.filter((c) => c.url === '/api/me/seats');
    // g3's seat is the account's already: not claimed again.
    expect(claims.map((c) => c.body)).toEqual(expect.arrayContaining([
      { game: 'g1', seat: 0, token: T('a') },
      { game: 'g1', seat: 1, token: T('b') },
      { game: 'g2', seat: 1, token: T('c') },
    ]));
    expect(claims).toHaveLength(3);
    expect(claims.every((c) => c.method === 'POST' && c.headers['x-csrf-token'] === 'csrf-1')).toBe(true);
  });

  it('sends the CSRF token with state-changing requests only', async () => {
    setCsrf('csrf-2');
    await api.call(routes['GET /api/me/games']);
    await api.call(routes['POST /api/games'], { body: { game: 'kyo', options: {}, seats: [] } });
    await api.call(routes['DELETE /api/session']);
    expect(calls.map((c) => [c.method, c.headers['x-csrf-token']])).toEqual([['GET', undefined], ['POST', 'csrf-2'], ['DELETE', 'csrf-2']]);
    setCsrf(null);
    await api.call(routes['POST /api/games'], { body: { game: 'kyo', options: {}, seats: [] } });
    expect(calls[3].headers['x-csrf-token']).toBeUndefined();
  });

  it('learns the session once when a request is refused for want of the CSRF token, and sends it again', async () => {
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      calls.push({ url, method: init.method ?? 'GET', headers, body: undefined });
      if (headers['x-csrf-token'] === 'fresh') return new Response('{"id":"g9"}', { status: 201 });
      return new Response(JSON.stringify({ error: { code: 'csrf', message: 'no CSRF token' } }), { status: 403 });
    });
    let asked = 0;
    onCsrfRefused(async () => {
      asked++;
      setCsrf('fresh');
      return true;
    });
    expect(await api.call(routes['POST /api/games'], { body: { game: 'kyo', options: {}, seats: [] } })).toEqual({ id: 'g9' });
    expect(asked).toBe(1);
    // A refusal of the retried request is the answer: no loop.
    setCsrf(null);
    onCsrfRefused(async () => {
      asked++;
      setCsrf('stale');
      return true;
    });
    await expect(api.call(routes['POST /api/games'], { body: { game: 'kyo', options: {}, seats: [] } })).rejects.toThrow('no CSRF token');
    expect(asked).toBe(2);
  });
});
