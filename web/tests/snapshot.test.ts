import { ev } from './events';
import { describe, expect, it } from 'vitest';
import {
  clockIsLow, drawDeclinedBy, formatClock, lastTakeback, merge, moveList, myResult, recentChance, seatsMarkedToAct, statusLine, statusState,
  type Snapshot,
} from '../src/logic/snapshot';
import { reconnectDelay } from '../src/logic/backoff';

function snap(over: Partial<Snapshot>): Snapshot {
  return {
    type: 'snapshot', id: 'g1', game: 'kyo', name: 'Kyo', status: 'running', seq: 2, now: 0, you: { seat: 0 },
    rated: false, takeback_offer: null, legal_sampled: false, seed_commitment: '', seed: null,
    seats: [{ seat: 0, name: 'Gold', kind: 'human', joined: true }, { seat: 1, name: 'Red', kind: 'ai', level: 3, joined: true }],
    options: {}, to_act: { seat: 0 }, view: {}, legal: [], draw_offer: null, clock: null, result: null, rematch: null, may: null,
    events: [ev({ seq: 1, kind: 'created' }), ev({ seq: 2, kind: 'start' })],
    ...over,
  };
}

describe('merging server messages', () => {
  it('appends update events and detects no gap when contiguous', () => {
    const a = merge(null, snap({}));
    const b = merge(a.model, snap({ type: 'update', seq: 3, events: [ev({ seq: 3, kind: 'action', actor: { seat: 0 }, notation: 'A3-A4' })] }));
    expect(b.gap).toBe(false);
    expect(b.model.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });
  it('detects a gap in seq so the client can sync', () => {
    const a = merge(null, snap({}));
    const b = merge(a.model, snap({ type: 'update', seq: 5, events: [ev({ seq: 5, kind: 'action', actor: { seat: 1 }, notation: 'x' })] }));
    expect(b.gap).toBe(true);
  });
  it('fills the missed events after a reconnect with since=K', () => {
    const a = merge(null, snap({}));
    const b = merge(a.model, snap({ type: 'snapshot', seq: 4, events: [ev({ seq: 3, kind: 'action', actor: { seat: 0 }, notation: 'a' }), ev({ seq: 4, kind: 'action', actor: 'chance', notation: '5' })] }));
    expect(b.gap).toBe(false);
    expect(b.model.events).toHaveLength(4);
  });
  it('ignores duplicate events', () => {
    const a = merge(null, snap({}));
    const b = merge(a.model, snap({ seq: 2, events: [ev({ seq: 2, kind: 'start' })] }));
    expect(b.model.events).toHaveLength(2);
    expect(b.gap).toBe(false);
  });
});

describe('move list and status', () => {
  const events = [
    ev({ seq: 1, kind: 'created' }),
    ev({ seq: 2, kind: 'action', actor: { seat: 0 }, notation: 'A3-A4' }),
    ev({ seq: 3, kind: 'action', actor: { seat: 1 }, notation: null }),
    ev({ seq: 4, kind: 'action', actor: 'chance' as const, notation: '3+4' }),
  ];
  it('lists actions with hidden ones kept as hidden', () => {
    const m = moveList(events);
    expect(m.map((x) => x.notation)).toEqual(['A3-A4', null, '3+4']);
    expect(recentChance(events)).toEqual(['3+4']);
  });
  it('says whose move it is and who won', () => {
    expect(statusLine(snap({}))).toBe('Your move');
    expect(statusLine(snap({ to_act: { seat: 1 } }))).toBe('Waiting for Red');
    expect(statusLine(snap({ to_act: { seats: [0, 1] } }))).toContain('same time');
    const over = snap({ to_act: { over: { results: ['loss', 'win'], reason: 'king captured' } } });
    expect(statusLine(over)).toBe('You lose — King captured: Red wins');
    expect(statusLine({ ...over, you: 'spectator' })).toBe('Red wins — King captured');
    expect(statusLine({ ...over, you: { seat: 1 } })).toBe('You win — King captured');
    expect(statusLine(snap({ result: { results: ['draw', 'draw'], reason: 'draw by agreement' } }))).toBe('Draw — Draw by agreement');
    expect(statusState(over)).toBe('over');
    expect(myResult({ results: ['loss', 'win'], reason: '' }, 0)).toBe('You lose');
    expect(myResult({ results: ['draw', 'draw'], reason: '' }, 1)).toBe('Draw');
    const waiting = snap({ status: 'waiting', to_act: { seats: [0, 1] }, seats: [{ seat: 0, name: 'Gold', kind: 'human', joined: true }, { seat: 1, name: 'Red', kind: 'human', joined: false }] });
    expect(statusLine(waiting)).toBe('Waiting for your opponent to join (Red)');
    expect(statusLine({ ...waiting, you: 'spectator' })).toBe('Waiting for players to join: Red');
    expect(statusState(waiting)).toBe('waiting');
    expect(statusState(snap({}))).toBe('yours');
    expect(statusState(snap({ to_act: { seat: 1 } }))).toBe('others');
  });
  it('marks nobody as to act while a game waits for players or is over', () => {
    const seats = [{ seat: 0, name: 'Gold', kind: 'human' as const, joined: true }, { seat: 1, name: 'Red', kind: 'human' as const, joined: false }];
    expect(seatsMarkedToAct(snap({ status: 'waiting', to_act: { seats: [0, 1] }, seats }))).toEqual([]);
    expect(seatsMarkedToAct(snap({ to_act: { over: { results: ['win', 'loss'], reason: 'resignation' } } }))).toEqual([]);
    expect(seatsMarkedToAct(snap({ to_act: { seats: [0, 1] } }))).toEqual([0, 1]);
  });
  it('tells when a draw offer was declined, until the next move or offer', () => {
    const base = [ev({ seq: 1, kind: 'created' }), ev({ seq: 2, kind: 'action', actor: { seat: 0 } })];
    expect(drawDeclinedBy(snap({ events: [...base, ev({ seq: 3, kind: 'draw_offer', seat: 0 }), ev({ seq: 4, kind: 'draw_decline', seat: 1 })] }))).toBe(1);
    expect(drawDeclinedBy(snap({ events: [...base, ev({ seq: 3, kind: 'draw_offer', seat: 0 }), ev({ seq: 4, kind: 'draw_decline', seat: 1 }), ev({ seq: 5, kind: 'action', actor: { seat: 0 } })] }))).toBe(null);
    expect(drawDeclinedBy(snap({ events: [...base, ev({ seq: 3, kind: 'draw_offer', seat: 0 })] }))).toBe(null);
  });
  it('shows a clock as low under 10 seconds (correspondence: under an hour)', () => {
    expect(clockIsLow(9_999, 'fischer')).toBe(true);
    expect(clockIsLow(10_000, 'fischer')).toBe(false);
    expect(clockIsLow(59 * 60_000, 'correspondence')).toBe(true);
    expect(clockIsLow(2 * 3_600_000, 'correspondence')).toBe(false);
  });
  it('formats clocks', () => {
    expect(formatClock(65000)).toBe('1:05');
    expect(formatClock(3_725_000)).toBe('1:02:05');
    expect(formatClock(-5)).toBe('0:00');
    expect(formatClock(3 * 86400000)).toBe('3d 0h');
  });
  it('backs off reconnects exponentially up to a cap', () => {
    expect(reconnectDelay(0, () => 1)).toBe(250);
    expect(reconnectDelay(3, () => 1)).toBe(2000);
    expect(reconnectDelay(30, () => 1)).toBe(8000);
    expect(reconnectDelay(30, () => 0)).toBe(4000);
  });
});

describe('takebacks', () => {
  const played = [
    ev({ seq: 1, kind: 'created' }), ev({ seq: 2, kind: 'start' }),
    ev({ seq: 3, kind: 'action', actor: 'chance' as const, notation: 'Gold goes first' }),
    ev({ seq: 4, kind: 'action', actor: { seat: 0 }, notation: 'a' }),
    ev({ seq: 5, kind: 'action', actor: { seat: 1 }, notation: 'b' }),
  ];
  it('leaves the undone actions out of the move list (they stay in the log)', () => {
    const events = [...played, ev({ seq: 6, kind: 'takeback_offer', seat: 0 }), ev({ seq: 7, kind: 'takeback_accept', seat: 1 }),
      ev({ seq: 8, kind: 'takeback', seat: 0, to_seq: 3 }), ev({ seq: 9, kind: 'action', actor: { seat: 0 }, notation: 'c' })];
    expect(moveList(events).map((m) => m.notation)).toEqual(['Gold goes first', 'c']);
    expect(lastTakeback(snap({ events: events.slice(0, 8) }))).toEqual({ done: 0 });
    expect(lastTakeback(snap({ events }))).toBeNull();
  });
  it('remembers a declined request until the next move', () => {
    const events = [...played, ev({ seq: 6, kind: 'takeback_offer', seat: 0 }), ev({ seq: 7, kind: 'takeback_decline', seat: 1 })];
    expect(lastTakeback(snap({ events }))).toEqual({ declined: 1 });
    expect(moveList(events)).toHaveLength(3);
  });
});
