// The lessons as the server serves them (docs/protocol.md, "Lessons"): the index of every game's
// lessons, and a lesson's state after the player's actions.

import { api, routes, type Call } from '../../api';
import type { GameLessons } from '../../wire/server/GameLessons';
import type { LessonState } from '../../wire/server/LessonState';
import type { PlayerAction } from '../../wire/server/PlayerAction';

let lessonsCache: Promise<GameLessons[]> | null = null;

/** Every game's lessons (asked once per page load). */
export function allLessons(): Promise<GameLessons[]> {
  lessonsCache ??= api.call(routes['GET /api/lessons']).then((r) => r.games).catch((e: unknown) => {
    lessonsCache = null;
    throw e;
  });
  return lessonsCache;
}

/** Lesson `n` of `game` after `actions` (the engine judges them; a refused one rejects). */
export function lessonState(call: Call, game: string, n: number, actions: PlayerAction[]): Promise<LessonState> {
  return call(routes['POST /api/lessons/{game}/{n}'], { params: { game, n }, body: { actions } });
}
