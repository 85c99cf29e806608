// The "How to play" guide's controller: the game's lessons, and each diagram's lesson position as the
// server builds it (drawn by the game's own renderer). No DOM. Unit-tested with a fake API
// (tests/lesson-ctrl.test.ts).

import type { Call } from '../../api';
import type { GameLessons } from '../../wire/server/GameLessons';
import type { LessonState } from '../../wire/server/LessonState';
import type { Guide } from '../learn-guides';
import { lessonState } from './lessons';

export interface GuideEnv {
  call: Call;
  lessons(): Promise<GameLessons[]>;
  guide(game: string): Guide | undefined;
}

/** A diagram: its position once drawn, or why it could not be. */
export type Diagram = { state: 'loading' } | { state: 'drawn'; st: LessonState } | { state: 'error'; error: string };

export interface GuideUi {
  /** The whole guide (`lesson` undefined), or lesson `lesson`'s diagram. */
  redraw(lesson?: number): void;
  fail(e: unknown): void;
}

export class GuideCtrl {
  lessons: GameLessons | null = null;
  guide: Guide | null = null;
  /** No guide for this game: the page says so. */
  missing = false;
  readonly diagrams = new Map<number, Diagram>();

  constructor(readonly game: string, private readonly env: GuideEnv, private readonly ui: GuideUi) {}

  async start(): Promise<void> {
    let games: GameLessons[];
    try {
      games = await this.env.lessons();
    } catch (e) {
      this.ui.fail(e);
      return;
    }
    const g = games.find((x) => x.game === this.game);
    const guide = this.env.guide(this.game);
    if (!g || !guide) {
      this.missing = true;
      this.ui.redraw();
      return;
    }
    this.lessons = g;
    this.guide = guide;
    const asked = guide.sections.flatMap((s) => (s.diagram ? [s.diagram.lesson] : []));
    for (const n of asked) this.diagrams.set(n, { state: 'loading' });
    this.ui.redraw();
    await Promise.all(asked.map(async (n) => {
      try {
        this.diagrams.set(n, { state: 'drawn', st: await lessonState(this.env.call, this.game, n, []) });
      } catch (e) {
        this.diagrams.set(n, { state: 'error', error: e instanceof Error ? e.message : String(e) });
      }
      this.ui.redraw(n);
    }));
  }
}
