// @vitest-environment happy-dom
// A turn's slides share one budget (src/games/board.ts `bookSlide`): a turn of many steps never
// declares more than TURN_MS of slides in all; a new turn starts afresh.
import { describe, expect, it } from 'vitest';
import { bookSlide, MOVE_MS, TURN_MS } from '../src/games/board';
import { lastTurnKey } from '../src/logic/replay';
import type { MoveEntry } from '../src/logic/snapshot';

describe('a turn\'s animation budget', () => {
  it('books at most TURN_MS for the steps of one turn, whatever their number', () => {
    const booked = Array.from({ length: 25 }, () => bookSlide('/game/x kyo', '7:1'));
    const sum = booked.reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThanOrEqual(TURN_MS);
    expect(booked[0]).toBe(MOVE_MS);
    expect(booked.filter((ms) => ms > 0).length).toBeGreaterThan(1);
    expect(booked.slice(-5)).toEqual([0, 0, 0, 0, 0]);
    expect(document.documentElement.dataset.turnAnim).toBe('7:1');
    expect(Number(document.documentElement.dataset.turnAnimMs)).toBe(sum);
    // The next turn slides again; another page or game keeps its own account.
    expect(bookSlide('/game/x kyo', '8:0')).toBe(MOVE_MS);
    expect(bookSlide('/game/y kyo', '7:1')).toBe(MOVE_MS);
    // Without a turn (a lesson, a review), each slide on its own.
    expect(bookSlide('/learn kyo', undefined)).toBe(MOVE_MS);
    expect(bookSlide('/learn kyo', undefined)).toBe(MOVE_MS);
  });

  it('keys the last seat move\'s turn, skipping chance', () => {
    const m = (seq: number, actor: MoveEntry['actor'], turn?: number): MoveEntry => ({ seq, actor, notation: 'x', cells: [], turn });
    const moves = [m(1, { seat: 0 }, 0), m(2, { seat: 1 }, 1), m(3, 'chance', 1)];
    expect(lastTurnKey(moves, 3)).toBe('1:1');
    expect(lastTurnKey(moves, 1)).toBe('0:0');
    expect(lastTurnKey(moves, 0)).toBeUndefined();
    expect(lastTurnKey([m(5, { seat: 0 })], 1)).toBe('seq 5');
  });
});
