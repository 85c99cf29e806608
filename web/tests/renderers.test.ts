// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { Selection, type LegalAction } from '../src/logic/select';
import type { RenderContext } from '../src/games/types';
import { trumpRenderer } from '../src/games/trump';
import { kyoRenderer, parseStack } from '../src/games/kyo';
import { territoriesRenderer } from '../src/games/territories';
import { cairdCells, cairdGeometry, cairdRenderer, checkedKingCell, checkNote } from '../src/games/caird';
import type { CairdView } from '../src/wire/cyvasse/CairdView';
import { bundle, sybaRenderer } from '../src/games/syba';
import { genericRenderer } from '../src/games/generic';

function ctxFor(gameId: string, view: unknown, legal: LegalAction[], options: Record<string, unknown> = {}, seat: number | null = 0): RenderContext<never> {
  // The view is JSON (a fixture or the server's sample): each renderer reads it as its game's view.
  return { gameId, view: view as never, options, seat, seatNames: ['One', 'Two'], selection: new Selection(legal), lastMove: [], onCell: () => undefined };
}
/** A legal action as the server sends it, with the engine's cells (and, where it matters, its JSON). */
const la = (notation: string, cells: string[] = [], action: unknown = notation): LegalAction => ({ action, notation, words: notation, cells });
const targets = (el: Element | null) => [...(el?.querySelectorAll('.cell.target') ?? [])].map((e) => e.getAttribute('data-cell'));

describe('Trump hex board', () => {
  const view = { phase: 'play', committed: [true, true], board: { k3: 'K', j2: 'X', g1: 'M', a1: 'k', b2: 'd' }, to_move: 0, turn: 3, quiet_turns: 1 };
  it('draws 91 cells, every piece, and highlights the legal targets of the chosen piece', () => {
    const ctx = ctxFor('cyvasse-trump', view, [la('k3-k4', ['k3', 'k4']), la('k3-j3', ['k3', 'j3']), la('j2*f5', ['j2', 'f5'])]);
    const { board } = trumpRenderer.render(ctx);
    expect(board?.querySelectorAll('polygon[data-cell]').length).toBe(91);
    expect(board?.querySelectorAll('.piece').length).toBe(5);
    expect(targets(board).sort()).toEqual(['j2', 'k3']);
    ctx.selection.click('k3');
    expect(targets(trumpRenderer.render(ctx).board).sort()).toEqual(['j3', 'k4']);
  });
  it('covers the opponent half during the hidden setup', () => {
    const setup = { ...view, phase: 'setup', committed: [false, true], board: {} };
    const { board } = trumpRenderer.render(ctxFor('cyvasse-trump', setup, []));
    expect(board?.querySelectorAll('[data-testid=hidden-cover]').length).toBe(1);
    expect(trumpRenderer.setup?.(setup as never, {}, 0)?.home).toHaveLength(40);
    expect(trumpRenderer.setup?.(setup as never, {}, 1)).toBeNull();
  });
});

describe('Piece art and marks', () => {
  const view = { phase: 'play', committed: [true, true], board: { k3: 'K', j2: 'X', f5: 'd', g1: 'M' }, to_move: 0, turn: 3, quiet_turns: 1 };
  it('draws every piece as an SVG symbol from the sprite, explained in words', () => {
    const { board } = trumpRenderer.render(ctxFor('cyvasse-trump', view, []));
    const king = board?.querySelector('.piece[data-cell="k3"]');
    expect(king?.querySelector('use')?.getAttribute('href')).toBe('#tabula-emblem-king');
    expect(king?.getAttribute('data-info')).toBe('South King: moves 2, strength 2; lose it and the game is lost');
    expect(board?.querySelector('.piece[data-cell="f5"] use')?.getAttribute('href')).toBe('#tabula-emblem-dragon');
    expect(document.querySelectorAll('#tabula-sprite symbol#tabula-emblem-dragon').length).toBe(1);
    expect(board?.querySelectorAll('.piece text').length).toBe(0);
  });
  it('rings a target with a piece on it and dots an empty one, and tints the last move', () => {
    const ctx = { ...ctxFor('cyvasse-trump', view, [la('j2*f5', ['j2', 'f5']), la('j2-i2', ['j2', 'i2'])]), lastMove: ['k2', 'k3'] };
    ctx.selection.click('j2');
    const { board } = trumpRenderer.render(ctx);
    const marks = [...(board?.querySelectorAll('.mark-target') ?? [])];
    expect(marks).toHaveLength(2);
    const radii = marks.map((m) => Number(m.getAttribute('r'))).sort((a, b) => a - b);
    expect(radii[0]).toBeLessThan(10);
    expect(radii[1]).toBeGreaterThan(20);
    expect(marks.find((m) => Number(m.getAttribute('r')) > 20)?.getAttribute('fill')).toBe('none');
    expect(board?.querySelectorAll('.last-tint').length).toBe(2);
    expect(board?.getAttribute('data-last-move')).toBe('k2 k3');
  });
});

