// The stack editor (src/logic/restack.ts) over Kyo's real shuffles: the arrangement made by drags and
// swaps is matched against the listed reorders only; anything else is refused in words.
import { describe, expect, it } from 'vitest';
import { StackEditor, reordersAt } from '../src/logic/restack';
import { kyoRestack } from '../src/games/kyo';
import type { LegalAction } from '../src/logic/select';

/** A Kyo shuffle as the server lists it. */
const shuffle = (at: string, order: string): LegalAction => ({ action: { shuffle: { at, order } }, notation: `${at}~${order}`, words: `Gold: reorders ${at} to ${order}`, cells: [at] });
const step: LegalAction = { action: { step: { from: 'B0', to: 'B1', chips: 3, pawn: true } }, notation: 'B0-B1', words: 'Gold: Heavy B0 → B1', cells: ['B0', 'B1'] };
// Heavy B0 on Dark, Dark, Light (bottom to top): the engine lists L D (top two) and L D D (all three).
const view = { board: { B0: 'DDLH', F0: 'DLSQ' } };
const legal = [step, shuffle('B0', 'LD'), shuffle('B0', 'LDD')];

function editor(): StackEditor {
  const chips = kyoRestack.chips(view, 'B0');
  if (!chips) throw new Error('no stack on B0');
  return new StackEditor('B0', chips, reordersAt(legal, kyoRestack, 'B0'), kyoRestack);
}

describe('StackEditor', () => {
  it('reads the stack and the listed reorders', () => {
    expect(reordersAt(legal, kyoRestack, 'B0').map((a) => a.notation)).toEqual(['B0~LD', 'B0~LDD']);
    const ed = editor();
    expect(ed.chips().map((c) => c.kind).join('')).toBe('DDL');
    expect(ed.below).toEqual([]);
    expect(ed.match()).toBeNull();
    expect(ed.why()).toBe('This is the order the stack has now: move a chip to change it.');
  });

  it('a drag moves a chip to its new place: the top Light to the bottom is L D D', () => {
    const ed = editor();
    ed.move(2, 0);
    expect(ed.chips().map((c) => c.kind).join('')).toBe('LDD');
    expect(ed.order()).toBe('LDD');
    expect(ed.match()?.notation).toBe('B0~LDD');
    expect(ed.why()).toBeNull();
  });

  it('two taps swap two chips; the order is written from the lowest changed chip', () => {
    const ed = editor();
    ed.tap(2);
    expect(ed.picked).toBe(2);
    ed.tap(1);
    expect(ed.picked).toBeNull();
    expect(ed.chips().map((c) => c.kind).join('')).toBe('DLD');
    expect(ed.order()).toBe('LD');
    expect(ed.match()?.notation).toBe('B0~LD');
    // Swapping the two Dark chips changes nothing the rules count.
    ed.reset();
    ed.tap(0);
    ed.tap(1);
    expect(ed.order()).toBe('');
    expect(ed.match()).toBeNull();
  });

  it('an arrangement the server did not list cannot be confirmed, and says why', () => {
    // The Queen on Dark, Light, Shield with a made-up list that allows only L D S: a Shield under Mana
    // is refused in the rules' words; another unlisted order is refused plainly.
    const q = kyoRestack.chips(view, 'F0');
    if (!q) throw new Error('no stack on F0');
    const ed = new StackEditor('F0', q, [shuffle('F0', 'LDS'), shuffle('F0', 'DS')], kyoRestack);
    ed.move(2, 0);
    expect(ed.chips().map((c) => c.kind).join('')).toBe('SDL');
    expect(ed.match()).toBeNull();
    expect(ed.why()).toBe('A Shield may not lie under a Mana chip: put the Shields on top.');
    ed.reset();
    ed.tap(0);
    ed.tap(1);
    expect(ed.match()?.notation).toBe('F0~LDS');
  });

  it('only the chips the deepest reorder reaches may move; the rest stay below', () => {
    const tall = kyoRestack.chips({ board: { C0: 'SDDLH' } }, 'C0');
    if (!tall) throw new Error('no stack on C0');
    const ed = new StackEditor('C0', tall, [shuffle('C0', 'LD'), shuffle('C0', 'LDD')], kyoRestack);
    expect(ed.below.map((c) => c.kind)).toEqual(['S']);
    expect(ed.chips().map((c) => c.kind).join('')).toBe('DDL');
    // Out-of-range places are ignored.
    ed.move(0, 7);
    ed.tap(-1);
    expect(ed.order()).toBe('');
  });

  it('reads only shuffles as reorders', () => {
    expect(kyoRestack.reorder(step.action)).toBeNull();
    expect(kyoRestack.reorder('end')).toBeNull();
    expect(kyoRestack.reorder({ shuffle: { at: 'B0', order: 3 } })).toBeNull();
    expect(kyoRestack.chips(view, 'J9')).toBeNull();
  });
});
