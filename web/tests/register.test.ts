import { describe, expect, it } from 'vitest';

describe('the one list of games (games/register.ts)', () => {
  it('gives each game its renderer and its rule family, and others the generic view', async () => {
    const { GAMES } = await import('../src/games/register');
    const { rendererFor } = await import('../src/games/index');
    const { genericRenderer } = await import('../src/games/generic');
    const { RULE_FAMILIES } = await import('../src/logic/rules');
    expect(Object.keys(GAMES)).toEqual(['cyvasse-trump', 'cyvasse-caird', 'kyo', 'territories', 'syba']);
    for (const [id, game] of Object.entries(GAMES)) expect(rendererFor(id)).toBe(game?.renderer);
    expect(rendererFor('chess')).toBe(genericRenderer);
    expect(Object.keys(RULE_FAMILIES)).toEqual(['cyvasse-trump', 'cyvasse-caird']);
    expect(RULE_FAMILIES['cyvasse-caird'].heading.test('Family: Caird')).toBe(true);
  });
});
