// The move list: one line per turn by one actor, each step in the words the server sent (or notation).
import { describe, expect, it } from 'vitest';
import { groupByTurn, stepText } from '../src/logic/movelist';
import type { MoveEntry, SeatInfo } from '../src/logic/snapshot';

const seats: SeatInfo[] = [
  { seat: 0, name: 'Gold', kind: 'human', joined: true },
  { seat: 1, name: 'Red', kind: 'human', joined: true },
];

function mv(seq: number, actor: MoveEntry['actor'], turn: number | null, words: string | null, notation: string | null): MoveEntry {
  return { seq, actor, turn, words, notation, cells: [] };
}

const kyo: MoveEntry[] = [
  mv(3, { seat: 0 }, 0, 'Gold: Heavy D0 → C1, Mana move', 'D0>C1'),
  mv(4, { seat: 0 }, 0, 'Gold: Heavy C1 → B2, Mana move', 'C1>B2'),
  mv(5, { seat: 0 }, 0, 'Gold ends the turn', 'end'),
  mv(6, { seat: 1 }, 1, 'Red: Light Pawn A6 → A5', 'A6-A5'),
];

describe('groupByTurn', () => {
  it('puts the steps of one turn on one line and starts a line per turn', () => {
    const lines = groupByTurn(kyo);
    expect(lines.map((l) => l.steps.map((s) => s.index))).toEqual([[0, 1, 2], [3]]);
    expect(lines[1].actor).toEqual({ seat: 1 });
  });

  it('gives each seat of a simultaneous setup and chance a line of its own within one turn', () => {
    const cyvasse = [
      mv(3, { seat: 1 }, 0, 'North sets up (hidden)', null),
      mv(4, { seat: 0 }, 0, 'South sets up (phalanx)', 'setup preset=phalanx …'),
      mv(5, 'chance', 0, 'South goes first (coin toss)', 'first South'),
      mv(6, { seat: 0 }, 0, 'South: Spearman f2 → f3', 'f2-f3'),
    ];
    expect(groupByTurn(cyvasse).map((l) => l.steps.length)).toEqual([1, 1, 1, 1]);
  });

  it('keeps one action a line when the server sends no turn', () => {
    const old = [mv(3, { seat: 0 }, null, null, 'a'), mv(4, { seat: 0 }, null, null, 'b')];
    expect(groupByTurn(old).length).toBe(2);
  });
});

describe('stepText', () => {
  it('words a later step without repeating the side', () => {
    expect(stepText(kyo[0], 0, seats, false)).toBe('Gold: Heavy D0 → C1, Mana move');
    expect(stepText(kyo[1], 1, seats, false)).toBe('Heavy C1 → B2, Mana move');
    expect(stepText(kyo[2], 2, seats, false)).toBe('Gold ends the turn');
  });

  it('shows the notation instead when asked, and a hidden action as hidden', () => {
    expect(stepText(kyo[0], 0, seats, true)).toBe('Gold: D0>C1');
    expect(stepText(kyo[1], 1, seats, true)).toBe('C1>B2');
    expect(stepText(mv(3, { seat: 1 }, 0, 'Red sets up (hidden)', null), 0, seats, true)).toBe('Red: (hidden)');
  });

  it('falls back to notation when the server sent no words', () => {
    expect(stepText(mv(3, 'chance', 0, null, '5'), 0, seats, false)).toBe('Chance: 5');
  });
});
