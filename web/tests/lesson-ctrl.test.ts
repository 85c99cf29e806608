// The learn pages' controllers (src/pages/learn/ctrl.ts, guide.ts) without a DOM: a fake API standing
// for the server that judges the lessons. What they send, what they keep, when they redraw.
import { describe, expect, it } from 'vitest';
import { Selection, type LegalAction } from '../src/logic/select';
import { LessonCtrl, refusalWords, type LessonRegion } from '../src/pages/learn/ctrl';
import { GuideCtrl } from '../src/pages/learn/guide';
import type { GameLessons } from '../src/wire/server/GameLessons';
import type { LessonState } from '../src/wire/server/LessonState';
import { fakeApi, type FakeCall } from './fake-api';

const move = (from: string, to: string): LegalAction => ({ action: { from, to }, notation: `${from}-${to}`, words: `${from} → ${to}`, cells: [from, to] });
const lessons: GameLessons = { game: 'kyo', name: 'Kyo', count: 3, lessons: [] };

function state(over: Partial<LessonState> = {}): LessonState {
  return {
    game: 'kyo', n: 2, count: 3, title: 'Forward', goal: 'Reach the far row', intro: '', hint_text: '', success: 'Well done',
    seat: 0, next: 3, seats: ['Red', 'Gold'], options: {}, view: {}, legal: [move('a1', 'a2'), move('b1', 'b2')], moves: [],
    solved: false, failed: false, failure: null, hint: { notation: 'a1-a2', words: 'a1 → a2' }, ...over,
  } as LessonState;
}
const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(answer: (c: FakeCall) => unknown, n = 2) {
  const { call, calls } = fakeApi(answer);
  const redraws: (LessonRegion | undefined)[] = [];
  const solved: string[] = [];
  const failed: unknown[] = [];
  const ctrl = new LessonCtrl('kyo', n, {
    call,
    lessons: async () => [lessons],
    selection: (_g, legal) => new Selection(legal, false),
    markSolved: (g, k) => solved.push(`${g}/${k}`),
  }, { redraw: (r) => redraws.push(r), fail: (e) => failed.push(e) });
  return { ctrl, calls, redraws, solved, failed };
}

/** The server of a lesson: a1-a2 solves it, anything else is refused with the engine's words. */
const judge = (c: FakeCall) => {
  if (c.path === '/api/lessons/kyo/2') {
    const actions = (c.body as { actions: { action?: { from: string }; notation?: string }[] }).actions;
    if (actions.length === 0) return state();
    const last = actions[actions.length - 1];
    if (last.action?.from === 'a1') return state({ solved: true, legal: [], moves: [{ by: 'you', words: 'a1 → a2', notation: 'a1-a2', cells: ['a1', 'a2'] }] as never });
    return Promise.reject(new Error(`${last.notation ?? 'that move'} is not a legal move: the pawn moves forward`));
  }
  return undefined;
};

