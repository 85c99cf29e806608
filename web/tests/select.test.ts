import { describe, expect, it } from 'vitest';
import { Selection, groupByVerb, ownWords, type LegalAction } from '../src/logic/select';

/** A legal action as the server sends it: its cells are the engine's, not read from the notation. */
const la = (notation: string, cells: string[] = []): LegalAction => ({ action: { n: notation }, notation, words: `Gold: ${notation} in words`, cells });

describe('Selection with the common variant first (Kyo)', () => {
  // As the Kyo engine lists them: the whole slice first, then fewer chips, then the chips alone; a
  // reorder of the stack names the stack alone.
  const kyo = () => new Selection([
    la('B0-B1', ['B0', 'B1']), la('B0/1-B1', ['B0', 'B1']), la('B0(3)-B1', ['B0', 'B1']),
    la('B0-C1', ['B0', 'C1']), la('B0~LDD', ['B0']), la('A3-A4', ['A3', 'A4']),
  ], true);

  it('makes the first listed of several actions on the same cells at once', () => {
    const sel = kyo();
    expect(sel.click('B0')).toEqual({ kind: 'select' });
    const r = sel.click('B1');
    expect(r.kind).toBe('submit');
    if (r.kind === 'submit') expect(r.action.notation).toBe('B0-B1');
    expect(sel.prefix).toEqual([]);
  });

  it('selects a stack that could also be reordered, instead of opening the reorders', () => {
    const sel = kyo();
    expect(sel.click('B0')).toEqual({ kind: 'select' });
    expect([...sel.targets()].sort()).toEqual(['B1', 'C1']);
  });

  it('offers the variants of a target, the reorders of a stack, one step away', () => {
    const sel = kyo();
    expect(sel.variants('B0').map((a) => a.notation)).toEqual(['B0~LDD']);
    sel.click('B0');
    expect(sel.variants('B1').map((a) => a.notation)).toEqual(['B0-B1', 'B0/1-B1', 'B0(3)-B1']);
    expect(sel.variants('C1').map((a) => a.notation)).toEqual(['B0-C1']);
    expect(sel.variants('B0').map((a) => a.notation)).toEqual(['B0~LDD']);
    expect(sel.variants('J9')).toEqual([]);
    // Another stack of one's own: its own variants (none complete at A3 alone).
    expect(sel.variants('A3')).toEqual([]);
  });

  it('still chooses among them without the engine\'s order (other games)', () => {
    const sel = new Selection(kyo().legal, false);
    sel.click('B0');
    expect(sel.click('B1').kind).toBe('choose');
  });
});

describe('Selection', () => {
  it('highlights the starting cells, then the targets of the chosen piece', () => {
    const sel = new Selection([la('a1-a2', ['a1', 'a2']), la('a1-a3', ['a1', 'a3']), la('b1-b2', ['b1', 'b2']), la('pass')]);
    expect([...sel.targets()].sort()).toEqual(['a1', 'b1']);
    expect(sel.click('a1')).toEqual({ kind: 'select' });
    expect([...sel.targets()].sort()).toEqual(['a2', 'a3']);
    expect(sel.cellless().map((a) => a.notation)).toEqual(['pass']);
  });

  it('submits the single action completed by a click', () => {
    const sel = new Selection([la('a1-a2', ['a1', 'a2']), la('a1-a3', ['a1', 'a3'])]);
    sel.click('a1');
    const r = sel.click('a3');
    expect(r.kind).toBe('submit');
    if (r.kind === 'submit') expect(r.action.notation).toBe('a1-a3');
    expect(sel.prefix).toEqual([]);
  });

  it('offers a choice when several actions name the same cells', () => {
    const sel = new Selection([la('a1-a2', ['a1', 'a2']), la('a1-a2/1', ['a1', 'a2']), la('a1-a3', ['a1', 'a3'])]);
    sel.click('a1');
    const r = sel.click('a2');
    expect(r.kind).toBe('choose');
    if (r.kind === 'choose') expect(r.options.map((o) => o.notation)).toEqual(['a1-a2', 'a1-a2/1']);
  });

  it('offers a choice when an action completes here but longer ones continue', () => {
    const sel = new Selection([la('a1*a2', ['a1', 'a2']), la('a1*a2*b2', ['a1', 'a2', 'b2'])]);
    sel.click('a1');
    const r = sel.click('a2');
    expect(r.kind).toBe('choose');
    expect([...sel.targets()]).toEqual(['b2']);
  });

  it('restarts from another piece, and clears on a cell nothing starts from', () => {
    const sel = new Selection([la('a1-a2', ['a1', 'a2']), la('b1-b2', ['b1', 'b2'])]);
    sel.click('a1');
    expect(sel.click('b1')).toEqual({ kind: 'select' });
    expect(sel.prefix).toEqual(['b1']);
    expect(sel.click('a3')).toEqual({ kind: 'clear', cells: ['b1', 'a3'] });
    expect(sel.prefix).toEqual([]);
  });

  it('submits a one-cell action (a placement) on the first click', () => {
    const sel = new Selection([la('K@a1', ['a1']), la('K@a2', ['a2'])]);
    const r = sel.click('a2');
    expect(r.kind).toBe('submit');
  });
});

