import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rulesFor, siblingFamilies, splitSections } from '../src/logic/rules';

const cyvasse = readFileSync(resolve(__dirname, '../../docs/rules/cyvasse.md'), 'utf8');

describe('rules pages', () => {
  it('split a file at its ## headings, not inside fenced code', () => {
    const md = '# T\nintro\n## A\na\n```\n## not a heading\n```\n## B\nb';
    expect(splitSections(md).map((s) => s.heading)).toEqual(['', 'A', 'B']);
    expect(splitSections(md).map((s) => s.lines.join('\n')).join('\n')).toBe(md);
  });
  it("show Strength & Trump Cyvasse only its own family of cyvasse.md", () => {
    const text = rulesFor('cyvasse-trump', cyvasse);
    expect(text).toContain('## Family 1 — "Strength & Trump" Cyvasse');
    expect(text).toContain('### Board and armies');
    expect(text).not.toContain('## Family 2');
    expect(text).not.toContain('### Version C — Expert (terrain)');
    expect(text).not.toContain('### Hex Cyvasse');
    // The introduction and the rules of both families stay.
    expect(text.startsWith('# Cyvasse')).toBe(true);
    expect(text).toContain('## Both families');
  });
  it("show Caird's Cyvasse only its own family of cyvasse.md", () => {
    const text = rulesFor('cyvasse-caird', cyvasse);
    expect(text).toContain('## Family 2 — Caird');
    expect(text).toContain('### Version C — Expert (terrain)');
    expect(text).toContain('### Hex Cyvasse');
    expect(text).not.toContain('## Family 1');
    expect(text).not.toContain('### Board and armies');
    expect(text.startsWith('# Cyvasse')).toBe(true);
    expect(text).toContain('## Both families');
  });
  it('show other games, and the file itself, whole', () => {
    expect(rulesFor('kyo', cyvasse)).toBe(cyvasse);
    expect(rulesFor('cyvasse', cyvasse)).toBe(cyvasse);
  });
  it('link each family to the other', () => {
    expect(siblingFamilies('cyvasse-trump')).toEqual([['cyvasse-caird', "Caird's rules"]]);
    expect(siblingFamilies('cyvasse-caird')).toEqual([['cyvasse-trump', 'Strength & Trump']]);
    expect(siblingFamilies('kyo')).toEqual([]);
  });
});

describe('rules for players', () => {
  it('turns [decision] markers into "how Tabula decides this" notes and folds the implementer notes away', async () => {
    const { forPlayers } = await import('../src/logic/rules');
    const md = '# Kyo — canonical rules for this project\n\nThe source is the seed text.\n\n## Moves\n- A pawn steps. **[decision]** Shields are owned.\n\n## Content this project must author\n- a map\n';
    const out = forPlayers(md);
    expect(out.startsWith('# Kyo\n')).toBe(true);
    expect(out).not.toContain('[decision]');
    expect(out).toContain('<span class="decision"');
    expect(out).toContain('how Tabula decides this</span> Shields are owned.');
    const [player, notes] = out.split('<details');
    expect(player).not.toContain('seed');
    expect(player).not.toContain('must author');
    expect(notes).toContain('The source is the seed text.');
    expect(notes).toContain('## Content this project must author');
  });

  it('leaves every rules file without a [decision] marker or "for this project" in the player\'s part', async () => {
    const { forPlayers } = await import('../src/logic/rules');
    for (const f of ['cyvasse', 'kyo', 'syba', 'territories']) {
      const md = readFileSync(resolve(__dirname, `../../docs/rules/${f}.md`), 'utf8');
      const player = forPlayers(md).split('<details')[0];
      expect(player).not.toMatch(/\[decision\]/);
      expect(player.split('\n')[0]).not.toMatch(/for this project/);
    }
  });
});
