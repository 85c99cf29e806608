// @vitest-environment happy-dom
// The generated declarations of Kyo's, Cyvasse's, Syba's and Territories' views (src/wire/<game>) and of
// the engine's analyses and hints (src/wire/ai) against real ones: tests/views/*.json are what the
// game crates and the AI crate serialize (their `view_samples` tests keep them fresh). Each sample is read through its declaration's fields — every key the declaration names
// and no other, each value of the declared kind — and drawn by its renderer.
import { describe, expect, it } from 'vitest';
import kyoSamples from './views/kyo.json';
import trumpSamples from './views/cyvasse-trump.json';
import cairdSamples from './views/cyvasse-caird.json';
import { Selection } from '../src/logic/select';
import type { RenderContext } from '../src/games/types';
import { kyoRenderer } from '../src/games/kyo';
import { trumpRenderer } from '../src/games/trump';
import { cairdRenderer } from '../src/games/caird';
import type { Outcome } from '../src/wire/core/Outcome';
import type { SeatResult } from '../src/wire/core/SeatResult';
import type { Dir } from '../src/wire/kyo/Dir';
import type { Kyo } from '../src/wire/kyo/Kyo';
import type { KyoOptions } from '../src/wire/kyo/KyoOptions';
import type { LightPawnRows } from '../src/wire/kyo/LightPawnRows';
import type { Phase as KyoPhase } from '../src/wire/kyo/Phase';
import type { Turn } from '../src/wire/kyo/Turn';
import type { BoardKind } from '../src/wire/cyvasse/BoardKind';
import type { CairdOptions } from '../src/wire/cyvasse/CairdOptions';
import type { CairdPhase } from '../src/wire/cyvasse/CairdPhase';
import type { CairdView } from '../src/wire/cyvasse/CairdView';
import type { CavalryTurn } from '../src/wire/cyvasse/CavalryTurn';
import type { Occupant } from '../src/wire/cyvasse/Occupant';
import type { SetupPlan } from '../src/wire/cyvasse/SetupPlan';
import type { TrumpOptions } from '../src/wire/cyvasse/TrumpOptions';
import type { TrumpPhase } from '../src/wire/cyvasse/TrumpPhase';
import type { TrumpPosition } from '../src/wire/cyvasse/TrumpPosition';
import type { Version } from '../src/wire/cyvasse/Version';
import sybaSamples from './views/syba.json';
import territoriesSamples from './views/territories.json';
import { sybaRenderer } from '../src/games/syba';
import { territoriesRenderer } from '../src/games/territories';
import type { SybaView } from '../src/wire/syba/SybaView';
import type { Syba } from '../src/wire/syba/Syba';
import type { Player } from '../src/wire/syba/Player';
import type { Unit } from '../src/wire/syba/Unit';
import type { BattleReport } from '../src/wire/syba/BattleReport';
import type { Bundle } from '../src/wire/syba/Bundle';
import type { SybaOptions } from '../src/wire/syba/SybaOptions';
import type { TerritoriesView } from '../src/wire/territories/TerritoriesView';
import type { HandView } from '../src/wire/territories/HandView';
import type { Offer } from '../src/wire/territories/Offer';
import type { Cell } from '../src/wire/territories/Cell';
import type { Building } from '../src/wire/territories/Building';
import analysisSamples from './views/analysis.json';
import type { Analysis } from '../src/wire/ai/Analysis';
import type { DecisionAnalysis } from '../src/wire/ai/DecisionAnalysis';
import type { DecisionKind } from '../src/wire/ai/DecisionKind';
import type { Hint } from '../src/wire/ai/Hint';
import type { Mark } from '../src/wire/ai/Mark';
import type { SeatSummary } from '../src/wire/ai/SeatSummary';
import type { Thresholds } from '../src/wire/ai/Thresholds';
import { decisionsByPly, dropOf, graphLines, markCounts } from '../src/logic/analysis';
import { decisionCard } from '../src/pages/analysis';

