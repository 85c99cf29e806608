// Learning to play: /learn (every game with its lessons), /learn/<game> (the "How to play" guide, its
// diagrams drawn by the game's own renderer from lesson positions the server builds) and
// /learn/<game>/<n> (an interactive lesson). The server judges every lesson (docs/protocol.md,
// "Lessons"): this page sends the player's actions and shows what the engine answers — the position,
// the legal actions, whether the goal is met, the refusal of a wrong try, the hint.

import { api } from '../api';
import { rendererFor, selectionFor } from '../games/index';
import { attachBoardInput } from '../games/board';
import { Selection, ownWords, playerWords, type LegalAction } from '../logic/select';
import { markSolved, nextUnsolved, solvedLessons } from '../logic/learned';
import { clear, h } from '../ui/dom';
import type { Hint } from '../logic/hint';
import { percent } from '../logic/analysis';
import { GUIDES } from './learn-guides';
import { drawMovesOnBoard, type BoardMove } from './analysis';
import type { GameLessons } from '../wire/server/GameLessons';
import type { LessonState } from '../wire/server/LessonState';
import type { LessonsIndex } from '../wire/server/LessonsIndex';
import type { PlayerAction } from '../wire/server/PlayerAction';
import type { PlayReq } from '../wire/server/PlayReq';

let lessonsCache: Promise<GameLessons[]> | null = null;

/** Every game's lessons (asked once per page load). */
export function allLessons(): Promise<GameLessons[]> {
  lessonsCache ??= api.get<LessonsIndex>('/api/lessons').then((r) => r.games).catch((e: unknown) => {
    lessonsCache = null;
    throw e;
  });
  return lessonsCache;
}

function postLesson(game: string, n: number, actions: PlayerAction[]): Promise<LessonState> {
  const body: PlayReq = { actions };
  return api.post<LessonState>(`/api/lessons/${encodeURIComponent(game)}/${n}`, body);
}

export async function learnIndex(root: HTMLElement): Promise<void> {
  clear(root);
  const games = await allLessons();
  root.appendChild(h('section.card', { 'data-testid': 'learn-index' },
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
    }))));
}

