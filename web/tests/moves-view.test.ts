// @vitest-environment happy-dom
// The game page's move list (src/pages/game/views/moves.ts): a turn of many steps is one line, folded
// to its first and last steps with the count between, and unfolds on request.
import { describe, expect, it } from 'vitest';
import type { GameCtrl } from '../src/pages/game/ctrl';
import { movesView } from '../src/pages/game/views/moves';
import type { GameEvent, Snapshot } from '../src/logic/snapshot';

const step = (seq: number, seat: number, turn: number, words: string): GameEvent =>
  ({ seq, at: 0, kind: 'action', actor: { seat }, notation: words, cells: [], words, turn }) as GameEvent;

/** A controller as the view reads it: the model, no review, the unfolded lines. */
function fakeCtrl(events: GameEvent[]) {
  const redraws: unknown[] = [];
  const ctrl = {
    model: { seats: [{ seat: 0, name: 'Gold' }, { seat: 1, name: 'Red' }], events } as unknown as Snapshot,
    review: { active: false, nav: { n: 0 } },
    openLines: new Set<number>(),
    reviewAt: () => undefined,
    redraw: (r: unknown) => redraws.push(r),
  };
  return { ctrl, redraws };
}

describe('move list', () => {
  const events = [
    step(1, 0, 0, 'Gold: Heavy D0 → D1'),
    ...[0, 1, 2, 3, 4].map((i) => step(2 + i, 1, 1, `Red: Queen I${8 - i} → I${7 - i}, Mana move`)),
    step(7, 0, 2, 'Gold: Light Pawn A3 → A4'),
  ];

  it('folds a turn of many steps into one line: first step, the count between, last step', () => {
    const { ctrl, redraws } = fakeCtrl(events);
    const card = movesView(ctrl as unknown as GameCtrl)!;
    const lines = card.querySelectorAll('[data-testid=move-line]');
    expect(lines).toHaveLength(3);
    const long = lines[1] as HTMLElement;
    const fold = long.querySelector('[data-testid=move-fold]') as HTMLButtonElement;
    expect(fold.textContent).toBe('… 3 more steps …');
    const hidden = long.querySelector('span[hidden]');
    expect(hidden?.querySelectorAll('[data-testid=move-step]')).toHaveLength(3);
    // Every step stays in the list (counted, clickable once unfolded); the first and last show.
    expect(long.querySelectorAll('[data-testid=move-step]')).toHaveLength(5);
    expect(long.textContent).toContain('Red: Queen I8 → I7, Mana move');
    expect(long.textContent).toContain('(5 steps)');
    expect(lines[0].querySelector('[data-testid=move-fold]')).toBeNull();
    fold.click();
    expect(ctrl.openLines.has(1)).toBe(true);
    expect(redraws).toEqual([['side']]);
    const open = movesView(ctrl as unknown as GameCtrl)!.querySelectorAll('[data-testid=move-line]')[1];
    expect(open.querySelector('span[hidden]')).toBeNull();
    expect(open.querySelector('[data-testid=move-fold]')?.getAttribute('aria-expanded')).toBe('true');
  });
});
