// The learn pages' static views: every game with its lessons, a game's lesson list, a diagram, and
// the "How to play" guide with its diagrams.

import { rendererFor } from '../../../games/index';
import { nextUnsolved, solvedLessons } from '../../../logic/learned';
import { Selection } from '../../../logic/select';
import { clear, h } from '../../../ui/dom';
import type { GameLessons } from '../../../wire/server/GameLessons';
import type { LessonState } from '../../../wire/server/LessonState';
import type { Diagram, GuideCtrl } from '../guide';

/** /learn: every game, its lessons solved here, the way in. */
export function indexView(games: GameLessons[]): HTMLElement {
  return h('section.card', { 'data-testid': 'learn-index' },
    h('h2', 'Learn to play'),
    h('p', 'Each game has a short guide and a series of lessons: a position, a goal, and the game itself judging your moves. Solved lessons are remembered on this device.'),
    h('div.grid', games.map((g) => {
      const done = solvedLessons(g.game).size;
      const next = nextUnsolved(g.game, g.count);
      return h('div.card.game-card', { 'data-testid': 'learn-game', 'data-game': g.game, 'data-count': g.count },
        h('h3', g.name),
        h('p', h('span', { 'data-testid': 'lesson-count' }, `${g.count} lessons`), h('span.muted', ` — ${done} solved here`)),
        h('div.row',
          h('a.btn', { href: `/learn/${g.game}`, 'data-link': '' }, 'How to play'),
          h('a.btn', { href: `/learn/${g.game}/${next ?? 1}`, 'data-link': '' }, next === null ? 'Lessons again' : done ? `Lesson ${next}` : 'First lesson'),
          h('a', { href: `/rules/${g.game}`, 'data-link': '' }, 'Complete rules')));
    })));
}

/** A game's lessons, those solved here ticked. */
export function lessonList(g: GameLessons): HTMLElement {
  const done = solvedLessons(g.game);
  return h('ol.lesson-list', { 'data-testid': 'lesson-list' }, g.lessons.map((l) =>
    h('li', h('a', { href: `/learn/${g.game}/${l.n}`, 'data-link': '' }, l.title), done.has(l.n) ? h('span', { 'data-testid': 'lesson-done' }, ' ✓') : null,
      h('span.muted', ` — ${l.goal}`))));
}

/** A read-only board of a lesson's starting position, drawn by the game's renderer. */
export function diagramOf(st: LessonState): HTMLElement {
  const renderer = rendererFor(st.game);
  const { board, panels } = renderer.render({
    gameId: st.game,
    view: st.view,
    options: st.options,
    seat: st.seat,
    seatNames: st.seats,
    selection: new Selection([]),
    lastMove: [],
    onCell: () => undefined,
  });
  return h('div.diagram', board ?? h('p.muted', 'No board at this point of the game.'), panels.length ? h('div.panels', panels) : null);
}

/** An address with no such guide or lesson. */
export function missingView(text: string): HTMLElement {
  return h('div.card', h('p.error', text), h('a', { href: '/learn', 'data-link': '' }, 'All games'));
}

/** A diagram's figure and its caption. */
export interface Figure {
  fig: HTMLElement;
  caption: string;
}

/** The guide: its sections, each diagram a figure (see `drawFigure`), the lessons. */
export function guideView(ctrl: GuideCtrl): { els: HTMLElement[]; figures: Map<number, Figure[]> } {
  const figures = new Map<number, Figure[]>();
  const g = ctrl.lessons;
  const guide = ctrl.guide;
  if (!g || !guide) return { els: [missingView(`There is no guide for "${ctrl.game}".`)], figures };
  const article = h('article.card.guide', { 'data-testid': 'guide', 'data-game': ctrl.game },
    h('h2', `How to play ${g.name}`),
    h('p', guide.summary));
  for (const s of guide.sections) {
    const sec = h('section', h('h3', s.heading), s.paragraphs.map((p) => h('p', p)));
    if (s.diagram) {
      const n = s.diagram.lesson;
      const fig = h('figure.diagram-box', { 'data-testid': 'diagram', 'data-lesson': n, 'data-state': 'loading' }, h('p.muted', 'Drawing…'));
      figures.set(n, [...(figures.get(n) ?? []), { fig, caption: s.diagram.caption }]);
      sec.appendChild(fig);
    }
    article.appendChild(sec);
  }
  article.appendChild(h('p', 'Every detail: ', h('a', { href: `/rules/${ctrl.game}`, 'data-link': '' }, 'Complete rules'), '.'));
  return { els: [article, h('section.card', h('h3', 'Lessons'), lessonList(g))], figures };
}

/** A diagram's figure once its position came (or could not). */
export function drawFigure({ fig, caption }: Figure, game: string, n: number, d: Diagram | undefined): void {
  if (!d || d.state === 'loading') return;
  clear(fig);
  if (d.state === 'drawn') {
    fig.append(diagramOf(d.st), h('figcaption', caption, ' ', h('a', { href: `/learn/${game}/${n}`, 'data-link': '' }, `(lesson ${n})`)));
  } else {
    fig.append(h('p.error', d.error));
  }
  fig.setAttribute('data-state', d.state);
}
