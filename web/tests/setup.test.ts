import { describe, expect, it } from 'vitest';
import { cairdSetup, setupLabel, setupRefusal, swap, trumpSetup } from '../src/logic/setup';

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
  it('labels the listed setups by the origin their notation names', () => {
    // The notations of the game crates (cyvasse::trump listed_setup_labels, cyvasse::caird listed_setups).
    expect(setupLabel('setup preset=phalanx Kk3 Xj2 Mg1', 0)).toBe('Preset: phalanx');
    expect(setupLabel('setup mirrored-preset=citadel Kk11 Xj2', 1)).toBe('Preset: citadel (mirrored)');
    expect(setupLabel('setup random=2 Kk3 Xj2', 9)).toBe('Random 2');
    expect(setupLabel('setup king-safe-random=4 Kk1 Xj2', 15)).toBe('King-safe random 4');
    expect(setupLabel('setup preset=flanks pieces=MM..K terrain=..c..', 2)).toBe('Preset: flanks');
    expect(setupLabel('setup random=5 pieces=RRSS terrain=', 7)).toBe('Random 5');
    // Without a label (an edited army, an older server): numbered in the server's order.
    expect(setupLabel('setup Kk3 Xj2 Mg1', 0)).toBe('Setup 1');
    expect(setupLabel('setup pieces=RRSS', 4)).toBe('Setup 5');
    expect(setupLabel('setup colour=red Kk3', 1)).toBe('Setup 2');
  });
  it("turns the server's refusal of a setup into readable reasons", () => {
    // Caird: one reason behind the protocol's and the game's prefixes.
    expect(setupRefusal('illegal action: setup refused: the King stands on c1 but must start in the Fortress'))
      .toEqual(['The King stands on c1 but must start in the Fortress']);
    // Strength & Trump: every problem, separated by "; ".
    expect(setupRefusal('illegal action: f6 is not on South\'s home rows g–k; 1 × King missing (an army has 1, 0 placed)'))
      .toEqual(["F6 is not on South's home rows g–k", '1 × King missing (an army has 1, 0 placed)']);
    expect(setupRefusal('malformed action: unknown piece letter `Q` at a1 (valid: K D E T C H L S R M .)'))
      .toEqual(['Unknown piece letter `Q` at a1 (valid: K D E T C H L S R M .)']);
    expect(setupRefusal('it is not White\'s decision now')).toEqual(["It is not White's decision now"]);
    expect(setupRefusal('')).toEqual(['No reason given']);
  });
});

