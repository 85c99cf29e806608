import { ev } from './events';
import { describe, expect, it } from 'vitest';
import { PendingAction } from '../src/logic/pending';

const act = (seq: number, seat: number | 'chance') => (ev({ seq, kind: 'action', actor: seat === 'chance' ? ('chance' as const) : { seat } }));

describe('the pending action', () => {
  it('stays pending through unrelated updates (a join, the opponent, chance)', () => {
    const p = new PendingAction();
    p.sent(7);
    p.onState('update', 5, [ev({ seq: 5, kind: 'join', seat: 1 })], 0);
    p.onState('update', 6, [act(6, 'chance')], 0);
    p.onState('update', 7, [act(7, 1)], 0);
    expect(p.pending).toBe(true);
  });
  it("ends with the update carrying this seat's action", () => {
    const p = new PendingAction();
    p.sent(1);
    p.onState('update', 9, [act(8, 0), act(9, 'chance')], 0);
    expect(p.pending).toBe(false);
  });
  it('ends with the ack once the state has caught up, whichever comes first', () => {
    const early = new PendingAction();
    early.sent(3);
    early.onAck(3, 12, 11); // acknowledged as event 12; the page is at 11
    expect(early.pending).toBe(true);
    early.onState('update', 12, [], null);
    expect(early.pending).toBe(false);
    const late = new PendingAction();
    late.sent(4);
    late.onAck(4, 12, 12);
    expect(late.pending).toBe(false);
  });
  it('ignores acks and errors of other requests', () => {
    const p = new PendingAction();
    p.sent(5);
    p.onAck(4, 20, 30);
    p.onError(6);
    expect(p.pending).toBe(true);
    p.onError(5);
    expect(p.pending).toBe(false);
  });
  it('ends with a refusal that names no request, and with a snapshot', () => {
    const p = new PendingAction();
    p.sent(5);
    p.onError(null);
    expect(p.pending).toBe(false);
    p.sent(6);
    p.onState('snapshot', 3, [], 0);
    expect(p.pending).toBe(false);
  });
});
