import { describe, expect, it } from 'vitest';
import { CellTokenizer, Selection, groupByVerb, type LegalAction } from '../src/logic/select';
import { rowCellNames } from '../src/logic/hex';

const la = (notation: string): LegalAction => ({ action: { n: notation }, notation });

describe('CellTokenizer', () => {
  it('finds row-named hex cells, preferring the longest name', () => {
    const t = new CellTokenizer(rowCellNames());
    expect(t.cells('f1-f11')).toEqual(['f1', 'f11']);
    expect(t.cells('Kf10xe9')).toEqual(['f10', 'e9']);
  });
  it('finds Kyo squares in chains, deploys and leave-behind counts', () => {
    const squares: string[] = [];
    for (const c of 'ABCDEFGHIJ') for (let r = 0; r <= 9; r++) squares.push(`${c}${r}`);
    const t = new CellTokenizer(squares);
    expect(t.cells('D0>C1>B2')).toEqual(['D0', 'C1', 'B2']);
    expect(t.cells('E1*E2*F2')).toEqual(['E1', 'E2', 'F2']);
    expect(t.cells('A3/2-A4')).toEqual(['A3', 'A4']);
    expect(t.cells('end turn')).toEqual([]);
  });
  it('does not read a cell inside a longer number', () => {
    const t = new CellTokenizer(['1', '12']);
    expect(t.cells('x12')).toEqual(['12']);
    expect(t.cells('112')).toEqual([]);
    expect(t.cells('1-12')).toEqual(['1', '12']);
  });
  it('knows no cells when the board names none', () => {
    expect(new CellTokenizer([]).cells('a1-a2')).toEqual([]);
  });
});

describe('Selection', () => {
  const squares = ['a1', 'a2', 'a3', 'b1', 'b2'];
  const tok = new CellTokenizer(squares);

  it('highlights the starting cells, then the targets of the chosen piece', () => {
    const sel = new Selection([la('a1-a2'), la('a1-a3'), la('b1-b2'), la('pass')], tok);
    expect([...sel.targets()].sort()).toEqual(['a1', 'b1']);
    expect(sel.click('a1')).toEqual({ kind: 'select' });
    expect([...sel.targets()].sort()).toEqual(['a2', 'a3']);
    expect(sel.cellless().map((a) => a.notation)).toEqual(['pass']);
  });

  it('submits the single action completed by a click', () => {
    const sel = new Selection([la('a1-a2'), la('a1-a3')], tok);
    sel.click('a1');
    const r = sel.click('a3');
    expect(r.kind).toBe('submit');
    if (r.kind === 'submit') expect(r.action.notation).toBe('a1-a3');
    expect(sel.prefix).toEqual([]);
  });

  it('offers a choice when several actions name the same cells', () => {
    const sel = new Selection([la('a1-a2'), la('a1-a2/1'), la('a1-a3')], tok);
    sel.click('a1');
    const r = sel.click('a2');
    expect(r.kind).toBe('choose');
    if (r.kind === 'choose') expect(r.options.map((o) => o.notation)).toEqual(['a1-a2', 'a1-a2/1']);
  });

  it('offers a choice when an action completes here but longer ones continue', () => {
    const sel = new Selection([la('a1*a2'), la('a1*a2*b2')], tok);
    sel.click('a1');
    const r = sel.click('a2');
    expect(r.kind).toBe('choose');
    expect([...sel.targets()]).toEqual(['b2']);
  });

  it('restarts from another piece, and clears on a cell nothing starts from', () => {
    const sel = new Selection([la('a1-a2'), la('b1-b2')], tok);
    sel.click('a1');
    expect(sel.click('b1')).toEqual({ kind: 'select' });
    expect(sel.prefix).toEqual(['b1']);
    expect(sel.click('a3')).toEqual({ kind: 'clear' });
    expect(sel.prefix).toEqual([]);
  });

  it('submits a one-cell action (a placement) on the first click', () => {
    const sel = new Selection([la('K@a1'), la('K@a2')], tok);
    const r = sel.click('a2');
    expect(r.kind).toBe('submit');
  });
});

describe('Selection of whole-army actions', () => {
  it('offers an action naming many cells as a button', () => {
    const tok = new CellTokenizer(['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3', 'b4', 'c1']);
    const sel = new Selection([la('setup Ka1 Ra2 Ra3 Ra4 Sb1 Sb2 Eb3 Eb4 Mc1'), la('a1-a2')], tok);
    expect(sel.cellless().map((a) => a.notation)).toEqual(['setup Ka1 Ra2 Ra3 Ra4 Sb1 Sb2 Eb3 Eb4 Mc1']);
    expect([...sel.targets()]).toEqual(['a1']);
  });
});

describe('whole-word cells (Syba areas and units)', () => {
  const tok = new CellTokenizer(['bell', 'heran', 'en-diren', 'u1', 'u12'], true);
  it('reads areas and units as whole words only', () => {
    expect(tok.cells('move u12 heran')).toEqual(['u12', 'heran']);
    expect(tok.cells('army bell en-diren')).toEqual(['bell', 'en-diren']);
    expect(tok.cells('attack bell P2@heran')).toEqual(['bell', 'heran']);
    expect(tok.cells('research rebellion city:heran')).toEqual(['heran']);
    expect(tok.cells('rest u1')).toEqual(['u1']);
  });
});

describe('auto-selection of the only piece that can act', () => {
  const tok = new CellTokenizer(['a1', 'a2', 'a3', 'b1']);
  it('pre-selects a horse between its legs', () => {
    const sel = new Selection([la('a1-a2'), la('a1xa3'), la('end')], tok);
    expect(sel.autoSelect()).toBe(true);
    expect([...sel.targets()].sort()).toEqual(['a2', 'a3']);
  });
  it('does not when several pieces can act or an action ends on the first cell', () => {
    expect(new Selection([la('a1-a2'), la('b1-a3')], tok).autoSelect()).toBe(false);
    expect(new Selection([la('a1-a2'), la('a1~DLS')], tok).autoSelect()).toBe(false);
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
  const tok = new CellTokenizer(['a1', 'a2', 'a3', 'b1', 'b2']);
  const legal = (...ns: string[]) => ns.map((n) => ({ action: n, notation: n }));
  it('keeps a prefix that still leads to an action', () => {
    const s = new Selection(legal('a1-a2', 'a1-a3', 'b1-b2'), tok);
    expect(s.keep(['a1'])).toBe(true);
    expect([...s.targets()].sort()).toEqual(['a2', 'a3']);
  });
  it('keeps a prefix waiting for a choice between variants', () => {
    const s = new Selection(legal('a1-a2/1', 'a1-a2/2'), tok);
    expect(s.keep(['a1', 'a2'])).toBe(true);
    expect(s.complete()).toHaveLength(2);
  });
  it('drops a prefix that leads nowhere any more', () => {
    const s = new Selection(legal('b1-b2'), tok);
    expect(s.keep(['a1'])).toBe(false);
    expect(s.prefix).toEqual([]);
    expect(s.keep([])).toBe(false);
  });
});