// Each list below is a `Record` over a declared type's keys or union members: the compiler fails when
// it misses one or names one the declaration does not have, so the runtime checks cover it exactly.
const KYO_KEYS: Record<keyof Kyo, true> = { options: true, board: true, to_move: true, turn: true, turns: true, quiet_turns: true, history: true, outcome: true };
const KYO_OPTION_KEYS: Record<keyof KyoOptions, true> = { light_pawn_rows: true, extra_pieces: true };
const TURN_KEYS: Record<keyof Turn, true> = { active: true, steps: true, phase: true, mana: true, last_shuffle: true, carried: true, lifted: true, removed: true, visited: true, positions: true };
const LIGHT_PAWN_ROWS: Record<LightPawnRows, true> = { trench: true, open_field: true, deadlock: true };
const KYO_PHASES: Record<KyoPhase, true> = { open: true, chain: true, locked: true };
const DIRS: Record<Dir, true> = { N: true, NE: true, E: true, SE: true, S: true, SW: true, W: true, NW: true };

const TRUMP_KEYS: Record<keyof TrumpPosition, true> = { options: true, phase: true, committed: true, board: true, to_move: true, cavalry: true, quiet_turns: true, turn: true, outcome: true };
const TRUMP_OPTION_KEYS: Record<keyof TrumpOptions, true> = { second_leg_mandatory: true };
const CAVALRY_KEYS: Record<keyof CavalryTurn, true> = { horse: true, captured: true };
const TRUMP_PHASES: Record<TrumpPhase, true> = { setup: true, first_player: true, play: true, over: true };
const OCCUPANTS: Record<Occupant, true> = {
  M: true, R: true, S: true, E: true, L: true, H: true, X: true, C: true, T: true, D: true, K: true,
  r: true, s: true, e: true, l: true, h: true, x: true, c: true, t: true, d: true, k: true,
};

const CAIRD_KEYS: Record<keyof CairdView, true> = {
  observer: true, setup_committed: true, in_check: true, options: true, phase: true, setups: true, board: true, terrain: true,
  to_move: true, dragon_in_reserve: true, storm: true, fortress_spent: true, ply: true, quiet_plies: true, history: true, outcome: true,
};
const CAIRD_OPTION_KEYS: Record<keyof CairdOptions, true> = {
  version: true, board: true, large_board: true, dragon_reserve: true, super_trebuchets: true, dragonfyre: true,
  castle_storming: true, wildfyre: true, sea_movement: true,
};
const PLAN_KEYS: Record<keyof SetupPlan, true> = { terrain: true, pieces: true };
const VERSIONS: Record<Version, true> = { basic: true, expert: true };
const BOARD_KINDS: Record<BoardKind, true> = { square: true, hex: true };
const CAIRD_PHASES: Record<CairdPhase, true> = { setup: true, play: true };
const OUTCOME_KEYS: Record<keyof Outcome, true> = { results: true, reason: true };
const SEAT_RESULTS: Record<SeatResult, true> = { win: true, draw: true, loss: true };

const ANALYSIS_KEYS: Record<keyof Analysis, true> = {
  game: true, seed: true, iterations: true, estimate_iterations: true, thresholds: true, plies: true, seats: true, decisions: true,
};
const THRESHOLD_KEYS: Record<keyof Thresholds, true> = { inaccuracy: true, mistake: true, blunder: true };
const SEAT_SUMMARY_KEYS: Record<keyof SeatSummary, true> = {
  seat: true, name: true, judged: true, inaccuracies: true, mistakes: true, blunders: true, average_drop: true,
};
const DECISION_KEYS: Record<keyof DecisionAnalysis, true> = {
  ply: true, seat: true, action: true, notation: true, words: true, cells: true, kind: true,
  before: true, after: true, best: true, best_notation: true, best_words: true, best_cells: true, mark: true,
};
/** The keys a decision may leave out (`?` in the declaration). */
const DECISION_OPTIONAL: (keyof DecisionAnalysis)[] = ['words', 'before', 'after', 'best', 'best_notation', 'best_words', 'best_cells', 'mark'];
const DECISION_KINDS: Record<DecisionKind, true> = { judged: true, forced: true, setup: true };
const MARK_NAMES: Record<Mark, true> = { inaccuracy: true, mistake: true, blunder: true };
const HINT_KEYS: Record<keyof Hint, true> = { seat: true, action: true, notation: true, words: true, cells: true, estimate: true };

type Json = Record<string, unknown>;

