// Maps clicks on board cells to the server's legal actions. The client never decides legality: the
// server lists, with each legal action, the cells (and items: areas, units) a player clicks to choose it,
// in order (`cells`, from the game's engine), and the player picks a path through them. Actions with no
// cell are offered as buttons; actions sharing their cells are offered as a choice, by their plain words
// (`words`, from the engine; the notation is the secondary text).

import type { ListedAction } from '../wire/core/ListedAction';

/** One legal action as the server lists it: the action's JSON (sent back unchanged when chosen), its
 * notation, its plain words and the cells a player clicks, in order, to choose it (empty: a button). */
export type LegalAction = ListedAction;

/** What a click did. */
export type ClickResult =
  | { kind: 'submit'; action: LegalAction }
  | { kind: 'choose'; options: LegalAction[] }
  | { kind: 'select' }
  /** The click led to no legal action: `cells` is the path that led nowhere (the clicked cell, after
   * the selected one when there was one), for the server to say why (`POST /api/games/{id}/explain`). */
  | { kind: 'clear'; cells: string[] };

function startsWith(cells: string[], prefix: string[]): boolean {
  if (prefix.length > cells.length) return false;
  return prefix.every((c, i) => cells[i] === c);
}

/** Click-by-click selection of a legal action through its cells. With `commonFirst` (a game whose
 * engine lists, among the actions sharing their cells, the common one first: Kyo), a click that
 * completes several actions makes the first listed at once, and a click that completes some while
 * more cells could follow only selects: the others are `variants`, one step away (a long press or a
 * right click on the cell). Which one is common is the engine's order, never decided here. */
export class Selection {
  readonly legal: LegalAction[];
  prefix: string[] = [];

  constructor(legal: LegalAction[], readonly commonFirst = false) {
    this.legal = legal;
  }

  /** The actions a long press (or a right click) on `cell` offers: those completed by the path that
   * `cell` extends (a target), ends (the cell chosen last) or starts (a stack of one's own). */
  variants(cell: string): LegalAction[] {
    const last = this.prefix[this.prefix.length - 1];
    if (last === cell) return this.complete();
    if (this.targets().has(cell)) return this.complete([...this.prefix, cell]);
    return this.targets([]).has(cell) || this.complete([cell]).length ? this.complete([cell]) : [];
  }

  /** Actions that name no cell (end turn, ready, roll, trade, a whole setup…): shown as buttons. */
  cellless(): LegalAction[] {
    return this.legal.filter((l) => l.cells.length === 0);
  }

  /** Actions consistent with the cells chosen so far. */
  candidates(prefix: string[] = this.prefix): LegalAction[] {
    return this.legal.filter((l) => l.cells.length > 0 && startsWith(l.cells, prefix));
  }

  /** Cells that may be clicked next. */
  targets(prefix: string[] = this.prefix): Set<string> {
    const out = new Set<string>();
    for (const i of this.candidates(prefix)) {
      if (i.cells.length > prefix.length) out.add(i.cells[prefix.length]);
    }
    return out;
  }

  /** Actions complete at the current prefix (every named cell chosen). */
  complete(prefix: string[] = this.prefix): LegalAction[] {
    return this.candidates(prefix).filter((l) => l.cells.length === prefix.length);
  }

  reset(): void {
    this.prefix = [];
  }

  /** When every cell action starts from one cell (a horse's second leg, a Mana chain) and none ends
   * there, that cell is chosen already so its targets show at once. Returns whether it did. */
  autoSelect(): boolean {
    if (this.prefix.length) return false;
    const starts = this.targets([]);
    if (starts.size !== 1) return false;
    const [only] = [...starts];
    if (this.complete([only]).length > 0) return false;
    this.prefix = [only];
    return true;
  }

  /** Carries a half-made choice over to a fresh selection (an update that changed nothing for this
   * player: a join, a draw offer, the other seat's hidden setup): keeps `prefix` when it still leads
   * somewhere here. Returns whether it did. */
  keep(prefix: string[]): boolean {
    if (prefix.length === 0) return false;
    if (this.targets(prefix).size === 0 && this.complete(prefix).length < 2) return false;
    this.prefix = [...prefix];
    return true;
  }

  click(cell: string): ClickResult {
    let next = [...this.prefix, cell];
    if (!this.targets().has(cell)) {
      // Not a continuation: start over from this cell when some action starts there.
      if (this.prefix.length > 0 && this.targets([]).has(cell)) {
        next = [cell];
      } else {
        this.prefix = [];
        return { kind: 'clear', cells: next };
      }
    }
    this.prefix = next;
    const done = this.complete(next);
    const more = this.targets(next).size > 0;
    if (done.length === 1 && !more) {
      this.prefix = [];
      return { kind: 'submit', action: done[0] };
    }
    if (this.commonFirst && done.length > 0) {
      if (more) return { kind: 'select' };
      this.prefix = [];
      return { kind: 'submit', action: done[0] };
    }
    if (done.length > 0) return { kind: 'choose', options: done };
    return { kind: 'select' };
  }
}

/** Buttons grouped by the first word of their notation (`give`, `ask`, `bank`, `buy`…), in order. */
export function groupByVerb(actions: LegalAction[]): [string, LegalAction[]][] {
  const groups = new Map<string, LegalAction[]>();
  for (const a of actions) {
    const verb = /^[A-Za-z-]+/.exec(a.notation)?.[0]?.toLowerCase() ?? '';
    const list = groups.get(verb);
    if (list) list.push(a);
    else groups.set(verb, [a]);
  }
  return [...groups.entries()];
}

/** Words the engine wrote for `seatName`'s own action, as that player reads them: without the leading
 * "<seat name>: " (the player knows who acts). */
export function playerWords(words: string, seatName: string | undefined): string {
  const prefix = seatName ? `${seatName}: ` : '';
  return prefix && words.startsWith(prefix) ? words.slice(prefix.length) : words;
}

/** An action's plain words for its own player's button ([`playerWords`]), or the notation when the
 * words are empty. */
export function ownWords(a: LegalAction, seatName: string | undefined): string {
  const w = a.words.trim();
  return w ? playerWords(w, seatName) : a.notation;
}