function lessonList(g: GameLessons): HTMLElement {
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

export async function guidePage(root: HTMLElement, game: string): Promise<void> {
  clear(root);
  const games = await allLessons();
  const g = games.find((x) => x.game === game);
  const guide = GUIDES[game];
  if (!g || !guide) {
    root.appendChild(h('div.card', h('p.error', `There is no guide for "${game}".`), h('a', { href: '/learn', 'data-link': '' }, 'All games')));
    return;
  }
  const article = h('article.card.guide', { 'data-testid': 'guide', 'data-game': game },
    h('h2', `How to play ${g.name}`),
    h('p', guide.summary));
  const pending: Promise<void>[] = [];
  for (const s of guide.sections) {
    const sec = h('section', h('h3', s.heading), s.paragraphs.map((p) => h('p', p)));
    if (s.diagram) {
      const fig = h('figure.diagram-box', { 'data-testid': 'diagram', 'data-lesson': s.diagram.lesson, 'data-state': 'loading' },
        h('p.muted', 'Drawing…'));
      const caption = s.diagram.caption;
      const n = s.diagram.lesson;
      pending.push(postLesson(game, n, []).then((st) => {
        clear(fig);
        fig.append(diagramOf(st), h('figcaption', caption, ' ', h('a', { href: `/learn/${game}/${n}`, 'data-link': '' }, `(lesson ${n})`)));
        fig.setAttribute('data-state', 'drawn');
      }).catch((e: unknown) => {
        clear(fig);
        fig.append(h('p.error', e instanceof Error ? e.message : String(e)));
        fig.setAttribute('data-state', 'error');
      }));
      sec.appendChild(fig);
    }
    article.appendChild(sec);
  }
  article.appendChild(h('p', 'Every detail: ', h('a', { href: `/rules/${game}`, 'data-link': '' }, 'Complete rules'), '.'));
  root.append(article, h('section.card', h('h3', 'Lessons'), lessonList(g)));
  await Promise.all(pending);
}

/** A lesson move's words: the player's own as "You: …" when the words name the seat first ("Gold:
 * Heavy D3 → D4"), as they are when they say the seat in a sentence ("White places a Town"). */
function ownMove(by: string, words: string, seatName: string | undefined): string {
  if (by !== 'you') return words;
  const own = playerWords(words, seatName);
  return own === words ? words : `You: ${own}`;
}

/** Whether this game writes moves as `from-to` between their two cells (then a click on a cell no legal
 * move reaches is sent as such a try, for the game to explain why it is refused). */
function fromTo(legal: LegalAction[]): boolean {
  return legal.some((a) => a.cells.length === 2 && a.notation === `${a.cells[0]}-${a.cells[1]}`);
}

export async function lessonPage(root: HTMLElement, game: string, n: number): Promise<void> {
  clear(root);
  const games = await allLessons();
  const g = games.find((x) => x.game === game);
  if (!g || !Number.isInteger(n) || n < 1 || n > g.count) {
    root.appendChild(h('div.card', h('p.error', `There is no lesson ${n} for "${game}".`), h('a', { href: '/learn', 'data-link': '' }, 'All games')));
    return;
  }
  const actions: PlayerAction[] = [];
  let st: LessonState = await postLesson(game, n, []);
  let selection: Selection | null = null;
  let chooser: LegalAction[] | null = null;
  let refusal = '';
  let showHint = false;
  let busy = false;
  // The engine's hint for the position the actions lead to (asked on demand, or when the player has
  // left the lesson's listed solution), and whether it is being searched.
  let engineHint: Hint | null = null;
  let engineBusy = false;
  let engineError = '';

  const head = h('div.card');
  const boardHost = h('div.board-wrap', { 'data-testid': 'board' });
  attachBoardInput(boardHost, (cell) => onCell(cell));
  const panelsHost = h('div.panels');
  const side = h('div.side');
  const page = h('div.game-layout.lesson', { 'data-testid': 'lesson', 'data-game': game, 'data-n': n },
    h('div.main-col', head, boardHost, panelsHost), side);
  root.appendChild(page);

  async function send(a: { action?: unknown; notation?: string }): Promise<void> {
    if (busy) return;
    busy = true;
    page.setAttribute('data-busy', '1');
    try {
      st = await postLesson(game, n, [...actions, a]);
      actions.push(a);
      refusal = '';
      showHint = false;
      engineHint = null;
      engineError = '';
      if (st.solved) markSolved(game, n);
    } catch (e) {
      // The engine refused the move: its explanation, and the position stays as it was.
      refusal = e instanceof Error ? e.message : String(e);
    } finally {
      busy = false;
      page.setAttribute('data-busy', '0');
      chooser = null;
      draw();
    }
  }

  async function restart(): Promise<void> {
    actions.length = 0;
    refusal = '';
    showHint = false;
    engineHint = null;
    engineError = '';
    chooser = null;
    st = await postLesson(game, n, []);
    draw();
  }

  /** Asks the engine for its move in the current position (from the player's view only). */
  async function askEngine(): Promise<void> {
    if (engineBusy) return;
    const at = actions.length;
    engineBusy = true;
    engineError = '';
    draw();
    try {
      const body: PlayReq = { actions };
      const got = await api.post<Hint>(`/api/lessons/${encodeURIComponent(game)}/${n}/hint`, body);
      if (actions.length === at) engineHint = got;
    } catch (e) {
      engineError = e instanceof Error ? e.message : String(e);
    } finally {
      engineBusy = false;
      draw();
    }
  }

  function onCell(cell: string): void {
    if (!selection || busy || st.solved || st.failed) return;
    const before = [...selection.prefix];
    const r = selection.click(cell);
    chooser = null;
    if (r.kind === 'submit') {
      void send({ action: r.action.action });
      return;
    }
    if (r.kind === 'choose') chooser = r.options;
    if (r.kind === 'clear' && before.length === 1 && before[0] !== cell && fromTo(st.legal)) {
      // A move to a cell no legal move reaches: the game says why.
      void send({ notation: `${before[0]}-${cell}` });
      return;
    }
    draw();
  }

  function draw(): void {
    const renderer = rendererFor(game);
    const keep = selection ? [...selection.prefix] : [];
    // The lessons ask every choice between variants (they teach them): no one-gesture default here.
    selection = selectionFor(game, st.legal, false);
    if (!selection.keep(keep)) selection.autoSelect();
    page.setAttribute('data-moves', String(actions.length));
    page.setAttribute('data-solved', st.solved ? '1' : '0');

    clear(head);
    head.append(h('div',
      h('div.row', h('a', { href: `/learn/${game}`, 'data-link': '' }, `${g!.name}: how to play`), h('span.muted', `Lesson ${n} of ${g!.count}`)),
      h('h2', { style: 'margin:.3rem 0' }, st.title),
      st.intro ? h('p', st.intro) : null,
      h('p.goal', { 'data-testid': 'lesson-goal' }, h('b', 'Goal: '), st.goal),
    ));
    if (st.solved) {
      head.appendChild(h('div.banner.turn', { 'data-testid': 'lesson-solved', role: 'status' },
        h('b', 'Solved! '), st.success,
        h('div.banner-actions', st.next
          ? h('a.btn', { href: `/learn/${game}/${st.next}`, 'data-link': '', 'data-testid': 'lesson-next' }, `Next: lesson ${st.next}`)
          : h('a.btn', { href: `/learn/${game}`, 'data-link': '' }, 'All lessons done — back to the guide'))));
    } else if (st.failed) {
      head.appendChild(h('div.banner.warn', { 'data-testid': 'lesson-failed', role: 'status' }, st.failure ?? 'Not this time.', ' ',
        h('button', { 'data-testid': 'lesson-restart', onclick: () => void restart() }, 'Start again')));
    } else {
      // The view's note on the position (Caird: a check), as on the game page's status line.
      const note = renderer.statusNote?.(st.view, st.seat, st.seats) ?? null;
      head.appendChild(h('div.banner.turn', { 'data-testid': 'lesson-status' }, st.legal.length ? 'Your move.' : 'Waiting…',
        note ? h('div.status-note', { 'data-testid': 'status-note' }, note) : null));
    }
    if (refusal) head.appendChild(h('div.banner.warn', { 'data-testid': 'lesson-refusal', role: 'alert' }, h('b', 'Not allowed: '), refusal));
    if (showHint) {
      head.appendChild(h('div.banner', { 'data-testid': 'lesson-hint-text' },
        st.hint_text ? `${st.hint_text} ` : '',
        st.hint ? h('span', 'Next move: ', h('b', playerWords(st.hint.words, st.seats[st.seat])), ' ', h('code.muted', { 'data-testid': 'lesson-hint-move' }, st.hint.notation)) : h('span', 'You have left the lesson\'s path: start again to get the next move, or ask the engine.'),
        h('div.hint-box', { 'data-testid': 'engine-hint-box' },
          engineHint
            ? h('span', { 'data-testid': 'engine-hint-text' }, 'The engine suggests ', h('b', { 'data-testid': 'engine-hint-move', title: engineHint.notation }, playerWords(engineHint.words, st.seats[st.seat])), ' ', h('small.muted', engineHint.notation),
              engineHint.estimate !== undefined ? ` (winning chance ${percent(engineHint.estimate)})` : '', engineHint.cells.length ? ' — the green arrow.' : '.')
            : h('button', { 'data-testid': 'engine-hint', disabled: engineBusy, onclick: () => void askEngine() }, engineBusy ? 'The engine is thinking…' : 'Ask the engine'),
          engineError ? h('span.error', ` ${engineError}`) : null)));
    }

    clear(boardHost);
    clear(panelsHost);
    const { board, panels } = renderer.render({
      gameId: game,
      view: st.view,
      options: st.options,
      seat: st.seat,
      seatNames: st.seats,
      selection,
      lastMove: st.moves.length ? st.moves[st.moves.length - 1].cells : [],
      onCell,
      sendNotation: (notation: string) => void send({ notation }),
    });
    boardHost.appendChild(board ? h('div.board-scroll', board) : h('p.muted.no-board', 'No board now: use the buttons.'));
    if (board && showHint) {
      const shownMoves: BoardMove[] = [];
      if (engineHint?.cells.length) shownMoves.push({ cells: engineHint.cells, kind: 'hint' });
      else if (st.hint) {
        // The lesson's next step names its action: its cells are those of the same legal action.
        const next = st.legal.find((a) => a.notation === st.hint?.notation);
        if (next?.cells.length) shownMoves.push({ cells: next.cells, kind: 'hint' });
      }
      drawMovesOnBoard(boardHost, shownMoves);
    }
    for (const p of panels) panelsHost.appendChild(p);

    clear(side);
    const box = h('div.card', { 'data-testid': 'lesson-actions' });
    if (!st.solved && !st.failed) {
      if (selection.prefix.length) {
        box.appendChild(h('p', `Selected: ${selection.prefix.join(' → ')} `,
          h('button', { onclick: () => { selection?.reset(); chooser = null; draw(); } }, 'Cancel')));
      }
      if (chooser?.length) {
        box.appendChild(h('p', h('b', 'Choose:')));
        box.appendChild(h('div.actions', chooser.map((a) =>
          h('button.primary', { 'data-notation': a.notation, title: a.notation, onclick: () => void send({ action: a.action }) },
            ownWords(a, st.seats[st.seat]), ' ', h('small.muted', a.notation)))));
      }
      const buttons = selection.cellless();
      if (selection.targets().size && !chooser) box.appendChild(h('p.muted', selection.prefix.length ? 'Click a highlighted cell to continue.' : 'Click a highlighted piece or cell.'));
      if (buttons.length) {
        box.appendChild(h('div.actions', buttons.slice(0, 200).map((a) =>
          h('button', { 'data-notation': a.notation, title: a.notation, onclick: () => void send({ action: a.action }) },
            ownWords(a, st.seats[st.seat]), ' ', h('small.muted', a.notation)))));
      }
      const input = h('input', { 'data-testid': 'lesson-try-input', placeholder: 'or type a move', size: 16 }) as HTMLInputElement;
      box.appendChild(h('form.row', { style: 'margin-top:.5rem', onsubmit: (e: Event) => { e.preventDefault(); if (input.value.trim()) void send({ notation: input.value.trim() }); } },
        input, h('button', { type: 'submit', 'data-testid': 'lesson-try' }, 'Try')));
    }
    box.appendChild(h('div.row', { style: 'margin-top:.5rem' },
      !st.solved && !st.failed ? h('button', { 'data-testid': 'lesson-hint', onclick: () => { showHint = true; draw(); if (!st.hint && !engineHint) void askEngine(); } }, 'Hint') : null,
      h('button', { 'data-testid': 'lesson-restart-any', onclick: () => void restart() }, 'Start again')));
    side.appendChild(box);
    side.appendChild(h('div.card', h('h3', 'Moves'), st.moves.length
      ? h('ol', { 'data-testid': 'lesson-moves' }, st.moves.map((m) => h('li', { title: m.notation },
        ownMove(m.by, m.words, st.seats[st.seat]), ' ', h('small.muted', m.notation))))
      : h('p.muted', 'No move yet.')));
    side.appendChild(h('div.card', h('h3', 'Lessons'), lessonList(g!)));
  }

  draw();
}
