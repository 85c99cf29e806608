// An interactive lesson's views: the head (title, goal, status, refusal, hints), the board, the side
// (the actions, the moves, the lessons). Each draws from the controller and calls its actions.

import { percent } from '../../../logic/analysis';
import { ownWords, playerWords, type Selection } from '../../../logic/select';
import type { Renderer } from '../../../games/types';
import { h } from '../../../ui/dom';
import type { GameLessons } from '../../../wire/server/GameLessons';
import type { LessonState } from '../../../wire/server/LessonState';
import { drawMovesOnBoard, type BoardMove } from '../../analysis';
import type { LessonCtrl } from '../ctrl';
import { lessonList } from './guide';

/** A lesson move's words: the player's own as "You: …" when the words name the seat first ("Gold:
 * Heavy D3 → D4"), as they are when they say the seat in a sentence ("White places a Town"). */
function ownMove(by: string, words: string, seatName: string | undefined): string {
  if (by !== 'you') return words;
  const own = playerWords(words, seatName);
  return own === words ? words : `You: ${own}`;
}

/** The head: the lesson's title and goal, solved / failed / whose move, the refusal, the hints. */
export function headView(ctrl: LessonCtrl, g: GameLessons, st: LessonState, renderer: Renderer): HTMLElement[] {
  const { game, n } = ctrl;
  const out: HTMLElement[] = [h('div',
    h('div.row', h('a', { href: `/learn/${game}`, 'data-link': '' }, `${g.name}: how to play`), h('span.muted', `Lesson ${n} of ${g.count}`)),
    h('h2', { style: 'margin:.3rem 0' }, st.title),
    st.intro ? h('p', st.intro) : null,
    h('p.goal', { 'data-testid': 'lesson-goal' }, h('b', 'Goal: '), st.goal),
  )];
  if (st.solved) {
    out.push(h('div.banner.turn', { 'data-testid': 'lesson-solved', role: 'status' },
      h('b', 'Solved! '), st.success,
      h('div.banner-actions', st.next
        ? h('a.btn', { href: `/learn/${game}/${st.next}`, 'data-link': '', 'data-testid': 'lesson-next' }, `Next: lesson ${st.next}`)
        : h('a.btn', { href: `/learn/${game}`, 'data-link': '' }, 'All lessons done — back to the guide'))));
  } else if (st.failed) {
    out.push(h('div.banner.warn', { 'data-testid': 'lesson-failed', role: 'status' }, st.failure ?? 'Not this time.', ' ',
      h('button', { 'data-testid': 'lesson-restart', onclick: () => void ctrl.restart() }, 'Start again')));
  } else {
    // The view's note on the position (Caird: a check), as on the game page's status line.
    const note = renderer.statusNote?.(st.view, st.seat, st.seats) ?? null;
    out.push(h('div.banner.turn', { 'data-testid': 'lesson-status' }, st.legal.length ? 'Your move.' : 'Waiting…',
      note ? h('div.status-note', { 'data-testid': 'status-note' }, note) : null));
  }
  if (ctrl.refusal) out.push(h('div.banner.warn', { 'data-testid': 'lesson-refusal', role: 'alert' }, h('b', 'Not allowed: '), ctrl.refusal));
  if (ctrl.showHint) out.push(hintView(ctrl, st));
  return out;
}

function hintView(ctrl: LessonCtrl, st: LessonState): HTMLElement {
  const engineHint = ctrl.engineHint;
  return h('div.banner', { 'data-testid': 'lesson-hint-text' },
    st.hint_text ? `${st.hint_text} ` : '',
    st.hint ? h('span', 'Next move: ', h('b', playerWords(st.hint.words, st.seats[st.seat])), ' ', h('code.muted', { 'data-testid': 'lesson-hint-move' }, st.hint.notation)) : h('span', 'You have left the lesson\'s path: start again to get the next move, or ask the engine.'),
    h('div.hint-box', { 'data-testid': 'engine-hint-box' },
      engineHint
        ? h('span', { 'data-testid': 'engine-hint-text' }, 'The engine suggests ', h('b', { 'data-testid': 'engine-hint-move', title: engineHint.notation }, playerWords(engineHint.words, st.seats[st.seat])), ' ', h('small.muted', engineHint.notation),
          engineHint.estimate !== undefined ? ` (winning chance ${percent(engineHint.estimate)})` : '', engineHint.cells.length ? ' — the green arrow.' : '.')
        : h('button', { 'data-testid': 'engine-hint', disabled: ctrl.engineBusy, onclick: () => void ctrl.askEngine() }, ctrl.engineBusy ? 'The engine is thinking…' : 'Ask the engine'),
      ctrl.engineError ? h('span.error', ` ${ctrl.engineError}`) : null));
}

