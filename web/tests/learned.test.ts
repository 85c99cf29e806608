// @vitest-environment happy-dom
// What this device remembers of learning: solved lessons per game, whether any lesson was solved (a
// newcomer's quick game is against AI level 1), the next unsolved lesson, and the first finished game
// of each kind (which suggests that lesson).
import { beforeEach, describe, expect, it } from 'vitest';
import { firstFinish, markSolved, nextUnsolved, solvedAny, solvedLessons } from '../src/logic/learned';

describe('learned on this device', () => {
  beforeEach(() => localStorage.clear());

  it('remembers solved lessons per game and finds the next unsolved one', () => {
    expect(solvedAny()).toBe(false);
    expect(nextUnsolved('kyo', 3)).toBe(1);
    markSolved('kyo', 1);
    markSolved('kyo', 1);
    markSolved('kyo', 3);
    expect([...solvedLessons('kyo')].sort()).toEqual([1, 3]);
    expect(solvedLessons('syba').size).toBe(0);
    expect(solvedAny()).toBe(true);
    expect(nextUnsolved('kyo', 3)).toBe(2);
    markSolved('kyo', 2);
    expect(nextUnsolved('kyo', 3)).toBe(null);
  });

  it('says a finished game is the first of its kind only once per kind', () => {
    expect(firstFinish('kyo')).toBe(true);
    expect(firstFinish('kyo')).toBe(false);
    expect(firstFinish('territories')).toBe(true);
  });

  it('reads a foreign or broken entry as nothing solved', () => {
    localStorage.setItem('tabula:learn:solved:kyo', '{not json');
    expect(solvedLessons('kyo').size).toBe(0);
    localStorage.setItem('tabula:learn:solved:kyo', JSON.stringify(['x', '-1', '2']));
    expect([...solvedLessons('kyo')]).toEqual([2]);
  });
});
