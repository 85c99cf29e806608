// Game options forms, driven by each game's option schema (as the server lists it).

export type OptionKind =
  | { type: 'bool' }
  | { type: 'int'; min: number; max: number }
  | { type: 'choice'; values: string[] };

export type OptionSpec = OptionKind & {
  name: string;
  default: unknown;
  description: string;
};

export type OptionValues = Record<string, boolean | number | string>;

/** The default value of every option. */
export function defaults(schema: OptionSpec[]): OptionValues {
  const out: OptionValues = {};
  for (const s of schema) {
    if (s.type === 'bool') out[s.name] = s.default === true;
    else if (s.type === 'int') out[s.name] = typeof s.default === 'number' ? s.default : s.min;
    else out[s.name] = typeof s.default === 'string' ? s.default : (s.values[0] ?? '');
  }
  return out;
}

/** Parses one form value (text from an input) into the option's JSON value, or an error message. */
export function parseValue(spec: OptionSpec, text: string | boolean): { ok: true; value: boolean | number | string } | { ok: false; error: string } {
  if (spec.type === 'bool') {
    if (typeof text === 'boolean') return { ok: true, value: text };
    if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
    return { ok: false, error: `${spec.name}: expected true or false` };
  }
  const t = String(text).trim();
  if (spec.type === 'int') {
    if (!/^-?\d+$/.test(t)) return { ok: false, error: `${spec.name}: expected a whole number from ${spec.min} to ${spec.max}` };
    const n = Number(t);
    if (n < spec.min || n > spec.max) {
      return { ok: false, error: `${spec.name}: ${n} is outside ${spec.min}..${spec.max}` };
    }
    return { ok: true, value: n };
  }
  if (!spec.values.includes(t)) {
    return { ok: false, error: `${spec.name}: expected one of ${spec.values.join(', ')}` };
  }
  return { ok: true, value: t };
}

/** Only the options that differ from their defaults (what a create request needs to send). */
export function changedOnly(schema: OptionSpec[], values: OptionValues): OptionValues {
  const d = defaults(schema);
  const out: OptionValues = {};
  for (const s of schema) {
    if (s.name in values && values[s.name] !== d[s.name]) out[s.name] = values[s.name];
  }
  return out;
}

/** A readable label from an option name: `light_pawn_rows` → `Light pawn rows`. */
export function label(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The seats this device plays ("me"), in seat order: sent as `host_seats` when the game is created
 * (several: hot-seat play on this device, all joined at once). */
export function hostSeats(choices: string[]): number[] {
  return choices.flatMap((c, i) => (c === 'me' ? [i] : []));
}