/** The board (into `boardHost`, with the hint's arrow) and its panels. */
export function boardView(ctrl: LessonCtrl, st: LessonState, selection: Selection, renderer: Renderer, boardHost: HTMLElement): Element[] {
  const { board, panels } = renderer.render({
    gameId: ctrl.game,
    view: st.view,
    options: st.options,
    seat: st.seat,
    seatNames: st.seats,
    selection,
    lastMove: st.moves.length ? st.moves[st.moves.length - 1].cells : [],
    onCell: (cell) => ctrl.onCell(cell),
    sendNotation: (notation: string) => void ctrl.send({ notation }),
  });
  boardHost.appendChild(board ? h('div.board-scroll', board) : h('p.muted.no-board', 'No board now: use the buttons.'));
  if (board && ctrl.showHint) {
    const shownMoves: BoardMove[] = [];
    if (ctrl.engineHint?.cells.length) shownMoves.push({ cells: ctrl.engineHint.cells, kind: 'hint' });
    else if (st.hint) {
      // The lesson's next step names its action: its cells are those of the same legal action.
      const next = st.legal.find((a) => a.notation === st.hint?.notation);
      if (next?.cells.length) shownMoves.push({ cells: next.cells, kind: 'hint' });
    }
    drawMovesOnBoard(boardHost, shownMoves);
  }
  return panels;
}

/** The side: the selection and the actions to choose, the moves, the lessons. */
export function sideView(ctrl: LessonCtrl, g: GameLessons, st: LessonState, selection: Selection): HTMLElement[] {
  const you = st.seats[st.seat];
  const box = h('div.card', { 'data-testid': 'lesson-actions' });
  if (!st.solved && !st.failed) {
    if (selection.prefix.length) {
      box.appendChild(h('p', `Selected: ${selection.prefix.join(' → ')} `, h('button', { onclick: () => ctrl.cancelSelection() }, 'Cancel')));
    }
    const chooser = ctrl.chooser;
    if (chooser?.length) {
      box.appendChild(h('p', h('b', 'Choose:')));
      box.appendChild(h('div.actions', chooser.map((a) =>
        h('button.primary', { 'data-notation': a.notation, title: a.notation, onclick: () => void ctrl.send({ action: a.action }) },
          ownWords(a, you), ' ', h('small.muted', a.notation)))));
    }
    const buttons = selection.cellless();
    if (selection.targets().size && !chooser) box.appendChild(h('p.muted', selection.prefix.length ? 'Click a highlighted cell to continue.' : 'Click a highlighted piece or cell.'));
    if (buttons.length) {
      box.appendChild(h('div.actions', buttons.slice(0, 200).map((a) =>
        h('button', { 'data-notation': a.notation, title: a.notation, onclick: () => void ctrl.send({ action: a.action }) },
          ownWords(a, you), ' ', h('small.muted', a.notation)))));
    }
    const input = h('input', { 'data-testid': 'lesson-try-input', placeholder: 'or type a move', size: 16 }) as HTMLInputElement;
    box.appendChild(h('form.row', { style: 'margin-top:.5rem', onsubmit: (e: Event) => { e.preventDefault(); if (input.value.trim()) void ctrl.send({ notation: input.value.trim() }); } },
      input, h('button', { type: 'submit', 'data-testid': 'lesson-try' }, 'Try')));
  }
  box.appendChild(h('div.row', { style: 'margin-top:.5rem' },
    !st.solved && !st.failed ? h('button', { 'data-testid': 'lesson-hint', onclick: () => ctrl.hint() }, 'Hint') : null,
    h('button', { 'data-testid': 'lesson-restart-any', onclick: () => void ctrl.restart() }, 'Start again')));
  return [
    box,
    h('div.card', h('h3', 'Moves'), st.moves.length
      ? h('ol', { 'data-testid': 'lesson-moves' }, st.moves.map((m) => h('li', { title: m.notation },
        ownMove(m.by, m.words, you), ' ', h('small.muted', m.notation))))
      : h('p.muted', 'No move yet.')),
    h('div.card', h('h3', 'Lessons'), lessonList(g)),
  ];
}
