// The replay page's words for a waiting analysis: its place in the queue ("3rd") and the estimate
// ("about 40 s"), from src/pages/replay/views.ts.
import { describe, expect, it } from 'vitest';
import { aboutTime, ordinal } from '../src/pages/replay/views';

describe('a waiting analysis in words', () => {
  it('names its place in the queue', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual(
      ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th']);
  });

  it('says about how long, in seconds, minutes or hours', () => {
    expect(aboutTime(0)).toBe('1 s');
    expect(aboutTime(40)).toBe('40 s');
    expect(aboutTime(59.4)).toBe('59 s');
    expect(aboutTime(150)).toBe('3 min');
    expect(aboutTime(3600)).toBe('1 h');
    expect(aboutTime(3900)).toBe('1 h 5 min');
  });
});