describe('Move animation', () => {
  const view = { board: { A0: 'DDDH', B1: 'LH' }, to_move: 1, turn: { phase: 'open', steps: 0 } };
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
  it('slides only a new last move, once, from its origin to its destination', async () => {
    const ctx = { ...ctxFor('kyo', view, []), gameId: 'kyo-anim-test', lastMove: ['A0', 'A1'] };
    const first = kyoRenderer.render(ctx).board as SVGElement;
    document.body.appendChild(first);
    await frame();
    expect(first.getAttribute('data-animated')).toBeNull();
    first.remove();
    const moved = kyoRenderer.render({ ...ctx, lastMove: ['A1', 'B1'] }).board as SVGElement;
    document.body.appendChild(moved);
    await frame();
    expect(moved.getAttribute('data-animated')).toBe('A1 B1');
    expect(moved.querySelector('[data-anim-cell="B1"]')?.classList.contains('moving')).toBe(true);
    expect(moved.getAttribute('data-last-move')).toBe('A1 B1');
    moved.remove();
    const again = kyoRenderer.render({ ...ctx, lastMove: ['A1', 'B1'] }).board as SVGElement;
    document.body.appendChild(again);
    await frame();
    expect(again.getAttribute('data-animated')).toBeNull();
    again.remove();
  });
  it('does not slide when the reader prefers reduced motion', async () => {
    const real = window.matchMedia;
    window.matchMedia = ((q: string) => ({ matches: q.includes('reduce'), media: q })) as unknown as typeof window.matchMedia;
    try {
      const ctx = { ...ctxFor('kyo', view, []), gameId: 'kyo-reduced-test', lastMove: ['A0', 'A1'] };
      kyoRenderer.render(ctx);
      const moved = kyoRenderer.render({ ...ctx, lastMove: ['A1', 'B1'] }).board as SVGElement;
      document.body.appendChild(moved);
      await frame();
      expect(moved.getAttribute('data-last-move')).toBe('A1 B1');
      expect(moved.getAttribute('data-animated')).toBeNull();
      moved.remove();
    } finally {
      window.matchMedia = real;
    }
  });
});

describe('Kyo stacks', () => {
  it('parses stacks bottom to top with owners', () => {
    expect(parseStack('DDLH')).toEqual({ chips: [{ kind: 'D', owner: 0 }, { kind: 'D', owner: 0 }, { kind: 'L', owner: 0 }], pawn: { kind: 'Heavy', owner: 0 } });
    expect(parseStack('dSk').pawn).toEqual({ kind: 'King', owner: 1 });
    expect(parseStack('dSk').chips.map((c) => c.owner)).toEqual([1, 0]);
  });
  it('draws every chip and the slice choices of a move', () => {
    const view = { board: { A0: 'DDDH', E0: 'SSSK', A9: 'dddh' }, to_move: 0, turn: { phase: 'open', steps: 0 } };
    const ctx = ctxFor('kyo', view, [la('A0>B1', ['A0', 'B1']), la('A0/1>B1', ['A0', 'B1']), la('A0-A1', ['A0', 'A1']), la('end')]);
    const { board } = kyoRenderer.render(ctx);
    expect(board?.querySelectorAll('[data-cell]').length).toBe(100);
    expect(board?.querySelectorAll('rect.chip').length).toBe(9);
    expect(board?.querySelectorAll('rect.chip-S').length).toBe(3);
    expect(board?.querySelector('[data-cell="E0"] .stack')?.getAttribute('data-info')).toBe('Gold King on Shield (Gold), Shield (Gold), Shield (Gold)');
    expect(ctx.selection.click('A0')).toEqual({ kind: 'select' });
    const r = ctx.selection.click('B1');
    expect(r.kind).toBe('choose');
    expect(ctx.selection.cellless().map((a) => a.notation)).toEqual(['end']);
  });
});

