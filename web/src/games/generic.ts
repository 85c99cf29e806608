// The fallback for any game without its own renderer: the view as a readable tree. Every game is
// playable through it, because legal actions are always offered as buttons too.

import { h } from '../ui/dom';
import type { Renderer, RenderContext } from './types';

function tree(x: unknown, depth = 0): Element {
  if (x === null || typeof x !== 'object') return h('span', JSON.stringify(x));
  if (Array.isArray(x)) {
    if (x.every((v) => v === null || typeof v !== 'object') && x.length <= 40) {
      return h('span', JSON.stringify(x));
    }
    return h('ol', { start: 0 }, x.map((v) => h('li', tree(v, depth + 1))));
  }
  return h(
    'ul',
    Object.entries(x as Record<string, unknown>).map(([k, v]) => h('li', h('b', `${k}: `), tree(v, depth + 1))),
  );
}

export const genericRenderer: Renderer = {
  render(ctx: RenderContext) {
    return { board: null, panels: [h('div.card', h('h3', 'Position'), h('div.json', tree(ctx.view)))] };
  },
};
