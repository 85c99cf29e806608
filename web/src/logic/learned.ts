// What this device has learnt: the lessons solved (per game) and the kinds of game it has finished,
// kept in localStorage. The server judges every lesson; this only remembers its answers.

const SOLVED = (game: string) => `tabula:learn:solved:${game}`;
const FINISHED = 'tabula:learn:finished';

function read(key: string): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function write(key: string, values: string[]): void {
  try {
    localStorage.setItem(key, JSON.stringify([...new Set(values)]));
  } catch {
    /* storage full or disabled: nothing is remembered, nothing breaks */
  }
}

/** The lesson numbers solved on this device for `game`. */
export function solvedLessons(game: string): Set<number> {
  return new Set(read(SOLVED(game)).map(Number).filter((n) => Number.isInteger(n) && n > 0));
}

export function markSolved(game: string, n: number): void {
  write(SOLVED(game), [...read(SOLVED(game)), String(n)]);
}

/** Whether any lesson of any game was solved on this device. */
export function solvedAny(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith('tabula:learn:solved:') && read(key).length > 0) return true;
    }
  } catch {
    /* storage disabled: nothing solved here */
  }
  return false;
}

/** The first lesson of 1..count not solved yet, or null when all are. */
export function nextUnsolved(game: string, count: number): number | null {
  const done = solvedLessons(game);
  for (let n = 1; n <= count; n++) if (!done.has(n)) return n;
  return null;
}

/** Records that a game of this kind was finished on this device; true when it is the first one. */
export function firstFinish(game: string): boolean {
  const seen = read(FINISHED);
  if (seen.includes(game)) return false;
  write(FINISHED, [...seen, game]);
  return true;
}
