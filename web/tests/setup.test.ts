import { describe, expect, it } from 'vitest';
import { cairdSetup, swap, trumpSetup } from '../src/logic/setup';

describe('setup editor', () => {
  it('reads, swaps and writes a Trump army', () => {
    const d = trumpSetup.fromAction({ setup: { k3: 'king', j2: 'mountain' } });
    expect(d).not.toBeNull();
    if (!d) return;
    const e = swap(d, 'k3', 'k4', 'pieces');
    expect(trumpSetup.toAction(e)).toEqual({ setup: { j2: 'mountain', k4: 'king' } });
    const f = swap(e, 'k4', 'j2', 'pieces');
    expect(trumpSetup.toAction(f)).toEqual({ setup: { j2: 'king', k4: 'mountain' } });
    expect(trumpSetup.fromAction({ move: { from: 'a1', to: 'a2' } })).toBeNull();
    expect(trumpSetup.fromAction('pass')).toBeNull();
  });
  it('reads, swaps and writes a Caird plan in home order, terrain separately', () => {
    const home = ['a1', 'b1', 'c1', 'd1'];
    const io = cairdSetup(home);
    const d = io.fromAction({ setup: { terrain: 'c..w', pieces: 'K.R.' } });
    expect(d).not.toBeNull();
    if (!d) return;
    const e = swap(d, 'a1', 'b1', 'pieces');
    expect(io.toAction(e)).toEqual({ setup: { terrain: 'c..w', pieces: '.KR.' } });
    const f = swap(e, 'a1', 'd1', 'terrain');
    expect(io.toAction(f)).toEqual({ setup: { terrain: 'w..c', pieces: '.KR.' } });
    expect(io.toAction(io.fromAction({ setup: { pieces: 'RRRR' } }) ?? { pieces: new Map(), terrain: new Map() })).toEqual({ setup: { terrain: '', pieces: 'RRRR' } });
    expect(io.fromAction({ setup: { pieces: 3 } })).toBeNull();
  });
});
