// The lobby's controller (src/pages/lobby/ctrl.ts, form.ts) without a DOM: a fake API and a fake
// device. What it asks the server, what it keeps, where it goes, and which regions it redraws.
import { describe, expect, it } from 'vitest';
import { routes } from '../src/api';
import { LobbyCtrl, type LobbyEnv, type LobbyRegion } from '../src/pages/lobby/ctrl';
import type { Invite, SeatCredential } from '../src/store';
import type { CatalogGame } from '../src/wire/server/CatalogGame';
import type { Lobby } from '../src/wire/server/Lobby';
import { fakeApi, type FakeCall } from './fake-api';

const kyo: CatalogGame = {
  id: 'kyo', name: 'Kyo', description: 'A game', default_seats: ['Red', 'Gold'],
  options: [{ name: 'size', type: 'int', min: 5, max: 9, default: 7, description: 'Board size' }],
};
const emptyLobby: Lobby = { open: [], live: [] };
const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(answer: (c: FakeCall) => unknown, device: { search?: string; stored?: string; solved?: boolean; signedIn?: boolean } = {}) {
  const { call, calls } = fakeApi(answer);
  const redraws: LobbyRegion[] = [];
  const seats: [string, SeatCredential][] = [];
  const invites: [string, Invite[]][] = [];
  const went: string[] = [];
  const stored = new Map<string, string>(device.stored ? [['tabula:ai-level', device.stored]] : []);
  const failed: unknown[] = [];
  const env: LobbyEnv = {
    call,
    catalog: () => call(routesCatalog).then((c) => c.games),
    saveSeat: (g, c) => seats.push([g, c]),
    saveInvites: (g, i) => invites.push([g, i]),
    navigate: (p) => went.push(p),
    origin: 'http://tabula.test',
    search: device.search ?? '',
    load: (k) => stored.get(k) ?? null,
    store: (k, v) => stored.set(k, v),
    signedIn: () => device.signedIn ?? false,
    solvedAny: () => device.solved ?? false,
  };
  const ctrl = new LobbyCtrl(env, { redraw: (r) => redraws.push(r), fail: (e) => failed.push(e) });
  return { ctrl, calls, redraws, seats, invites, went, stored, failed };
}

const routesCatalog = routes['GET /api/catalog'];

/** The server of these tests: the catalog, an empty lobby, and `more` for the rest. */
const server = (more: (c: FakeCall) => unknown = () => undefined) => (c: FakeCall) => {
  if (c.path === '/api/catalog') return { games: [kyo] };
  if (c.path === '/api/lobby') return emptyLobby;
  return more(c);
};