describe('Territories grid', () => {
  const grid = [];
  for (let y = 0; y < 4; y++) for (let x = 0; x < 5; x++) grid.push({ at: [x, y], card: `${(x + y) % 5 + 2}H` });
  const view = {
    phase: { phase: 'main' }, turn: 4, roll: 8, grid, buildings: [{ at: [1, 1], owner: 0, piece: 'town' }], bank: [10, 11, 12, 13], pile_count: 20,
    hands: [{ resource_count: 2, territory_count: 1, resources: [1, 1, 0, 0], territories: ['QH'] }, { resource_count: 3, territory_count: 0, resources: null, territories: null }],
    points: [1, 0], offer: null, offers_made: 0, max_offers: 3,
  };
  it('draws 20 cards and 30 intersections, and tells card targets from corner targets', () => {
    const ctx = ctxFor('territories', view, [la('build 2,2', ['2,2'], { build: [2, 2] }), la('expand 5,0 QH', ['5,0'], { expand: [[5, 0], 'QH'] }), la('survey 1,1 QH', ['1,1'], { survey: [[1, 1], 'QH'] }), la('end')]);
    const { board, panels } = territoriesRenderer.render(ctx);
    expect(board?.querySelectorAll('.card').length).toBe(20);
    expect(board?.querySelectorAll('.corner').length).toBe(30);
    expect(board?.querySelectorAll('.corner.target').length).toBe(1);
    expect(board?.querySelectorAll('.card.target').length).toBe(1);
    expect(board?.querySelector('[data-cell="5,0"]')?.textContent).toContain('new card');
    expect(panels.map((p) => p.textContent).join(' ')).toContain('roll: 8');
    expect(panels.map((p) => p.textContent).join(' ')).toContain('QH');
  });
});

/** A Caird view as the server sends it (basic rules, squares, in play), with `fields` replaced. */
function cairdView(fields: Partial<CairdView>): CairdView {
  return {
    observer: { seat: 0 }, setup_committed: [true, true], in_check: false,
    options: { version: 'basic', board: 'square', large_board: false, dragon_reserve: false, super_trebuchets: false, dragonfyre: false, castle_storming: false, wildfyre: false, sea_movement: false },
    phase: 'play', setups: [null, null], board: '', terrain: '', to_move: 0, dragon_in_reserve: [false, false], storm: [null, null],
    fortress_spent: [false, false], ply: 0, quiet_plies: 0, history: [], outcome: null,
    ...fields,
  };
}

describe("Caird's Cyvasse", () => {
  it('reads board and terrain strings on squares, rank 1 first', () => {
    const geo = cairdGeometry({ board: 'square', large_board: false });
    expect(geo.names[0]).toBe('a1');
    expect(geo.names[63]).toBe('h8');
    const view = cairdView({ phase: 'play', setup_committed: [true, true], in_check: true, board: 'K......./......../......../......../......../......../......../.......k', terrain: 'c.......' });
    const { pieces, terrain } = cairdCells(view, geo, 0);
    expect(pieces.get('a1')).toMatchObject({ kind: 'King', seat: 0 });
    expect(pieces.get('h8')).toMatchObject({ kind: 'King', seat: 1 });
    expect(terrain.get('a1')).toBe('fortress');
    // White (to move) is in check: its King's cell is marked, and the status line's note names it.
    const { board } = cairdRenderer.render(ctxFor('cyvasse-caird', view, [], { board: 'square' }));
    expect([...(board?.querySelectorAll('.cell.in-check') ?? [])].map((e) => e.getAttribute('data-cell'))).toEqual(['a1']);
    expect(checkNote(view, 0, ['White', 'Black'])).toBe('Check — your King is attacked');
    expect(checkNote(view, 1, ['Ann', 'Bob'])).toBe("Check — Ann's King is attacked");
    expect(checkNote(view, null, ['Ann', 'Bob'])).toBe("Check — Ann's King is attacked");
    // Black to move in check: Black's King (h8); no check: nothing marked, no note.
    const black = cairdView({ ...view, to_move: 1 });
    expect(checkedKingCell(black, { board: 'square' })).toBe('h8');
    const quiet = cairdView({ ...view, in_check: false });
    expect(checkedKingCell(quiet, { board: 'square' })).toBeNull();
    expect(checkNote(quiet, 0, ['White', 'Black'])).toBeNull();
    expect(cairdRenderer.render(ctxFor('cyvasse-caird', quiet, [], { board: 'square' })).board?.querySelector('.in-check')).toBeNull();
  });
  it('has 37-cell homes on the hexagon and 10x10 squares with large_board', () => {
    const hex = cairdGeometry({ board: 'hex' });
    expect(hex.homeOf.filter((x) => x === 0)).toHaveLength(37);
    expect(hex.homeOf.filter((x) => x === -1)).toHaveLength(17);
    expect(cairdGeometry({ board: 'square', large_board: true }).names).toHaveLength(100);
    const view = cairdView({ phase: 'setup', options: { ...cairdView({}).options, board: 'hex' }, setups: [{ terrain: '', pieces: 'K' }, null] });
    const { board } = cairdRenderer.render(ctxFor('cyvasse-caird', view, [], { board: 'hex' }));
    expect(board?.querySelectorAll('polygon[data-cell]').length).toBe(91);
    expect(board?.querySelectorAll('.piece').length).toBe(1);
  });
});