describe('cells come from the server, not from the notation', () => {
  it('offers an action without cells as a button, whatever cells its notation names', () => {
    const sel = new Selection([la('setup Ka1 Ra2 Ra3', []), la('a1-a2', ['a1', 'a2'])]);
    expect(sel.cellless().map((a) => a.notation)).toEqual(['setup Ka1 Ra2 Ra3']);
    expect([...sel.targets()]).toEqual(['a1']);
  });
  it('clicks through the cells the server lists, in its order, even when the notation names others', () => {
    const sel = new Selection([la('attack city:kaul', ['kaul']), la('move u12 heran', ['u12', 'heran'])]);
    expect([...sel.targets()].sort()).toEqual(['kaul', 'u12']);
    expect(sel.click('u12')).toEqual({ kind: 'select' });
    const r = sel.click('heran');
    expect(r.kind).toBe('submit');
    if (r.kind === 'submit') expect(r.action.notation).toBe('move u12 heran');
  });
});

describe('auto-selection of the only piece that can act', () => {
  it('pre-selects a horse between its legs', () => {
    const sel = new Selection([la('a1-a2', ['a1', 'a2']), la('a1xa3', ['a1', 'a3']), la('end')]);
    expect(sel.autoSelect()).toBe(true);
    expect([...sel.targets()].sort()).toEqual(['a2', 'a3']);
  });
  it('does not when several pieces can act or an action ends on the first cell', () => {
    expect(new Selection([la('a1-a2', ['a1', 'a2']), la('b1-a3', ['b1', 'a3'])]).autoSelect()).toBe(false);
    expect(new Selection([la('a1-a2', ['a1', 'a2']), la('a1~DLS', ['a1'])]).autoSelect()).toBe(false);
  });
});

describe('grouping buttons', () => {
  it('groups by the first word, keeping the order of first appearance', () => {
    const g = groupByVerb([la('give H'), la('ask S'), la('give D'), la('end'), la('bank D>S')]);
    expect(g.map(([v, l]) => [v, l.map((a) => a.notation)])).toEqual([
      ['give', ['give H', 'give D']], ['ask', ['ask S']], ['end', ['end']], ['bank', ['bank D>S']],
    ]);
  });
});

describe('keeping a half-made choice over an update', () => {
  // Moves `x-y` (and their slices `x-y/n`) between the two cells they name.
  const legal = (...ns: string[]) => ns.map((n) => ({ action: n, notation: n, words: n, cells: n.split('/')[0].split('-') }));
  it('keeps a prefix that still leads to an action', () => {
    const s = new Selection(legal('a1-a2', 'a1-a3', 'b1-b2'));
    expect(s.keep(['a1'])).toBe(true);
    expect([...s.targets()].sort()).toEqual(['a2', 'a3']);
  });
  it('keeps a prefix waiting for a choice between variants', () => {
    const s = new Selection(legal('a1-a2/1', 'a1-a2/2'));
    expect(s.keep(['a1', 'a2'])).toBe(true);
    expect(s.complete()).toHaveLength(2);
  });
  it('drops a prefix that leads nowhere any more', () => {
    const s = new Selection(legal('b1-b2'));
    expect(s.keep(['a1'])).toBe(false);
    expect(s.prefix).toEqual([]);
    expect(s.keep([])).toBe(false);
  });
});

describe('an action in its own player\'s words', () => {
  it('drops the acting seat\'s name the engine puts first, and falls back to the notation', () => {
    const a = { action: {}, notation: 'C4/1>C5', words: 'Gold: Heavy C4 → C5, Mana move, leaves 1 chip', cells: ['C4', 'C5'] };
    expect(ownWords(a, 'Gold')).toBe('Heavy C4 → C5, Mana move, leaves 1 chip');
    expect(ownWords(a, 'Red')).toBe(a.words);
    expect(ownWords(a, undefined)).toBe(a.words);
    expect(ownWords({ ...a, words: '  ' }, 'Gold')).toBe('C4/1>C5');
  });

  it('a click that leads nowhere names the cells to ask the engine about', () => {
    const sel = new Selection([la('a1-a2', ['a1', 'a2'])]);
    expect(sel.click('c3')).toEqual({ kind: 'clear', cells: ['c3'] });
    sel.click('a1');
    expect(sel.click('a4')).toEqual({ kind: 'clear', cells: ['a1', 'a4'] });
    expect(sel.prefix).toEqual([]);
  });
});
