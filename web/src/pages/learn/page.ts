// Learning to play: /learn (every game with its lessons), /learn/<game> (the "How to play" guide, its
// diagrams drawn by the game's own renderer from lesson positions the server builds) and
// /learn/<game>/<n> (an interactive lesson). The server judges every lesson (docs/protocol.md,
// "Lessons"): the lesson page sends the player's actions and shows what the engine answers — the
// position, the legal actions, whether the goal is met, the refusal of a wrong try, the hint. The
// state and actions are the controllers' (ctrl.ts, guide.ts; no DOM); this module mounts the regions
// and redraws them from them (views/).

import { api } from '../../api';
import { attachBoardInput } from '../../games/board';
import { rendererFor, selectionFor } from '../../games/index';
import { markSolved } from '../../logic/learned';
import { clear, h } from '../../ui/dom';
import { GUIDES } from '../learn-guides';
import type { Page } from '../page';
import { LessonCtrl, type LessonRegion } from './ctrl';
import { GuideCtrl } from './guide';
import { allLessons } from './lessons';
import { drawFigure, guideView, indexView, missingView, type Figure } from './views/guide';
import { boardView, headView, sideView } from './views/lesson';

/** /learn: every game with its lessons. */
export function learnIndexPage(fail: (e: unknown) => void): Page {
  let left = false;
  return {
    mount(root) {
      clear(root);
      allLessons().then((games) => {
        if (!left) root.appendChild(indexView(games));
      }, fail);
    },
    unmount() {
      left = true;
    },
  };
}

/** /learn/<game>: the guide. */
export function guidePage(game: string, fail: (e: unknown) => void): Page {
  let left = false;
  return {
    mount(root) {
      clear(root);
      let figures = new Map<number, Figure[]>();
      const ctrl: GuideCtrl = new GuideCtrl(game, { call: api.call, lessons: allLessons, guide: (id) => GUIDES[id] }, {
        redraw(lesson) {
          if (left) return;
          if (lesson === undefined) {
            const drawn = guideView(ctrl);
            figures = drawn.figures;
            clear(root);
            root.append(...drawn.els);
          } else {
            for (const f of figures.get(lesson) ?? []) drawFigure(f, game, lesson, ctrl.diagrams.get(lesson));
          }
        },
        fail: (e) => { if (!left) fail(e); },
      });
      void ctrl.start();
    },
    unmount() {
      left = true;
    },
  };
}

/** /learn/<game>/<n>: an interactive lesson. */
export function lessonPage(game: string, n: number, fail: (e: unknown) => void): Page {
  let left = false;
  return {
    mount(root) {
      clear(root);
      const head = h('div.card');
      const boardHost = h('div.board-wrap', { 'data-testid': 'board' });
      const panelsHost = h('div.panels');
      const side = h('div.side');
      const page = h('div.game-layout.lesson', { 'data-testid': 'lesson', 'data-game': game, 'data-n': n },
        h('div.main-col', head, boardHost, panelsHost), side);
      const ctrl: LessonCtrl = new LessonCtrl(game, n, {
        call: api.call,
        lessons: allLessons,
        // The lessons ask every choice between variants (they teach them): no one-gesture default here.
        selection: (id, legal) => selectionFor(id, legal, false),
        markSolved,
      }, { redraw, fail: (e) => { if (!left) fail(e); } });

      /** The one redraw path: every region drawn from the controller. */
      function redraw(region: LessonRegion = 'all'): void {
        if (left) return;
        if (ctrl.busy !== null) page.setAttribute('data-busy', ctrl.busy ? '1' : '0');
        if (region === 'busy') return;
        const g = ctrl.lessons;
        const st = ctrl.st;
        const selection = ctrl.selection;
        if (!g || !st || !selection) {
          if (ctrl.missing) root.appendChild(missingView(`There is no lesson ${n} for "${game}".`));
          return;
        }
        if (!page.isConnected) root.appendChild(page);
        const renderer = rendererFor(game);
        page.setAttribute('data-moves', String(ctrl.actions.length));
        page.setAttribute('data-solved', st.solved ? '1' : '0');
        clear(head);
        head.append(...headView(ctrl, g, st, renderer));
        clear(boardHost);
        clear(panelsHost);
        panelsHost.append(...boardView(ctrl, st, selection, renderer, boardHost));
        clear(side);
        side.append(...sideView(ctrl, g, st, selection));
      }

      attachBoardInput(boardHost, (cell) => ctrl.onCell(cell));
      void ctrl.start();
    },
    unmount() {
      left = true;
    },
  };
}
