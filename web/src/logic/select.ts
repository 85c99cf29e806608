// Maps clicks on board cells to the server's legal actions. The client never decides legality: it only
// reads which cells each legal action's notation names, in order, and lets the player pick a path through
// them. Actions naming no cell are offered as buttons.

export interface LegalAction {
  /** The action's JSON, sent back unchanged when chosen. */
  action: unknown;
  /** The game's notation of the action (from the server). */
  notation: string;
}

/** Finds cell names inside notations: longest names first, so `a10` wins over `a1`. */
export class CellTokenizer {
  private readonly re: RegExp | null;
  /** `words`: names are whole words (area names such as `bell` must not match inside `rebellion`). */
  constructor(cellNames: Iterable<string>, words = false) {
    const names = [...new Set(cellNames)].filter((n) => n.length > 0);
    names.sort((a, b) => b.length - a.length || a.localeCompare(b));
    const alt = names.map(escapeRegExp).join('|');
    this.re = names.length
      ? words
        ? new RegExp(`(?<![A-Za-z0-9'-])(${alt})(?![A-Za-z0-9'-])`, 'g')
        : new RegExp(`(${alt})(?![0-9])`, 'g')
      : null;
  }
  /** The cells a notation names, in order of appearance. A cell name must not continue a number. */
  cells(notation: string): string[] {
    if (!this.re) return [];
    const out: string[] = [];
    this.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = this.re.exec(notation)) !== null) {
      const before = m.index > 0 ? notation[m.index - 1] : '';
      // `a12` must not be read as `2` of some other name; names starting with a digit need a clean start.
      if (/[0-9]/.test(m[0][0]) && /[0-9]/.test(before)) {
        this.re.lastIndex = m.index + 1;
        continue;
      }
      out.push(m[0]);
    }
    return out;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface Indexed {
  legal: LegalAction;
  cells: string[];
}

/** What a click did. */
export type ClickResult =
  | { kind: 'submit'; action: LegalAction }
  | { kind: 'choose'; options: LegalAction[] }
  | { kind: 'select' }
  | { kind: 'clear' };

function startsWith(cells: string[], prefix: string[]): boolean {
  if (prefix.length > cells.length) return false;
  return prefix.every((c, i) => cells[i] === c);
}

/** Click-by-click selection of a legal action through the cells its notation names. */
export class Selection {
  readonly indexed: Indexed[];
  prefix: string[] = [];

  /** Actions naming more than `maxCells` cells (a whole army's setup) are offered as buttons. */
  constructor(legal: LegalAction[], tokenizer: CellTokenizer, maxCells = 8) {
    this.indexed = legal.map((l) => {
      const cells = tokenizer.cells(l.notation);
      return { legal: l, cells: cells.length > maxCells ? [] : cells };
    });
  }

  /** Actions that name no cell (end turn, ready, roll, trade…): shown as buttons. */
  cellless(): LegalAction[] {
    return this.indexed.filter((i) => i.cells.length === 0).map((i) => i.legal);
  }

  /** Actions consistent with the cells chosen so far. */
  candidates(prefix: string[] = this.prefix): Indexed[] {
    return this.indexed.filter((i) => i.cells.length > 0 && startsWith(i.cells, prefix));
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
    return this.candidates(prefix)
      .filter((i) => i.cells.length === prefix.length)
      .map((i) => i.legal);
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
        return { kind: 'clear' };
      }
    }
    this.prefix = next;
    const done = this.complete(next);
    const more = this.targets(next).size > 0;
    if (done.length === 1 && !more) {
      this.prefix = [];
      return { kind: 'submit', action: done[0] };
    }
    if (done.length > 0) return { kind: 'choose', options: done };
    return { kind: 'select' };
  }
}

/** The cells to mark as "last move": those named by the notation of the last visible move. */
export function lastMoveCells(notation: string | null | undefined, tokenizer: CellTokenizer): string[] {
  return notation ? tokenizer.cells(notation) : [];
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
