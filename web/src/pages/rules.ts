// A rules page per game, rendered from the project's rules files (docs/rules/*.md), bundled at build time.
// Games sharing a file (the two Cyvasse rule families) are each shown their own part of it.

import { marked } from 'marked';
import { api, routes } from '../api';
import { clear, h } from '../ui/dom';
import { forPlayers, RULE_FAMILIES, rulesFileFor, rulesFor, siblingFamilies } from '../logic/rules';

const files = import.meta.glob('../../../docs/rules/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export function rulesPage(root: HTMLElement, gameId: string): void {
  clear(root);
  const key = rulesFileFor(gameId, Object.keys(files));
  if (!key) {
    root.appendChild(h('div.card', h('p.error', `No rules file for ${gameId}.`), listOfRules()));
    return;
  }
  const html = marked.parse(forPlayers(rulesFor(gameId, files[key])), { async: false }) as string;
  const article = h('article.card.rules', { 'data-testid': 'rules', 'data-game': gameId });
  // The rules files are the project's own documents, bundled at build time (not user input).
  article.innerHTML = html;
  const family = RULE_FAMILIES[gameId];
  const siblings = siblingFamilies(gameId);
  const note = family
    ? h('div.card.muted', { 'data-testid': 'rules-family' },
        `These are the rules of ${family.name} only (${gameId}). `,
        siblings.map(([id, name]) => h('span', 'The other rule family: ', h('a', { href: `/rules/${id}`, 'data-link': '' }, `${name} (${id})`), '. ')))
    : null;
  root.append(...(note ? [note] : []), article, listOfRules());
}

function listOfRules(): HTMLElement {
  return h('div.card', h('h3', 'All rules'), h('ul', Object.keys(files).map((f) => {
    const name = f.split('/').pop()?.replace(/\.md$/, '') ?? f;
    return h('li', h('a', { href: `/rules/${name}`, 'data-link': '' }, name));
  })));
}

/** The index of the rules (`/rules`): every game the server offers, its name and what it is, with links
 * to its rules and its first lesson. */
export async function rulesIndex(root: HTMLElement): Promise<void> {
  clear(root);
  const cat = await api.call(routes['GET /api/catalog']);
  root.appendChild(h('div.card', { 'data-testid': 'rules-index' },
    h('h2', 'Rules of the games'),
    h('p.muted', 'Each page is the complete rules of one game, every ambiguity decided. New to a game? "How to play" teaches it step by step on the board.'),
    h('ul.rules-index', cat.games.map((g) =>
      h('li', { 'data-game': g.id },
        h('a', { href: `/rules/${g.id}`, 'data-link': '' }, h('b', g.name)),
        g.description ? h('span.muted', ` — ${g.description} `) : ' ',
        h('a', { href: `/learn/${g.id}`, 'data-link': '' }, 'How to play'))))));
}
