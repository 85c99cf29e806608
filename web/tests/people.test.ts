// How people's ratings and rating changes are written (pages/people.ts).
import { describe, expect, it } from 'vitest';
import { changeText, ratingText, resultAgainst } from '../src/pages/people';

describe('people', () => {
  it('writes a rating rounded, with a thousands separator, "?" when provisional', () => {
    expect(ratingText(1511.6, false)).toBe('1,512');
    expect(ratingText(1487.9, true)).toBe('1,488?');
    expect(ratingText(987.2, false)).toBe('987');
    // No rating yet: the starting 1500, provisional.
    expect(ratingText(null, true)).toBe('1,500?');
  });

  it('writes a change with its sign, a minus sign for a loss', () => {
    expect(changeText(12.4)).toBe('+12');
    expect(changeText(-12.4)).toBe('\u221212');
    expect(changeText(0.3)).toBe('±0');
  });

  it('says the result from the player\'s side', () => {
    expect(resultAgainst('win')).toBe('won against');
    expect(resultAgainst('loss')).toBe('lost to');
    expect(resultAgainst('draw')).toBe('drew with');
    expect(resultAgainst(null)).toBe('played');
  });
});
