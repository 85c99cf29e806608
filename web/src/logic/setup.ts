// The hidden-setup editor's pure logic: a draft army (and terrain) on the own half, started from one of
// the listed setups (presets, random), edited by swapping two cells, and sent as a setup action. The
// server validates it; its refusal message is shown as the validation message.

import type { Army } from '../wire/cyvasse/Army';
import type { CairdAction } from '../wire/cyvasse/CairdAction';
import type { SetupPlan } from '../wire/cyvasse/SetupPlan';
import type { TrumpAction } from '../wire/cyvasse/TrumpAction';

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

/** The object inside a listed action's JSON `{"setup": …}`, if the action is a setup. */
function setupOf(action: unknown): object | null {
  if (typeof action !== 'object' || action === null || !('setup' in action)) return null;
  const inner: unknown = action.setup;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? inner : null;
}

/** Trump Cyvasse: `{"setup": {"k3": "king", …}}` (a `TrumpAction`'s setup: an `Army`). */
export const trumpSetup = {
  fromAction(action: unknown): SetupDraft | null {
    const army = setupOf(action);
    if (!army) return null;
    const pieces = new Map<string, string>();
    for (const [cell, kind] of Object.entries(army)) {
      if (typeof kind !== 'string') return null;
      pieces.set(cell, kind);
    }
    return { pieces, terrain: new Map() };
  },
  toAction(d: SetupDraft): TrumpAction {
    // The draft holds the kinds a listed setup named (the server refuses any other).
    const army = Object.fromEntries([...d.pieces.entries()].sort(([a], [b]) => a.localeCompare(b))) as Army;
    return { setup: army };
  },
};

/** Caird's Cyvasse: `{"setup": {"terrain": "…", "pieces": "…"}}` (a `CairdAction`'s setup: a
 * `SetupPlan`), one character per home cell in home order; `.` is an empty cell / Grassland. */
export function cairdSetup(homeCells: string[]) {
  const clean = (s: string) => [...s].filter((c) => c !== '/' && !/\s/.test(c));
  return {
    fromAction(action: unknown): SetupDraft | null {
      const plan = setupOf(action);
      if (!plan) return null;
      const p: unknown = 'pieces' in plan ? plan.pieces : undefined;
      const t: unknown = 'terrain' in plan ? plan.terrain : undefined;
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
    toAction(d: SetupDraft): CairdAction {
      const pieces = homeCells.map((c) => d.pieces.get(c) ?? '.').join('');
      const terrain = homeCells.map((c) => d.terrain.get(c) ?? '.').join('');
      const plan: SetupPlan = { terrain: terrain.replace(/\./g, '') === '' ? '' : terrain, pieces };
      return { setup: plan };
    },
  };
}

/** The button label of a listed setup, from the label its notation carries after `setup` (the game
 * crates name where a listed setup comes from: `setup preset=phalanx …`, `mirrored-preset=phalanx`,
 * `random=2`, `king-safe-random=2`); a setup without one is numbered in the server's order. */
export function setupLabel(notation: string, i: number): string {
  const m = /^setup\s+(preset|mirrored-preset|random|king-safe-random)=(\S+)/.exec(notation.trim());
  if (!m) return `Setup ${i + 1}`;
  const [, kind, value] = m;
  switch (kind) {
    case 'preset':
      return `Preset: ${value}`;
    case 'mirrored-preset':
      return `Preset: ${value} (mirrored)`;
    case 'random':
      return `Random ${value}`;
    default:
      return `King-safe random ${value}`;
  }
}

/** The reasons why the server refused a setup, from its error message: the protocol's and the game's
 * prefixes removed (`illegal action: setup refused: …`), one reason per problem (a game lists several
 * separated by `; `), each starting with a capital letter. */
export function setupRefusal(message: string): string[] {
  let text = message.trim();
  for (;;) {
    const m = /^(illegal action|malformed action|setup refused|refused)\s*:\s*/i.exec(text);
    if (!m) break;
    text = text.slice(m[0].length);
  }
  const reasons = text.split(/;\s+/).map((r) => r.trim()).filter(Boolean);
  return (reasons.length ? reasons : [message.trim() || 'no reason given']).map((r) => r.charAt(0).toUpperCase() + r.slice(1));
}
