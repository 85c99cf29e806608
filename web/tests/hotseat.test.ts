// Hot-seat: which local seat the page shows, and when passing the device covers the board first.
import { describe, expect, it } from 'vitest';
import { canonical, inStep, needsCover, seatToShow } from '../src/logic/hotseat';

describe('seatToShow', () => {
  it('shows the local seat that owes the decision', () => {
    expect(seatToShow([0, 1], [1], 0)).toBe(1);
    expect(seatToShow([0, 1], [0], 1)).toBe(0);
    expect(seatToShow([0, 1], [0], null)).toBe(0);
    expect(seatToShow([0, 2], [2], 0)).toBe(2);
  });

  it('takes simultaneous decisions one after the other, keeping the shown seat while it owes one', () => {
    expect(seatToShow([0, 1], [0, 1], null)).toBe(0);
    expect(seatToShow([0, 1], [0, 1], 1)).toBe(1);
    // Seat 0 committed its hidden setup: seat 1 still owes its own.
    expect(seatToShow([0, 1], [1], 0)).toBe(1);
  });

  it('keeps the shown seat while no local seat owes a decision (the AI, chance, the game is over)', () => {
    expect(seatToShow([0, 2], [1], 2)).toBe(2);
    expect(seatToShow([0, 1], [], 1)).toBe(1);
    expect(seatToShow([0, 2], [1], null)).toBe(0);
    expect(seatToShow([], [0], null)).toBeNull();
    // A shown seat that is not local (never happens on a page) is replaced by a local one.
    expect(seatToShow([0, 1], [], 5)).toBe(0);
  });
});

describe('needsCover', () => {
  const kyo = { board: [[1, 2], [3]], turn: 4 };
  it('needs no cover between identical views (perfect information), whatever the key order', () => {
    expect(needsCover({ seq: 7, view: kyo }, { seq: 7, view: { turn: 4, board: [[1, 2], [3]] } })).toBe(false);
  });

  it('ignores whose view it is', () => {
    expect(needsCover(
      { seq: 3, view: { observer: { seat: 0 }, state: { a: 1 } } },
      { seq: 3, view: { observer: { seat: 1 }, state: { a: 1 } } },
    )).toBe(false);
  });

  it('covers when the views differ (hidden hands, a hidden setup)', () => {
    expect(needsCover(
      { seq: 3, view: { observer: { seat: 0 }, hands: [[5, 6], 2] } },
      { seq: 3, view: { observer: { seat: 1 }, hands: [2, [7, 8]] } },
    )).toBe(true);
    expect(needsCover({ seq: 1, view: { setup: ['K@a1'], enemy: null } }, { seq: 1, view: { setup: null, enemy: 'hidden' } })).toBe(true);
  });

  it('covers when it cannot tell (a state missing, or at another position)', () => {
    expect(needsCover(undefined, { seq: 1, view: kyo })).toBe(true);
    expect(needsCover({ seq: 1, view: kyo }, undefined)).toBe(true);
    expect(needsCover({ seq: 1, view: kyo }, { seq: 2, view: kyo })).toBe(true);
  });
});

describe('inStep and canonical', () => {
  it('is in step only when every local state is at the same position', () => {
    expect(inStep([{ seq: 4, view: null }, { seq: 4, view: 1 }])).toBe(true);
    expect(inStep([{ seq: 4, view: null }, { seq: 5, view: null }])).toBe(false);
    expect(inStep([{ seq: 4, view: null }, undefined])).toBe(false);
  });

  it('writes equal content equally', () => {
    expect(canonical({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
    expect(canonical({ a: { d: 1, c: 2 } })).toBe(canonical({ a: { c: 2, d: 1 } }));
    expect(canonical([1, 2])).not.toBe(canonical([2, 1]));
  });
});
