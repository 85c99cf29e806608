// @vitest-environment happy-dom
// Seat credentials of this device: several seats per game (hot-seat), kept in localStorage, read back
// after a reload, the format of a single seat (before hot-seat) still read.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadInvites, parseSeats, saveInvites, withSeat } from '../src/store';

const T = (c: string) => c.repeat(64);

describe('stored seats', () => {
  it('reads a list, a single seat (the older format), and nothing from a bad entry', () => {
    expect(parseSeats(JSON.stringify([{ seat: 1, token: T('b') }, { seat: 0, token: T('a') }]))).toEqual([
      { seat: 0, token: T('a') },
      { seat: 1, token: T('b') },
    ]);
    expect(parseSeats(JSON.stringify({ seat: 2, token: T('c') }))).toEqual([{ seat: 2, token: T('c') }]);
    expect(parseSeats(null)).toEqual([]);
    expect(parseSeats('{not json')).toEqual([]);
    expect(parseSeats('"text"')).toEqual([]);
    expect(parseSeats(JSON.stringify([{ seat: -1, token: 'x' }, { seat: 1.5, token: 'x' }, { seat: 0, token: '' }, { seat: 0 }, null, 7]))).toEqual([]);
    // A bad element does not spoil the good ones; extra fields are dropped.
    expect(parseSeats(JSON.stringify([{ seat: 'x' }, { seat: 1, token: T('d'), extra: true }]))).toEqual([{ seat: 1, token: T('d') }]);
  });

  it('adds a seat, or renews its token, keeping the others', () => {
    const one = withSeat([], [{ seat: 1, token: T('a') }]);
    const two = withSeat(one, [{ seat: 0, token: T('b') }]);
    expect(two).toEqual([{ seat: 0, token: T('b') }, { seat: 1, token: T('a') }]);
    expect(withSeat(two, [{ seat: 1, token: T('c') }])).toEqual([{ seat: 0, token: T('b') }, { seat: 1, token: T('c') }]);
    expect(one).toEqual([{ seat: 1, token: T('a') }]); // not changed in place
  });
});

describe('localStorage', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.resetModules(); // a fresh module: what a reloaded page reads
  });

  it('keeps every seat of a game across a reload, each game apart', async () => {
    const first = await import('../src/store');
    first.saveSeat('g1', { seat: 0, token: T('a') });
    first.saveSeat('g1', { seat: 1, token: T('b') });
    first.saveSeat('g2', { seat: 1, token: T('c') });
    expect(first.loadSeats('g1').map((c) => c.seat)).toEqual([0, 1]);
    vi.resetModules();
    const reloaded = await import('../src/store');
    expect(reloaded.loadSeats('g1')).toEqual([{ seat: 0, token: T('a') }, { seat: 1, token: T('b') }]);
    expect(reloaded.loadSeats('g2')).toEqual([{ seat: 1, token: T('c') }]);
    expect(reloaded.loadSeats('g3')).toEqual([]);
  });

  it('adds a seat to a single seat stored in the older format', async () => {
    localStorage.setItem('tabula:seat:old', JSON.stringify({ seat: 1, token: T('a') }));
    const store = await import('../src/store');
    expect(store.loadSeats('old')).toEqual([{ seat: 1, token: T('a') }]);
    store.saveSeat('old', { seat: 0, token: T('b') });
    expect(JSON.parse(localStorage.getItem('tabula:seat:old') ?? 'null')).toEqual([{ seat: 0, token: T('b') }, { seat: 1, token: T('a') }]);
  });
});

describe('invitation links', () => {
  it('keeps the creator\'s links per game and reads back only well-formed ones', () => {
    const url = `http://localhost/join/g1/1/${T('a')}`;
    saveInvites('g1', [{ seat: 1, name: 'Red', url }]);
    expect(loadInvites('g1')).toEqual([{ seat: 1, name: 'Red', url }]);
    expect(loadInvites('g2')).toEqual([]);
    localStorage.setItem('tabula:invites:g3', '{broken');
    expect(loadInvites('g3')).toEqual([]);
    localStorage.setItem('tabula:invites:g4', JSON.stringify([{ seat: 1, name: 'Red', url: 'javascript:alert(1)' }, { seat: 'x' }, 5]));
    expect(loadInvites('g4')).toEqual([]);
  });
});