/** `x` is an object with exactly the keys of `keys`. */
function record(x: unknown, keys: Record<string, true>): Json {
  expect(x).toBeTypeOf('object');
  expect(x).not.toBeNull();
  expect(Object.keys(x as object).sort()).toEqual(Object.keys(keys).sort());
  return x as Json;
}
/** `x` is an object with the keys of `keys`, of which it may leave out those of `optional`. */
function partial(x: unknown, keys: Record<string, true>, optional: string[]): Json {
  expect(x).toBeTypeOf('object');
  expect(x).not.toBeNull();
  const have = Object.keys(x as object);
  for (const k of have) expect(Object.keys(keys)).toContain(k);
  for (const k of Object.keys(keys)) if (!optional.includes(k)) expect(have).toContain(k);
  return x as Json;
}
const member = (x: unknown, of: Record<string, true>) => expect(Object.keys(of)).toContain(x);
const integer = (x: unknown) => expect(Number.isInteger(x)).toBe(true);
const boolean = (x: unknown) => expect(x).toBeTypeOf('boolean');
const text = (x: unknown) => expect(x).toBeTypeOf('string');
function list(x: unknown, each: (item: unknown) => void, length?: number): void {
  expect(Array.isArray(x)).toBe(true);
  if (length !== undefined) expect(x).toHaveLength(length);
  (x as unknown[]).forEach(each);
}
function nullable(x: unknown, each: (item: unknown) => void): void {
  if (x !== null) each(x);
}
function outcome(x: unknown): void {
  const o = record(x, OUTCOME_KEYS);
  list(o.results, (r) => member(r, SEAT_RESULTS));
  text(o.reason);
}
/** A map from names to values (`{ [key in string]?: V }`). */
function map(x: unknown, key: RegExp, value: (v: unknown) => void): void {
  expect(x).toBeTypeOf('object');
  for (const [k, v] of Object.entries(x as object)) {
    expect(k).toMatch(key);
    value(v);
  }
}

function ctxFor(gameId: string, view: unknown, options: Record<string, unknown>, seat: number | null): RenderContext<never> {
  // The view is JSON (a fixture or the server's sample): each renderer reads it as its game's view.
  return { gameId, view: view as never, options, seat, seatNames: ['One', 'Two'], selection: new Selection([]), lastMove: [], onCell: () => undefined };
}

const SQUARE = /^[A-J][0-9]$/;
const HEX_CELL = /^[a-k]([1-9]|1[01])$/;

describe('Kyo views against their declaration', () => {
  const samples = Object.entries(kyoSamples as Json);
  it('has the samples of every situation', () => {
    expect(samples.map(([name]) => name).sort()).toEqual(['mid_turn', 'over', 'start', 'start_extra_pieces']);
  });
  it.each(samples)('%s', (_name, sample) => {
    const v = record(sample, KYO_KEYS);
    const o = record(v.options, KYO_OPTION_KEYS);
    member(o.light_pawn_rows, LIGHT_PAWN_ROWS);
    boolean(o.extra_pieces);
    map(v.board, SQUARE, (code) => expect(code).toMatch(/^[DLSdls]*[HKQTPNChkqtpnc]?$/));
    integer(v.to_move);
    const t = record(v.turn, TURN_KEYS);
    nullable(t.active, (sq) => expect(sq).toMatch(SQUARE));
    integer(t.steps);
    member(t.phase, KYO_PHASES);
    nullable(t.mana, (d) => member(d, DIRS));
    boolean(t.last_shuffle);
    nullable(t.carried, integer);
    nullable(t.lifted, integer);
    boolean(t.removed);
    list(t.visited, (sq) => expect(sq).toMatch(SQUARE));
    list(t.positions, integer);
    integer(v.turns);
    integer(v.quiet_turns);
    list(v.history, integer);
    nullable(v.outcome, outcome);
    const { board, panels } = kyoRenderer.render(ctxFor('kyo', sample as Kyo, {}, 0));
    expect(board?.querySelectorAll('[data-cell]').length).toBe(100);
    expect(board?.querySelectorAll('.stack').length).toBe(Object.keys(v.board as object).length);
    // The turn in words (no engine phase names, no "0 step(s)"): said once the piece has acted and
    // the game runs.
    const text = panels[0].textContent ?? '';
    expect(text).not.toMatch(/This turn|step\(s\)/);
    const line = panels[0].querySelector('[data-testid=kyo-turn]')?.textContent ?? '';
    expect(line).not.toMatch(/\b(open|chain|locked)\b/);
    if ((t.steps as number) > 0 && v.outcome === null) expect(line).toContain(`on ${String(t.active)}`);
    else expect(panels[0].querySelector('[data-testid=kyo-turn]')).toBeNull();
  });
  it('tells the turn in progress', () => {
    const v = (kyoSamples as unknown as Record<string, Kyo>).mid_turn;
    expect(v.turn.active).not.toBeNull();
    expect(v.turn.mana).not.toBeNull();
    expect(v.turn.visited.length).toBeGreaterThan(0);
    const { panels } = kyoRenderer.render(ctxFor('kyo', v, {}, 0));
    expect(panels[0].querySelector('[data-testid=kyo-turn]')?.textContent).toMatch(new RegExp(`^One's [A-Za-z ]+ on ${v.turn.active} has made (a Mana move|\\d+ Mana moves): another Mana move, or end the turn$`));
  });
});

