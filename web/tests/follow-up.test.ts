// The common follow-up of a move the engine splits in two, per game (src/games/syba.ts, trump.ts):
// Syba's selection of the units that go, opened with all of them chosen, is confirmed; Cyvasse Trump's
// horse, after its first leg, ends there. Nothing follows anywhere else.
import { describe, expect, it } from 'vitest';
import { sybaRenderer } from '../src/games/syba';
import { trumpRenderer } from '../src/games/trump';
import type { LegalAction } from '../src/logic/select';

const la = (notation: string, cells: string[] = []): LegalAction => ({ action: notation, notation, words: notation, cells });

describe('follow-ups', () => {
  it('Syba: confirm the selection this seat chooses, nothing otherwise', () => {
    const legal = [la('hold u3', ['u3']), la('hold u4', ['u4']), la('confirm'), la('withdraw')];
    const selecting = (seat: number) => ({ observer: { seat }, city_strength: [], state: { stack: [{ select: { seat, purpose: { move: { from: 0, to: 1 } }, chosen: [3, 4] } }] } });
    const f = sybaRenderer.followUp;
    if (!f) throw new Error('Syba has no follow-up');
    expect(f(selecting(0) as never, legal, 0)?.notation).toBe('confirm');
    // Another seat's selection (an interception against this seat's move) is not this seat's to confirm.
    expect(f(selecting(1) as never, legal, 0)).toBeNull();
    expect(f({ observer: { seat: 0 }, city_strength: [], state: { stack: [] } } as never, [la('end')], 0)).toBeNull();
  });

  it('Cyvasse Trump: a horse\'s second leg declined (end) after the first; nothing after other moves', () => {
    const f = trumpRenderer.followUp;
    if (!f) throw new Error('Trump has no follow-up');
    const view = {} as never;
    expect(f(view, [la('g5-g6', ['g5', 'g6']), la('g5-f6', ['g5', 'f6']), la('end')], 0)?.notation).toBe('end');
    expect(f(view, [la('g5-g6', ['g5', 'g6']), la('h2-h3', ['h2', 'h3']), la('end')], 0)).toBeNull();
    expect(f(view, [la('g5-g6', ['g5', 'g6']), la('pass')], 0)).toBeNull();
  });
});