describe('LessonCtrl', () => {
  it('says there is no such lesson without asking for one', async () => {
    const { ctrl, calls } = setup(judge, 9);
    await ctrl.start();
    expect(ctrl.missing).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it('walks a click-click move to the server; a solved lesson is remembered on this device', async () => {
    const { ctrl, calls, solved, redraws } = setup(judge);
    await ctrl.start();
    expect(ctrl.st?.title).toBe('Forward');
    ctrl.onCell('a1');
    expect(ctrl.selection?.prefix).toEqual(['a1']);
    ctrl.onCell('a2');
    expect(ctrl.busy).toBe(true);
    expect(redraws.at(-1)).toBe('busy');
    // Nothing more is sent while the answer is on its way.
    ctrl.onCell('b1');
    await flush();
    expect(calls.map((c) => c.body)).toEqual([{ actions: [] }, { actions: [{ action: { from: 'a1', to: 'a2' } }] }]);
    expect(ctrl.busy).toBe(false);
    expect(ctrl.st?.solved).toBe(true);
    expect(ctrl.actions).toHaveLength(1);
    expect(solved).toEqual(['kyo/2']);
  });

  it('a refused try keeps the position and shows the engine\'s reason; a click to a cell no move reaches is such a try', async () => {
    const { ctrl, calls } = setup(judge);
    await ctrl.start();
    ctrl.onCell('b1');
    ctrl.onCell('c5');
    await flush();
    expect(calls[1].body).toEqual({ actions: [{ notation: 'b1-c5' }] });
    expect(ctrl.refusal).toBe('b1-c5 is not a legal move: the pawn moves forward');
    expect(ctrl.actions).toHaveLength(0);
    expect(ctrl.st?.solved).toBe(false);
    // Start again clears it.
    await ctrl.restart();
    expect(ctrl.refusal).toBe('');
  });

  it('a refusal reads as a sentence (no "illegal action:" prefix, no notation), and the next try clears it', async () => {
    const { ctrl } = setup((c) => {
      const actions = (c.body as { actions: unknown[] }).actions;
      return actions.length ? Promise.reject(new Error('illegal action: b1-c5: a Light Pawn steps one square.')) : state();
    });
    await ctrl.start();
    ctrl.onCell('b1');
    ctrl.onCell('c5');
    await flush();
    expect(ctrl.refusal).toBe('A Light Pawn steps one square');
    // The next click on the board is a new try: the old reason goes.
    ctrl.onCell('a1');
    expect(ctrl.refusal).toBe('');
    expect(refusalWords('illegal action: c4 holds your Spear')).toBe('c4 holds your Spear');
  });

  it('Hint: the lesson\'s next step; off its path, the engine is asked, and a late answer for an older position is dropped', async () => {
    const hints: FakeCall[] = [];
    const { ctrl } = setup((c) => {
      if (c.path.endsWith('/hint')) {
        hints.push(c);
        return undefined; // settled below
      }
      return c.path === '/api/lessons/kyo/2' ? state({ hint: null }) : undefined;
    });
    await ctrl.start();
    ctrl.hint();
    expect(ctrl.showHint).toBe(true);
    expect(ctrl.engineBusy).toBe(true);
    expect(hints[0].body).toEqual({ actions: [] });
    // A move is made meanwhile: the answer is for a position that is gone.
    ctrl.actions.push({ notation: 'b1-b2' });
    hints[0].resolve({ seat: 0, action: {}, notation: 'a1-a2', words: 'a1 → a2', cells: ['a1', 'a2'] });
    await flush();
    expect(ctrl.engineBusy).toBe(false);
    expect(ctrl.engineHint).toBeNull();
    void ctrl.askEngine();
    hints[1].resolve({ seat: 0, action: {}, notation: 'b2-b3', words: 'b2 → b3', cells: ['b2', 'b3'] });
    await flush();
    expect(ctrl.engineHint?.notation).toBe('b2-b3');
  });
});

describe('GuideCtrl', () => {
  it('draws the guide, then each diagram as its position comes (or its error)', async () => {
    const { call } = fakeApi((c) => (c.path === '/api/lessons/kyo/1' ? state({ n: 1 }) : Promise.reject(new Error('no lesson 4'))));
    const redraws: (number | undefined)[] = [];
    const guide = { summary: 'S', sections: [{ heading: 'A', paragraphs: [], diagram: { lesson: 1, caption: 'one' } }, { heading: 'B', paragraphs: [], diagram: { lesson: 4, caption: 'four' } }] };
    const ctrl = new GuideCtrl('kyo', { call, lessons: async () => [lessons], guide: () => guide }, { redraw: (n) => redraws.push(n), fail: () => undefined });
    await ctrl.start();
    expect(redraws[0]).toBeUndefined();
    expect(redraws.slice(1).sort()).toEqual([1, 4]);
    expect(ctrl.diagrams.get(1)?.state).toBe('drawn');
    expect(ctrl.diagrams.get(4)).toEqual({ state: 'error', error: 'no lesson 4' });
  });

  it('says there is no guide for a game without one', async () => {
    const { call, calls } = fakeApi(() => undefined);
    const redraws: (number | undefined)[] = [];
    const ctrl = new GuideCtrl('chess', { call, lessons: async () => [lessons], guide: () => undefined }, { redraw: (n) => redraws.push(n), fail: () => undefined });
    await ctrl.start();
    expect(ctrl.missing).toBe(true);
    expect(redraws).toEqual([undefined]);
    expect(calls).toHaveLength(0);
  });
});
