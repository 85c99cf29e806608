// Checks a record file chosen for import before sending it (the server replays and checks it fully).

import type { JsonRecord } from '../wire/core/JsonRecord';

/** A game's record as the server writes it (generated from `tabula_core::record::JsonRecord`). */
export type { JsonRecord };

/** Checks a record file's text and returns it in the server's form (the seed as a decimal string,
 * absent `options`, `seed` and `result` as the server reads them: defaults, 0, none). */
export function parseRecord(text: string): { ok: true; record: JsonRecord } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, error: 'a record is a JSON object with "game" and "actions"' };
  }
  const r = data as Record<string, unknown>;
  if (typeof r.game !== 'string' || r.game === '') return { ok: false, error: 'missing "game" (the game id)' };
  if (!Array.isArray(r.actions)) return { ok: false, error: 'missing "actions" (a list)' };
  for (let i = 0; i < r.actions.length; i++) {
    const a = r.actions[i] as Record<string, unknown> | null;
    if (typeof a !== 'object' || a === null || !('action' in a) || !('actor' in a)) {
      return { ok: false, error: `action ${i + 1}: expected {"actor": …, "action": …}` };
    }
    const actor = a.actor;
    const okActor =
      actor === 'chance' ||
      (typeof actor === 'object' && actor !== null && typeof (actor as Record<string, unknown>).seat === 'number');
    if (!okActor) return { ok: false, error: `action ${i + 1}: actor must be "chance" or {"seat": n}` };
  }
  if (r.seed !== undefined && !isSeed(r.seed)) {
    return { ok: false, error: '"seed" must be a whole number from 0 to 18446744073709551615 (best written as a string)' };
  }
  if (r.seed_commitment !== undefined && (typeof r.seed_commitment !== 'string' || !/^[0-9a-fA-F]{64}$/.test(r.seed_commitment))) {
    return { ok: false, error: '"seed_commitment" must be 64 hex digits' };
  }
  const seed = r.seed === undefined ? '0' : typeof r.seed === 'number' ? String(r.seed) : (r.seed as string).trim();
  const record: JsonRecord = {
    game: r.game,
    options: r.options ?? null,
    seed,
    actions: r.actions as JsonRecord['actions'],
    result: (r.result ?? null) as JsonRecord['result'],
  };
  if (typeof r.seed_commitment === 'string') record.seed_commitment = r.seed_commitment;
  return { ok: true, record };
}

/** The download name of a record file. */
export function fileName(record: JsonRecord, id: string): string {
  return `tabula-${record.game}-${id.slice(0, 8)}.json`;
}

/** Whether `v` is a seed: a 64-bit unsigned whole number, as a decimal string or an exact JSON number. */
export function isSeed(v: unknown): boolean {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0;
  if (typeof v !== 'string' || !/^\d{1,20}$/.test(v.trim())) return false;
  return BigInt(v.trim()) <= 18446744073709551615n;
}

/** What the game page's details say about the game's chance: the commitment from the start, the
 * seed once the game is over (until then nobody, the server's operator aside, can know it). */
export function fairnessText(s: { seed_commitment?: string | null; seed?: string | null }): {
  commitment: string | null;
  seed: string | null;
  note: string;
} {
  const commitment = s.seed_commitment ?? null;
  const seed = s.seed ?? null;
  const note = seed !== null
    ? 'The seed hashes to the commitment shown since the start: download the record and check it with `tabula replay --audit-seed`.'
    : 'The seed that draws every chance action is fixed and committed to; it is revealed when the game is over.';
  return { commitment, seed, note };
}