describe('Syba map', () => {
  it('draws every area and unit and highlights the areas and units of legal actions', () => {
    const view = { observer: { seat: 0 }, state: { phase: 'play', round: 1, current: 0, players: [{ race: 4, resources: [3, 2, 1] }, { race: 5, resources: [0, 0, 0] }], units: [{ id: 7, owner: 0, kind: 'soldier', area: 0, exhausted: false }, { id: 8, owner: 1, kind: { hero: 0 }, area: 1, exhausted: true }], city_owner: [0], city_destroyed: [], cards: [], stack: [] }, city_strength: [7] };
    const ctx = ctxFor('syba', view, [la('move u7 kaul', ['u7', 'kaul']), la('buy soldier stavensport', ['stavensport']), la('end')]);
    const { board } = sybaRenderer.render(ctx);
    expect(board?.querySelectorAll('.area').length).toBeGreaterThanOrEqual(46);
    expect(board?.querySelectorAll('.unit').length).toBe(2);
    // The city badge shows the view's current City Strength (a Capital City with buildings worth 2).
    const badge = [...(board?.querySelectorAll('.city-badge') ?? [])].find((b) => b.getAttribute('data-info')?.startsWith('Stavensport:'));
    expect(badge?.querySelector(':scope > text')?.textContent).toBe('7');
    expect(targets(board).sort()).toEqual(['stavensport', 'u7']);
    ctx.selection.click('u7');
    expect(targets(sybaRenderer.render(ctx).board)).toEqual(['kaul']);
  });
});

describe('Syba unit slide', () => {
  it('slides a unit that moved to another area from where it stood, and nothing on a redraw', async () => {
    const unit = (area: number) => ({ observer: { seat: 0 }, state: { phase: 'play', round: 1, current: 0, players: [{ race: 4, resources: [3, 2, 1] }], units: [{ id: 7, owner: 0, kind: 'soldier', area, exhausted: false }], city_owner: [0], city_destroyed: [], cards: [], stack: [] }, city_strength: [5] });
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
    const ctx = { ...ctxFor('syba', unit(0), []), gameId: 'syba-slide-test' };
    const draw = async (view: unknown) => {
      const b = sybaRenderer.render({ ...ctx, view: view as never }).board as SVGElement;
      document.body.appendChild(b);
      await frame();
      b.remove();
      return b.getAttribute('data-animated');
    };
    expect(await draw(unit(0))).toBeNull();
    expect(await draw(unit(0))).toBeNull();
    expect(await draw(unit(1))).toBe('u7');
    expect(await draw(unit(1))).toBeNull();
  });
});

describe('Syba trades in words', () => {
  it('names resources, units and cities', () => {
    expect(bundle({ resources: [2, 0, 1], units: [17], cities: [0] })).toBe('2 production, 1 research, u17, Stavensport');
    expect(bundle({ resources: [0, 0, 0], units: [], cities: [] })).toBe('nothing');
  });
});

