// The hidden-setup editor's pure logic: a draft army (and terrain) on the own half, started from one of
// the listed setups (presets, random), edited by swapping two cells, and sent as a setup action. The
// server validates it; its refusal message is shown as the validation message.

export interface SetupDraft {
  /** Piece code per cell of the own half (absent = empty). */
  pieces: Map<string, string>;
  /** Terrain code per cell of the own half (absent = the default terrain). */
  terrain: Map<string, string>;
}

export type SwapMode = 'pieces' | 'terrain';

/** Swaps what two cells of the draft hold (pieces or terrain); returns a new draft. */
export function swap(d: SetupDraft, a: string, b: string, mode: SwapMode): SetupDraft {
  const next: SetupDraft = { pieces: new Map(d.pieces), terrain: new Map(d.terrain) };
  const m = mode === 'pieces' ? next.pieces : next.terrain;
  const va = m.get(a);
  const vb = m.get(b);
  if (vb === undefined) m.delete(a);
  else m.set(a, vb);
  if (va === undefined) m.delete(b);
  else m.set(b, va);
  return next;
}

/** Trump Cyvasse: `{"setup": {"k3": "king", …}}`. */
export const trumpSetup = {
  fromAction(action: unknown): SetupDraft | null {
    const army = (action as { setup?: unknown } | null)?.setup;
    if (!army || typeof army !== 'object' || Array.isArray(army)) return null;
    const pieces = new Map<string, string>();
    for (const [cell, kind] of Object.entries(army as Record<string, unknown>)) {
      if (typeof kind !== 'string') return null;
      pieces.set(cell, kind);
    }
    return { pieces, terrain: new Map() };
  },
  toAction(d: SetupDraft): unknown {
    return { setup: Object.fromEntries([...d.pieces.entries()].sort(([a], [b]) => a.localeCompare(b))) };
  },
};

/** Caird's Cyvasse: `{"setup": {"terrain": "…", "pieces": "…"}}`, one character per home cell in
 * home order; `.` is an empty cell / Grassland. */
export function cairdSetup(homeCells: string[]) {
  const clean = (s: string) => [...s].filter((c) => c !== '/' && !/\s/.test(c));
  return {
    fromAction(action: unknown): SetupDraft | null {
      const plan = (action as { setup?: unknown } | null)?.setup;
      if (!plan || typeof plan !== 'object') return null;
      const p = (plan as Record<string, unknown>).pieces;
      const t = (plan as Record<string, unknown>).terrain;
      if (typeof p !== 'string') return null;
      const ps = clean(p);
      const ts = typeof t === 'string' ? clean(t) : [];
      const pieces = new Map<string, string>();
      const terrain = new Map<string, string>();
      homeCells.forEach((cell, i) => {
        if (ps[i] && ps[i] !== '.') pieces.set(cell, ps[i]);
        if (ts[i] && ts[i] !== '.') terrain.set(cell, ts[i]);
      });
      return { pieces, terrain };
    },
    toAction(d: SetupDraft): unknown {
      const pieces = homeCells.map((c) => d.pieces.get(c) ?? '.').join('');
      const terrain = homeCells.map((c) => d.terrain.get(c) ?? '.').join('');
      return { setup: { terrain: terrain.replace(/\./g, '') === '' ? '' : terrain, pieces } };
    },
  };
}