describe('Strength & Trump views against their declaration', () => {
  const samples = Object.entries(trumpSamples as Json);
  it('has the samples of every situation', () => {
    expect(samples.map(([name]) => name).sort()).toEqual(['cavalry', 'first_player', 'play', 'setup_other_army', 'setup_own_army', 'setup_start']);
  });
  it.each(samples)('%s', (_name, sample) => {
    const v = record(sample, TRUMP_KEYS);
    boolean(record(v.options, TRUMP_OPTION_KEYS).second_leg_mandatory);
    member(v.phase, TRUMP_PHASES);
    list(v.committed, boolean, 2);
    map(v.board, HEX_CELL, (occupant) => member(occupant, OCCUPANTS));
    integer(v.to_move);
    nullable(v.cavalry, (c) => {
      const cav = record(c, CAVALRY_KEYS);
      expect(cav.horse).toMatch(HEX_CELL);
      boolean(cav.captured);
    });
    integer(v.quiet_turns);
    integer(v.turn);
    nullable(v.outcome, outcome);
    const view = sample as TrumpPosition;
    const { board } = trumpRenderer.render(ctxFor('cyvasse-trump', view, {}, 0));
    expect(board?.querySelectorAll('polygon[data-cell]').length).toBe(91);
    expect(board?.querySelectorAll('.piece').length).toBe(Object.keys(view.board).length);
  });
  it('offers the setup editor only to a seat still owing its army', () => {
    const s = trumpSamples as unknown as Record<string, TrumpPosition>;
    expect(trumpRenderer.setup?.(s.setup_own_army, {}, 1)).toBeNull();
    expect(trumpRenderer.setup?.(s.setup_other_army, {}, 0)?.home).toHaveLength(40);
    expect(trumpRenderer.setup?.(s.play, {}, 0)).toBeNull();
  });
  it('names the horse between its legs', () => {
    const v = (trumpSamples as unknown as Record<string, TrumpPosition>).cavalry;
    const { panels } = trumpRenderer.render(ctxFor('cyvasse-trump', v, {}, 0));
    expect(panels[0].textContent).toContain(`second leg from ${v.cavalry?.horse}`);
  });
});