describe('generic fallback', () => {
  it('shows any view as a tree', () => {
    const { board, panels } = genericRenderer.render(ctxFor('x', { a: [1, 2], b: { c: 'd' } }, []));
    expect(board).toBeNull();
    expect(panels[0].textContent).toContain('c: "d"');
  });
});

describe('Syba seat colours', () => {
  it('are the races’ colours once chosen', () => {
    // Only the part of a view the colours read (a fixture, not a whole view).
    const view = { state: { players: [{ race: 0 }, { race: null }] } } as never;
    expect(sybaRenderer.seatColour?.(view, 0)).toBe('#2f6db5');
    expect(sybaRenderer.seatColour?.(view, 1)).toBeNull();
  });
});

describe('Piece legends', () => {
  it('come from the engine for every Strength & Trump piece and Territories building the boards draw', async () => {
    const { LEGENDS } = await import('../src/wire/legends');
    const { trumpInfo } = await import('../src/games/trump');
    const { buildingInfo } = await import('../src/games/territories');
    for (const kind of ['Rabble', 'Spearman', 'Elephant', 'Light Horse', 'Heavy Horse', 'Crossbowman', 'Catapult', 'Trebuchet', 'Dragon', 'King', 'Mountain']) {
      const words = LEGENDS['cyvasse-trump']?.[kind];
      expect(words, kind).toBeTruthy();
      expect(trumpInfo(kind, 1)).toBe(`North ${kind}: ${words}`);
    }
    for (const piece of ['town', 'fort', 'barracks', 'temple', 'palace', 'capital']) {
      const words = LEGENDS.territories?.[piece];
      expect(words, piece).toBeTruthy();
      expect(buildingInfo(piece, 'White')).toContain(`(${words})`);
    }
  });

  it('come from the engine for every Caird piece and every Syba unit, hero and city type', async () => {
    const { LEGENDS } = await import('../src/wire/legends');
    const { cairdInfo, cairdWords } = await import('../src/games/caird');
    const { cityInfo } = await import('../src/games/syba');
    const heroes = (await import('../../crates/games/syba/data/heroes.json')).default as { heroes: { name: string }[] };
    for (const kind of ['King', 'Dragon', 'Elephant', 'Trebuchet', 'Crossbowman', 'Heavy Horse', 'Light Horse', 'Spear', 'Rabble', 'Mountain']) {
      const words = LEGENDS['cyvasse-caird']?.[kind];
      expect(words, kind).toBeTruthy();
      expect(cairdInfo(kind, 1, {})).toBe(`Black ${kind}: ${words}`);
    }
    // A game's options pick the piece's words under them (the engine's entries for those options).
    const expertHex = { version: 'expert', board: 'hex', large_board: false, super_trebuchets: false, dragonfyre: false };
    expect(cairdWords('Trebuchet', expertHex)).toBe(LEGENDS['cyvasse-caird']?.['Trebuchet|version=expert,board=hex']);
    expect(cairdWords('Trebuchet', { ...expertHex, board: 'square' })).toBe(LEGENDS['cyvasse-caird']?.['Trebuchet|version=expert']);
    expect(cairdWords('Elephant', expertHex)).toBe(LEGENDS['cyvasse-caird']?.['Elephant|version=expert']);
    expect(cairdWords('Spear', expertHex)).toBe(LEGENDS['cyvasse-caird']?.Spear);
    expect(cairdWords('Dragon', { ...expertHex, dragonfyre: true })).toContain('shoots up to 2 orthogonally over friendly pieces');
    for (const name of ['soldier', 'knight', 'monster', ...heroes.heroes.map((h) => h.name)]) {
      expect(LEGENDS.syba?.[name], name).toMatch(/^Power \d+$/);
    }
    for (const level of ['settlement', 'village', 'town', 'major', 'capital']) {
      const words = LEGENDS.syba?.[level];
      expect(words, level).toMatch(/City Strength \d+/);
      expect(cityInfo('Kaul', level, null, null, false)).toBe(`Kaul: ${words}, unowned`);
    }
    expect(cityInfo('Iras', 'village', 7, 'P1', false)).toBe(`Iras: ${LEGENDS.syba?.village}; with its buildings City Strength 7, owned by P1`);
  });
});
