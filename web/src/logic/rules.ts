// Which rules file, and which part of it, a game's rules page shows. Several games may share one file
// (`cyvasse-trump` and `cyvasse-caird` share docs/rules/cyvasse.md, one `## Family …` section each):
// each game is shown the file without the sections of the other rule families.

import { GAMES } from '../games/register';

/** The rules file for a game id: `kyo` → `kyo.md`, `cyvasse-trump` → `cyvasse-trump.md` if there is
 * one, else `cyvasse.md`. */
export function rulesFileFor(gameId: string, available: string[]): string | null {
  const base = gameId.split('-')[0];
  return available.find((f) => f.endsWith(`/${gameId}.md`)) ?? available.find((f) => f.endsWith(`/${base}.md`)) ?? null;
}

/** The rule families sharing a file: a game id and how the `##` heading of its family's section reads
 * (registered with each game in `games/register.ts`). */
export const RULE_FAMILIES: Record<string, { name: string; heading: RegExp }> = Object.fromEntries(
  Object.entries(GAMES).flatMap(([id, game]) => (game?.family ? [[id, game.family]] : [])),
);

interface Section {
  heading: string;
  lines: string[];
}

/** Splits Markdown at its `## ` headings (outside fenced code): the text before the first one, then one
 * section per heading. */
export function splitSections(markdown: string): Section[] {
  const out: Section[] = [{ heading: '', lines: [] }];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (!fence && /^## /.test(line)) out.push({ heading: line.slice(3).trim(), lines: [] });
    out[out.length - 1].lines.push(line);
  }
  return out;
}

/** The part of a rules file that concerns `gameId`: every section except those of another rule family
 * of the same file (a section that belongs to no family, like the introduction or "Both families",
 * stays). A game of no family gets the whole file. */
export function rulesFor(gameId: string, markdown: string): string {
  const mine = RULE_FAMILIES[gameId];
  if (!mine) return markdown;
  const others = Object.entries(RULE_FAMILIES).filter(([id]) => id !== gameId).map(([, f]) => f.heading);
  return splitSections(markdown)
    .filter((s) => mine.heading.test(s.heading) || !others.some((o) => o.test(s.heading)))
    .map((s) => s.lines.join('\n'))
    .join('\n');
}

/** The other games whose rules share this game's file (links under the page), as [game id, family name]. */
export function siblingFamilies(gameId: string): [string, string][] {
  if (!RULE_FAMILIES[gameId]) return [];
  const base = gameId.split('-')[0];
  return Object.entries(RULE_FAMILIES)
    .filter(([id]) => id !== gameId && id.split('-')[0] === base)
    .map(([id, f]) => [id, f.name]);
}

/** The rules file as a player reads it (the file itself stays the canonical reference, written for
 * implementers too): each `[decision]` marker becomes a small "how Tabula decides this" note, the
 * title loses "for this project", and the sections written for implementers (the sources before the
 * first `##` heading, "Content this project must author") move into a closed "Notes for
 * implementers" block at the end. Returns Markdown (with a little HTML). */
export function forPlayers(markdown: string): string {
  const sections = splitSections(markdown);
  const [intro, ...rest] = sections;
  const lines = intro?.lines ?? [];
  const titleAt = lines.findIndex((l) => /^# /.test(l));
  const title = titleAt >= 0
    ? lines[titleAt].replace(/\s*[—-]?\s*canonical rules( and content brief)? for this project/i, '').replace(/\s*\(\s*\)/, '').trim()
    : '';
  const sources = lines.filter((_, i) => i !== titleAt).join('\n').trim();
  const forImplementers = rest.filter((s) => /this project must author/i.test(s.heading));
  const forAll = rest.filter((s) => !forImplementers.includes(s));
  const notes = [sources, ...forImplementers.map((s) => s.lines.join('\n'))].filter(Boolean).join('\n\n');
  const body = [title, ...forAll.map((s) => s.lines.join('\n'))].filter(Boolean).join('\n');
  const decided = body.replace(/\*\*\[decision\]\*\*|\[decision\]/g,
    '<span class="decision" title="The rules leave this open; this is how Tabula plays it.">how Tabula decides this</span>');
  return notes
    ? `${decided}\n\n<details class="implementer-notes"><summary>Notes for implementers: sources and decisions</summary>\n\n${notes}\n\n</details>\n`
    : decided;
}