describe("Caird's Cyvasse views against their declaration", () => {
  const samples = Object.entries(cairdSamples as Json);
  it('has the samples of every situation', () => {
    expect(samples.map(([name]) => name).sort()).toEqual(['basic_play', 'basic_setup_other_plan', 'basic_setup_own_plan', 'basic_setup_start', 'expert_play', 'hex_dragon_reserve']);
  });
  it.each(samples)('%s', (_name, sample) => {
    const v = record(sample, CAIRD_KEYS);
    expect(v.observer === 'spectator' || Number.isInteger((v.observer as { seat?: unknown }).seat)).toBe(true);
    list(v.setup_committed, boolean, 2);
    boolean(v.in_check);
    const o = record(v.options, CAIRD_OPTION_KEYS);
    member(o.version, VERSIONS);
    member(o.board, BOARD_KINDS);
    for (const k of ['large_board', 'dragon_reserve', 'super_trebuchets', 'dragonfyre', 'castle_storming', 'wildfyre', 'sea_movement'] as const) boolean(o[k]);
    member(v.phase, CAIRD_PHASES);
    list(v.setups, (plan) => nullable(plan, (p) => {
      const sp = record(p, PLAN_KEYS);
      text(sp.terrain);
      text(sp.pieces);
    }), 2);
    text(v.board);
    text(v.terrain);
    integer(v.to_move);
    list(v.dragon_in_reserve, boolean, 2);
    list(v.storm, (s) => nullable(s, integer), 2);
    integer(v.ply);
    integer(v.quiet_plies);
    list(v.history, (h) => expect(h).toBeTypeOf('number'));
    nullable(v.outcome, outcome);
    const view = sample as CairdView;
    const { board } = cairdRenderer.render(ctxFor('cyvasse-caird', view, view.options, 0));
    const cells = view.options.board === 'hex' ? 91 : view.options.large_board ? 100 : 64;
    expect(board?.querySelectorAll('[data-cell]').length).toBeGreaterThanOrEqual(cells);
  });
  it('shows the own committed plan during the setup and offers the editor to the seat still owing one', () => {
    const s = cairdSamples as unknown as Record<string, CairdView>;
    const own = cairdRenderer.render(ctxFor('cyvasse-caird', s.basic_setup_own_plan, s.basic_setup_own_plan.options, 0));
    expect(own.board?.querySelectorAll('.piece').length).toBeGreaterThan(0);
    expect(cairdRenderer.setup?.(s.basic_setup_own_plan, s.basic_setup_own_plan.options, 0)).toBeNull();
    expect(cairdRenderer.setup?.(s.basic_setup_other_plan, s.basic_setup_other_plan.options, 1)?.home).toHaveLength(32);
  });
  it('tells the Dragon in reserve', () => {
    const v = (cairdSamples as unknown as Record<string, CairdView>).hex_dragon_reserve;
    expect(v.dragon_in_reserve).toEqual([true, true]);
    const { panels } = cairdRenderer.render(ctxFor('cyvasse-caird', v, v.options, 0));
    expect(panels[0].textContent).toContain('Dragon in reserve: One, Two');
  });
});

// Syba and Territories: each sample's objects have exactly their declaration's keys (the shapes are
// typed `Record<keyof T, …>`), each value of one of the declared kinds, at every level.
/** What a declared field holds, as `typeof` (or 'array', 'null') tells it apart in JSON. */
type Kind = 'number' | 'string' | 'boolean' | 'object' | 'array' | 'null';
const kindOf = (x: unknown): Kind => (x === null ? 'null' : Array.isArray(x) ? 'array' : (typeof x as Kind));

/** Checks that `obj` has exactly the declared keys, each of one of the declared kinds. */
function expectShape<T>(name: string, obj: unknown, shape: Record<keyof T, Kind[]>): void {
  expect(kindOf(obj), name).toBe('object');
  const o = obj as Record<string, unknown>;
  expect(Object.keys(o).sort(), `${name}'s keys`).toEqual(Object.keys(shape).sort());
  for (const [k, kinds] of Object.entries(shape) as [string, Kind[]][]) expect(kinds, `${name}.${k}: ${JSON.stringify(o[k])}`).toContain(kindOf(o[k]));
}

const N: Kind[] = ['number'];
const B: Kind[] = ['boolean'];
const A: Kind[] = ['array'];
const O: Kind[] = ['object'];
const S: Kind[] = ['string'];

function sampleCtx(gameId: string, view: unknown): RenderContext<never> {
  // The view is JSON (a fixture or the server's sample): each renderer reads it as its game's view.
  return { gameId, view: view as never, options: {}, seat: 0, seatNames: ['One', 'Two', 'Three', 'Four'], selection: new Selection([]), lastMove: [], onCell: () => undefined };
}

