// Checks a record file chosen for import before sending it (the server replays and checks it fully).

export interface JsonRecord {
  game: string;
  options?: unknown;
  seed?: number;
  actions: { actor: { seat: number } | 'chance'; action: unknown }[];
  result?: unknown;
}

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
  if (r.seed !== undefined && typeof r.seed !== 'number') return { ok: false, error: '"seed" must be a number' };
  return { ok: true, record: r as unknown as JsonRecord };
}

/** The download name of a record file. */
export function fileName(record: JsonRecord, id: string): string {
  return `tabula-${record.game}-${id.slice(0, 8)}.json`;
}
