// An interactive lesson's controller: the lesson's state as the server judges it after the player's
// actions, the board's selection and chooser, the refusal of a wrong try, the hints (the lesson's and
// the engine's). No DOM: the views (views.ts) draw from it and call its actions; every change ends in
// `redraw`. Unit-tested with a fake API (tests/lesson-ctrl.test.ts).

import { routes, type Call } from '../../api';
import type { Hint } from '../../logic/hint';
import type { LegalAction, Selection } from '../../logic/select';
import type { GameLessons } from '../../wire/server/GameLessons';
import type { LessonState } from '../../wire/server/LessonState';
import type { PlayerAction } from '../../wire/server/PlayerAction';
import { lessonState } from './lessons';

export interface LessonEnv {
  call: Call;
  lessons(): Promise<GameLessons[]>;
  /** The board's selection over `legal` (the lessons ask every choice between variants). */
  selection(game: string, legal: LegalAction[]): Selection;
  markSolved(game: string, n: number): void;
}

/** The page's parts: all of it, or only whether an action is on its way. */
export type LessonRegion = 'all' | 'busy';

export interface LessonUi {
  redraw(region?: LessonRegion): void;
  /** The lesson could not be opened. */
  fail(e: unknown): void;
}

/** Whether this game writes moves as `from-to` between their two cells (then a click on a cell no legal
 * move reaches is sent as such a try, for the game to explain why it is refused). */
function fromTo(legal: LegalAction[]): boolean {
  return legal.some((a) => a.cells.length === 2 && a.notation === `${a.cells[0]}-${a.cells[1]}`);
}

/** A refusal as a player reads it: the protocol's prefix ("illegal action: ") and the tried move's
 * notation ("d2-d6: ") removed, starting with a capital letter (unless it starts with a cell's name,
 * such as "c4 holds your Spear"). */
export function refusalWords(message: string, notation?: string): string {
  let text = message.trim();
  const prefix = /^(illegal action|malformed action)\s*:\s*/i.exec(text);
  if (prefix) text = text.slice(prefix[0].length);
  if (notation && text.startsWith(`${notation}: `)) text = text.slice(notation.length + 2);
  text = text.replace(/\.$/, '');
  const first = text.split(/\s/, 1)[0] ?? '';
  return /\d/.test(first) ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

export class LessonCtrl {
  /** The game's lessons (null until known, or when there is no such lesson). */
  lessons: GameLessons | null = null;
  /** No such lesson: the page says so. */
  missing = false;
  st: LessonState | null = null;
  readonly actions: PlayerAction[] = [];
  selection: Selection | null = null;
  chooser: LegalAction[] | null = null;
  refusal = '';
  showHint = false;
  /** An action is on its way (null: none was sent yet). */
  busy: boolean | null = null;
  // The engine's hint for the position the actions lead to (asked on demand, or when the player has
  // left the lesson's listed solution), and whether it is being searched.
  engineHint: Hint | null = null;
  engineBusy = false;
  engineError = '';

  constructor(readonly game: string, readonly n: number, private readonly env: LessonEnv, private readonly ui: LessonUi) {}

  async start(): Promise<void> {
    try {
      const games = await this.env.lessons();
      const g = games.find((x) => x.game === this.game);
      if (!g || !Number.isInteger(this.n) || this.n < 1 || this.n > g.count) {
        this.missing = true;
      } else {
        this.st = await lessonState(this.env.call, this.game, this.n, []);
        this.lessons = g;
      }
    } catch (e) {
      this.ui.fail(e);
      return;
    }
    this.redraw();
  }

  /** The one redraw path: the selection follows the state (a half-made choice kept while it stands). */
  redraw(): void {
    if (this.st) {
      const keep = this.selection ? [...this.selection.prefix] : [];
      this.selection = this.env.selection(this.game, this.st.legal);
      if (!this.selection.keep(keep)) this.selection.autoSelect();
    }
    this.ui.redraw();
  }

  /** Sends an action (listed, or written in notation): the engine answers the new state or refuses. */
  async send(a: PlayerAction): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.ui.redraw('busy');
    try {
      this.st = await lessonState(this.env.call, this.game, this.n, [...this.actions, a]);
      this.actions.push(a);
      this.refusal = '';
      this.showHint = false;
      this.engineHint = null;
      this.engineError = '';
      if (this.st.solved) this.env.markSolved(this.game, this.n);
    } catch (e) {
      // The engine refused the move: its explanation, and the position stays as it was.
      const notation = 'notation' in a ? a.notation : this.st?.legal.find((l) => JSON.stringify(l.action) === JSON.stringify(a.action))?.notation;
      this.refusal = refusalWords(e instanceof Error ? e.message : String(e), notation);
    } finally {
      this.busy = false;
      this.chooser = null;
      this.redraw();
    }
  }

  async restart(): Promise<void> {
    this.actions.length = 0;
    this.refusal = '';
    this.showHint = false;
    this.engineHint = null;
    this.engineError = '';
    this.chooser = null;
    try {
      this.st = await lessonState(this.env.call, this.game, this.n, []);
    } catch (e) {
      this.refusal = e instanceof Error ? e.message : String(e);
    }
    this.redraw();
  }

  /** Asks the engine for its move in the current position (from the player's view only). */
  async askEngine(): Promise<void> {
    if (this.engineBusy) return;
    const at = this.actions.length;
    this.engineBusy = true;
    this.engineError = '';
    this.redraw();
    try {
      // The OpenAPI document does not describe the hint's answer (the AI crate's `Hint`, declared in
      // web/src/wire/ai/ but not in the document's schemas): its declaration is named here.
      const got = (await this.env.call(routes['POST /api/lessons/{game}/{n}/hint'], { params: { game: this.game, n: this.n }, body: { actions: this.actions } })) as Hint;
      if (this.actions.length === at) this.engineHint = got;
    } catch (e) {
      this.engineError = e instanceof Error ? e.message : String(e);
    } finally {
      this.engineBusy = false;
      this.redraw();
    }
  }

  /** The Hint button: the lesson's next step, or (off its path) the engine's. */
  hint(): void {
    this.showHint = true;
    this.redraw();
    if (!this.st?.hint && !this.engineHint) void this.askEngine();
  }

  /** A click on a board cell. */
  onCell(cell: string): void {
    const st = this.st;
    const selection = this.selection;
    if (!st || !selection || this.busy || st.solved || st.failed) return;
    // The next try: the last refusal is no longer the news.
    this.refusal = '';
    const before = [...selection.prefix];
    const r = selection.click(cell);
    this.chooser = null;
    if (r.kind === 'submit') {
      void this.send({ action: r.action.action });
      return;
    }
    if (r.kind === 'choose') this.chooser = r.options;
    if (r.kind === 'clear' && before.length === 1 && before[0] !== cell && fromTo(st.legal)) {
      // A move to a cell no legal move reaches: the game says why.
      void this.send({ notation: `${before[0]}-${cell}` });
      return;
    }
    this.redraw();
  }

  cancelSelection(): void {
    this.selection?.reset();
    this.chooser = null;
    this.redraw();
  }
}