describe('Syba view declarations against a real view', () => {
  const view = sybaSamples.mid_game as unknown as SybaView;
  it('has the declared fields, of the declared kinds, at every level', () => {
    expectShape<SybaView>('SybaView', view, { observer: ['object', 'string'], state: O, own_start_city_texts: ['array', 'null'], city_strength: A });
    expect(view.city_strength.every((n) => typeof n === 'number')).toBe(true);
    expect(view.own_start_city_texts?.every((t) => typeof t === 'string')).toBe(true);
    const st: Syba = view.state;
    expectShape<Syba>('Syba', st, {
      options: O, phase: S, start: N, current: N, setup_done: N, round: N, players: A, units: A, next_unit: N,
      city_owner: A, city_destroyed: A, cards: A, heroes: A, stack: A, outcome: ['object', 'null'], last_battle: ['object', 'null'],
    });
    expectShape<SybaOptions>('SybaOptions', st.options, { players: N, auto_rest: B, max_rounds: N, trades_per_turn: N });
    expect(['starting_player', 'race', 'city', 'play', 'over']).toContain(st.phase);
    for (const p of st.players) {
      expectShape<Player>('Player', p, { race: ['number', 'null'], start_city: ['number', 'null'], resources: A, once_available: B, extra_moves: N, power_bonus: N, trades: N });
      expect(p.resources).toHaveLength(3);
    }
    expect(st.units.length).toBeGreaterThan(0);
    for (const u of st.units) {
      expectShape<Unit>('Unit', u, { id: N, owner: N, kind: ['string', 'object'], area: N, exhausted: B, fresh: B, moves_used: N, exhaust_moves: N, exhausts_used: N, extra_exhausts: N });
      expect(typeof u.kind === 'string' ? ['soldier', 'knight', 'monster'].includes(u.kind) : typeof u.kind.hero === 'number').toBe(true);
    }
    for (const o of st.city_owner) expect(['number', 'null']).toContain(kindOf(o));
    for (const c of st.cards) expect(typeof c === 'string' ? ['pile', 'destroyed'].includes(c) : Object.keys(c).length === 1).toBe(true);
    const lb = st.last_battle;
    expect(lb).not.toBeNull();
    if (lb) {
      expectShape<BattleReport>('BattleReport', lb, { attacker: N, target: O, attack: N, defence: N, success: B, destroyed: N, captured: ['number', 'null'] });
      expect('army' in lb.target ? typeof lb.target.army.area : typeof lb.target.city).toBe('number');
    }
    expect(st.stack.length).toBeGreaterThan(0);
    for (const p of st.stack) {
      expect(Object.keys(p)).toHaveLength(1);
      if ('trade' in p) {
        for (const b of [p.trade.give, p.trade.get]) expectShape<Bundle>('Bundle', b, { resources: A, units: A, cities: A });
        expect(typeof p.trade.note).toBe('string');
        expect(typeof p.trade.proposed).toBe('boolean');
      }
    }
  });
  it('is drawn by the renderer', () => {
    const { board, panels } = sybaRenderer.render(sampleCtx('syba', view));
    expect(board?.querySelectorAll('.unit').length).toBe(view.state.units.length);
    const text = panels.map((p) => p.textContent).join(' ');
    expect(view.state.phase).toBe('play');
    expect(text).toContain(`Round ${view.state.round}`);
    expect(text).not.toContain('phase');
    expect(text).toContain('Last battle: attack');
    expect(text).toContain('Your starting city');
    expect(text).not.toContain('undefined');
  });
});

describe('Territories view declarations against a real view', () => {
  const view = territoriesSamples.mid_game as unknown as TerritoriesView;
  it('has the declared fields, of the declared kinds, at every level', () => {
    expectShape<TerritoriesView>('TerritoriesView', view, {
      observer: ['object', 'string'], phase: O, first: N, current: N, turn: N, roll: ['number', 'null'], die: ['number', 'null'], duel: ['array', 'null'],
      grid: A, buildings: A, bank: A, pile_count: N, hands: A, points: A, offer: ['object', 'null'], offers_made: N, max_offers: N, abilities_used: A, bare_turns: A,
    });
    expect(typeof view.phase.phase).toBe('string');
    expect(view.bank).toHaveLength(4);
    expect(view.grid.length).toBe(20);
    for (const c of view.grid) {
      expectShape<Cell>('Cell', c, { at: A, card: S });
      expect(c.at).toHaveLength(2);
      expect(c.card).toMatch(/^([2-689]|10|J|Q)[HSCD]$/);
    }
    for (const b of view.buildings) expectShape<Building>('Building', b, { at: A, owner: N, piece: S });
    const [own, other] = view.hands;
    expectShape<HandView>('HandView', own, { resource_count: N, territory_count: N, resources: A, territories: A });
    expectShape<HandView>('HandView', other, { resource_count: N, territory_count: N, resources: ['null'], territories: ['null'] });
    expect(view.offer).not.toBeNull();
    if (view.offer) expectShape<Offer>('Offer', view.offer, { give_res: A, give_cards: A, ask_res: A, ask_territories: N });
  });
  it('is drawn by the renderer', () => {
    const { board, panels } = territoriesRenderer.render(sampleCtx('territories', view));
    expect(board?.querySelectorAll('.card').length).toBe(20);
    const text = panels.map((p) => p.textContent).join(' ');
    expect(text).toContain('Trade offer: ');
    // The phase in words, not the engine's name for it.
    expect(view.phase.phase).toBe('main');
    expect(text).toContain('Building and trading');
    expect(text).not.toContain('Phase:');
    expect(text).not.toContain('undefined');
  });
});