describe('LobbyCtrl', () => {
  it('draws the games once the catalog came, then the lists', async () => {
    const { ctrl, calls, redraws } = setup(server());
    await ctrl.start();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/catalog', 'GET /api/lobby']);
    expect(redraws).toEqual(['games', 'lists']);
    expect(ctrl.lists).toEqual(emptyLobby);
  });

  it('reports a catalog it cannot read as the page\'s failure', async () => {
    const { ctrl, failed, redraws } = setup(() => Promise.reject(new Error('502 Bad Gateway')));
    await ctrl.start();
    expect(failed).toHaveLength(1);
    expect(redraws).toEqual([]);
  });

  it('starts a quick game at ?ai=N, else the level kept here, else 3 (1 for someone new)', () => {
    expect(setup(server(), { search: '?ai=5', stored: '2' }).ctrl.level).toBe(5);
    expect(setup(server(), { search: '?ai=9', stored: '2' }).ctrl.level).toBe(2);
    expect(setup(server(), { solved: true }).ctrl.level).toBe(3);
    expect(setup(server(), {}).ctrl.level).toBe(1);
  });

  it('Play vs AI: creates the game with this device in seat 1 and the card\'s level, keeps the token, opens it', async () => {
    const token = 'a'.repeat(64);
    const { ctrl, calls, seats, went, stored } = setup(server((c) => c.path === '/api/games'
      ? { id: 'g1', game: 'kyo', status: 'running', watch_url: '/watch/g1', seed_commitment: 'x',
          seats: [{ kind: 'human', seat: 0, name: 'Red', open: false, token }, { kind: 'ai', seat: 1, name: 'Gold', level: 4 }] }
      : undefined));
    await ctrl.start();
    ctrl.setLevel('kyo', 4);
    expect(stored.get('tabula:ai-level')).toBe('4');
    await ctrl.quickStart(kyo);
    const create = calls.find((c) => c.path === '/api/games');
    expect(create?.body).toEqual({ game: 'kyo', options: {}, seats: [{ kind: 'human' }, { kind: 'ai', level: 4 }], host_seats: [0], public: false });
    expect(seats).toEqual([['g1', { seat: 0, token }]]);
    expect(went).toEqual(['/game/g1']);
  });

  it('Play vs AI with a clock: the card\'s time control goes with the quick game', async () => {
    const { ctrl, calls } = setup(server((c) => (c.path === '/api/games' ? Promise.reject(new Error('stop here')) : undefined)), { solved: true });
    await ctrl.start();
    ctrl.setClock('kyo', 'rapid');
    ctrl.setClock('kyo', 'constructor'); // not a time control: the choice stands
    await ctrl.quickStart(kyo);
    const create = calls.find((c) => c.path === '/api/games');
    expect(create?.body).toMatchObject({ seats: [{ kind: 'human' }, { kind: 'ai', level: 3 }], clock: { kind: 'fischer', initial_ms: 900000, increment_ms: 10000 } });
  });

  it('the form starts where the card is: the AI at the card\'s level, the card\'s clock', async () => {
    const { ctrl } = setup(server((c) => (c.path === '/api/catalog/kyo/preview' ? { seats: ['North', 'South', 'East'] } : undefined)));
    await ctrl.start();
    // Someone new: the card offers level 1, and so does the form.
    expect(ctrl.card('kyo').level).toBe(1);
    ctrl.setClock('kyo', 'blitz');
    ctrl.toggleForm(kyo);
    const form = ctrl.card('kyo').form!;
    expect(form.seatChoices).toEqual(['me', 'ai1']);
    expect(form.clock).toBe('blitz');
    // A seat the options add is the same AI.
    await form.setOption(kyo.options[0] as never, '9');
    expect(form.seatChoices).toEqual(['me', 'ai1', 'ai1']);
    ctrl.toggleForm(kyo);
    ctrl.setLevel('kyo', 4);
    ctrl.toggleForm(kyo);
    expect(ctrl.card('kyo').form!.seatChoices).toEqual(['me', 'ai4']);
  });

  it('shows a refused create on the card, and under the form when it came from there', async () => {
    const { ctrl, redraws } = setup(server((c) => (c.path === '/api/games' ? Promise.reject(new Error('unknown option')) : undefined)));
    await ctrl.start();
    await ctrl.quickStart(kyo);
    expect(ctrl.card('kyo').error).toEqual({ text: 'unknown option', inForm: false });
    expect(redraws.at(-1)).toBe('card:kyo');
    ctrl.toggleForm(kyo);
    ctrl.card('kyo').form?.submit();
    await flush();
    expect(ctrl.card('kyo').error).toEqual({ text: 'unknown option', inForm: true });
    // Closing the form takes its error with it.
    ctrl.toggleForm(kyo);
    expect(ctrl.card('kyo').error).toBeNull();
  });

  it('the form: a refused option value says why; an accepted one asks for the seats anew', async () => {
    const { ctrl, calls, redraws } = setup(server((c) => (c.path === '/api/catalog/kyo/preview' ? { seats: ['North', 'South', 'East'] } : undefined)));
    await ctrl.start();
    ctrl.toggleForm(kyo);
    const form = ctrl.card('kyo').form!;
    expect(form.seatChoices).toEqual(['me', 'ai1']);
    await form.setOption(kyo.options[0] as never, '12');
    expect(form.error).not.toBe('');
    expect(calls.some((c) => c.path.includes('preview'))).toBe(false);
    await form.setOption(kyo.options[0] as never, '9');
    expect(form.error).toBe('');
    expect(calls.find((c) => c.path === '/api/catalog/kyo/preview')?.body).toEqual({ options: { size: 9 } });
    expect(form.seatNames).toEqual(['North', 'South', 'East']);
    expect(form.seatChoices).toEqual(['me', 'ai1', 'ai1']);
    expect(redraws).toContain('seats:kyo');
  });

  it('the form: rated only when signed in with people in the other seats; a bad range is refused', async () => {
    const { ctrl, calls } = setup(server((c) => (c.path === '/api/games' ? Promise.reject(new Error('stop here')) : undefined)), { signedIn: true });
    await ctrl.start();
    ctrl.toggleForm(kyo);
    const form = ctrl.card('kyo').form!;
    form.setRated(true);
    expect(form.ratedBlock()).toMatch(/AI seats are never rated/);
    expect(form.isRated()).toBe(false);
    form.setSeat(1, 'open');
    expect(form.ratedBlock()).toBeNull();
    form.setRated(true);
    form.rangeMin = '1800';
    form.rangeMax = '1500';
    form.submit();
    expect(form.error).toMatch(/empty/);
    expect(calls.some((c) => c.path === '/api/games')).toBe(false);
    form.rangeMax = '2000';
    form.clock = 'blitz';
    form.submit();
    await flush();
    expect(calls.find((c) => c.path === '/api/games')?.body).toEqual({
      game: 'kyo', options: {}, seats: [{ kind: 'human' }, { kind: 'human', open: true }], host_seats: [0],
      clock: { kind: 'fischer', initial_ms: 300000, increment_ms: 3000 }, public: true, rated: true, rating_range: { min: 1800, max: 2000 },
    });
  });

  it('keeps a friend\'s join link on this device', async () => {
    const { ctrl, invites, went } = setup(server((c) => c.path === '/api/games'
      ? { id: 'g2', game: 'kyo', status: 'waiting', watch_url: '/watch/g2', seed_commitment: 'x',
          seats: [{ kind: 'human', seat: 0, name: 'Red', open: false, token: 't0' }, { kind: 'human', seat: 1, name: 'Gold', open: false, token: 't1', join_url: '/join/g2/1#t1' }] }
      : undefined));
    await ctrl.start();
    ctrl.toggleForm(kyo);
    const form = ctrl.card('kyo').form!;
    form.setSeat(1, 'friend');
    form.submit();
    await flush();
    expect(invites).toEqual([['g2', [{ seat: 1, name: 'Gold', url: 'http://tabula.test/join/g2/1#t1' }]]]);
    expect(went).toEqual(['/game/g2']);
  });

  it('joins an open seat; a refusal shows under the lists until they are asked for again', async () => {
    let refuse = true;
    const { ctrl, seats, went } = setup(server((c) => {
      if (c.path !== '/api/games/g3/join') return undefined;
      return refuse ? Promise.reject(new Error('the seat is taken')) : { seat: 1, token: 'tok' };
    }));
    await ctrl.start();
    await ctrl.claim('g3', 1);
    expect(ctrl.joinErrors).toEqual(['the seat is taken']);
    await ctrl.refreshLists();
    expect(ctrl.joinErrors).toEqual([]);
    refuse = false;
    await ctrl.claim('g3', 1);
    expect(seats).toEqual([['g3', { seat: 1, token: 'tok' }]]);
    expect(went).toEqual(['/game/g3']);
  });

  it('imports a record: a file that is no record is refused here, a record opens its replay', async () => {
    const { ctrl, calls, went } = setup(server((c) => (c.path === '/api/records' ? { id: 'r1' } : undefined)));
    await ctrl.importRecord('{ not json');
    expect(ctrl.importError).toMatch(/^Cannot import: not JSON/);
    expect(calls).toHaveLength(0);
    await ctrl.importRecord(JSON.stringify({ game: 'kyo', actions: [] }));
    expect(calls[0].body).toMatchObject({ record: { game: 'kyo', actions: [] }, public: false });
    expect(went).toEqual(['/replay/r1']);
  });
});
