// A rules page per game, rendered from the project's rules files (docs/rules/*.md), bundled at build time.

import { marked } from 'marked';
import { clear, h } from '../ui/dom';

const files = import.meta.glob('../../../docs/rules/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** The rules file for a game id: `cyvasse-trump` → `cyvasse.md`. */
export function rulesFileFor(gameId: string, available: string[]): string | null {
  const base = gameId.split('-')[0];
  return available.find((f) => f.endsWith(`/${gameId}.md`)) ?? available.find((f) => f.endsWith(`/${base}.md`)) ?? null;
}

export function rulesPage(root: HTMLElement, gameId: string): void {
  clear(root);
  const key = rulesFileFor(gameId, Object.keys(files));
  if (!key) {
    root.appendChild(h('div.card', h('p.error', `No rules file for ${gameId}.`), listOfRules()));
    return;
  }
  const html = marked.parse(files[key], { async: false }) as string;
  const article = h('article.card.rules', { 'data-testid': 'rules' });
  // The rules files are the project's own documents, bundled at build time (not user input).
  article.innerHTML = html;
  root.append(article, listOfRules());
}

function listOfRules(): HTMLElement {
  return h('div.card', h('h3', 'All rules'), h('ul', Object.keys(files).map((f) => {
    const name = f.split('/').pop()?.replace(/\.md$/, '') ?? f;
    return h('li', h('a', { href: `/rules/${name}`, 'data-link': '' }, name));
  })));
}