describe("The engine's analyses and hints against their declaration", () => {
  const samples = analysisSamples as Json;
  const chance = (x: unknown) => {
    expect(x).toBeTypeOf('number');
    expect(x as number).toBeGreaterThanOrEqual(0);
    expect(x as number).toBeLessThanOrEqual(1);
  };
  const cells = (x: unknown) => list(x, (c) => expect(c).toMatch(SQUARE));

  it('reads an analysis with a blunder and the engine\'s preferred move', () => {
    const a = record(samples.analysis, ANALYSIS_KEYS);
    text(a.game);
    expect(a.seed).toMatch(/^[0-9]+$/);
    integer(a.iterations);
    integer(a.estimate_iterations);
    const t = record(a.thresholds, THRESHOLD_KEYS);
    Object.values(t).forEach(chance);
    integer(a.plies);
    list(a.seats, (x) => {
      const st = record(x, SEAT_SUMMARY_KEYS);
      integer(st.seat);
      text(st.name);
      [st.judged, st.inaccuracies, st.mistakes, st.blunders].forEach(integer);
      chance(st.average_drop);
    }, 2);
    list(a.decisions, (x) => {
      const d = partial(x, DECISION_KEYS, DECISION_OPTIONAL);
      integer(d.ply);
      integer(d.seat);
      expect(d.action).toBeTypeOf('object');
      text(d.notation);
      cells(d.cells);
      member(d.kind, DECISION_KINDS);
      if ('before' in d) chance(d.before);
      if ('after' in d) chance(d.after);
      if ('best_notation' in d) text(d.best_notation);
      if ('words' in d) text(d.words);
      if ('best_words' in d) text(d.best_words);
      if ('best_cells' in d) cells(d.best_cells);
      if ('mark' in d) member(d.mark, MARK_NAMES);
    });
    // The client's own reading of it: the marks, the graph, the decisions by position.
    const analysis = samples.analysis as Analysis;
    expect(markCounts(analysis).get(0)?.blunder).toBe(1);
    expect(decisionsByPly(analysis).get(0)?.best_notation).toBe('E4/3xE5');
    expect(dropOf(analysis.decisions[0])).toBeGreaterThan(0.3);
    expect(graphLines(analysis, { width: 600, height: 150, left: 34, pad: 8 })).toHaveLength(2);
    // The card of a decision says both moves in the engine's words, the notation in small print.
    const card = decisionCard(analysis.decisions[0], 'Gold', () => undefined, true).textContent ?? '';
    expect(card).toContain(`Gold played ${analysis.decisions[0].words?.replace('Gold: ', '')} E4-D3`);
    expect(card).toContain(`The engine prefers ${analysis.decisions[0].best_words?.replace('Gold: ', '')} E4/3xE5`);
    expect(card).not.toContain('Gold: ');
  });

  it.each(['hint', 'hint_setup'])('reads a hint (%s)', (name) => {
    const h = partial(samples[name], HINT_KEYS, ['estimate']);
    integer(h.seat);
    expect(h.action).toBeTypeOf('object');
    text(h.notation);
    text(h.words);
    list(h.cells, text);
    if (name === 'hint') chance(h.estimate);
    else expect('estimate' in h).toBe(false);
  });
});
