import { describe, expect, it } from 'vitest';
import { choiceHint } from '../src/games/index';

describe('choice hints', () => {
  it('explains Kyo slices, chip moves, deploys and shuffles', () => {
    expect(choiceHint('kyo', 'A0/1>B1')).toBe('leave 1 chip behind');
    expect(choiceHint('kyo', 'A0/2-A1')).toBe('leave 2 chips behind');
    expect(choiceHint('kyo', 'E1(2)-E2')).toBe('move 2 chips without the pawn');
    expect(choiceHint('kyo', 'E1*E2')).toBe('deploy 1 Shield');
    expect(choiceHint('kyo', 'E1(2)*E2')).toBe('deploy 2 Shields');
    expect(choiceHint('kyo', 'F0~SLD')).toBe('reorder the chips to SLD (bottom to top)');
    expect(choiceHint('kyo', 'A0>B1')).toContain('Mana move');
    expect(choiceHint('kyo', 'end')).toBe('');
  });
  it('explains Cyvasse shots and Territories upgrades', () => {
    expect(choiceHint('cyvasse-trump', 'i4*f5')).toBe('shoot without moving');
    expect(choiceHint('cyvasse-caird', 'e2xe5')).toBe('capture by moving');
    expect(choiceHint('territories', 'upgrade 2,3 fort')).toBe('upgrade to a fort');
    expect(choiceHint('syba', 'end')).toBe('');
  });
});

describe('the one list of games (games/register.ts)', () => {
  it('gives each game its renderer, its hint and its rule family, and others the generic view', async () => {
    const { GAMES } = await import('../src/games/register');
    const { rendererFor } = await import('../src/games/index');
    const { genericRenderer } = await import('../src/games/generic');
    const { RULE_FAMILIES } = await import('../src/logic/rules');
    expect(Object.keys(GAMES)).toEqual(['cyvasse-trump', 'cyvasse-caird', 'kyo', 'territories', 'syba']);
    for (const [id, game] of Object.entries(GAMES)) expect(rendererFor(id)).toBe(game.renderer);
    expect(rendererFor('chess')).toBe(genericRenderer);
    expect(choiceHint('chess', 'e2xe4')).toBe('');
    expect(Object.keys(RULE_FAMILIES)).toEqual(['cyvasse-trump', 'cyvasse-caird']);
    expect(RULE_FAMILIES['cyvasse-caird'].heading.test('Family: Caird')).toBe(true);
  });
});
