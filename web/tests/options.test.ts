import { describe, expect, it } from 'vitest';
import { changedOnly, defaults, label, parseValue, hostSeats, type OptionSpec } from '../src/logic/options';

const schema: OptionSpec[] = [
  { name: 'extra_pieces', type: 'bool', default: false, description: '' },
  { name: 'players', type: 'int', min: 2, max: 6, default: 4, description: '' },
  { name: 'light_pawn_rows', type: 'choice', values: ['trench', 'open_field', 'deadlock'], default: 'trench', description: '' },
];

describe('options', () => {
  it('takes every default from the schema', () => {
    expect(defaults(schema)).toEqual({ extra_pieces: false, players: 4, light_pawn_rows: 'trench' });
  });
  it('parses and checks values with clear errors', () => {
    expect(parseValue(schema[1], '3')).toEqual({ ok: true, value: 3 });
    const bad = parseValue(schema[1], '9');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('2..6');
    const notNum = parseValue(schema[1], 'x');
    expect(notNum.ok).toBe(false);
    expect(parseValue(schema[2], 'deadlock')).toEqual({ ok: true, value: 'deadlock' });
    const badChoice = parseValue(schema[2], 'moat');
    expect(badChoice.ok).toBe(false);
    if (!badChoice.ok) expect(badChoice.error).toContain('trench, open_field, deadlock');
    expect(parseValue(schema[0], true)).toEqual({ ok: true, value: true });
    expect(parseValue(schema[0], 'maybe').ok).toBe(false);
  });
  it('sends only the options that differ from the defaults', () => {
    expect(changedOnly(schema, { extra_pieces: false, players: 3, light_pawn_rows: 'trench' })).toEqual({ players: 3 });
  });
  it('labels options readably', () => {
    expect(label('light_pawn_rows')).toBe('Light pawn rows');
  });
});

describe('seat plans', () => {
  it('lists the seats of this device in seat order, none, one or several (hot-seat)', () => {
    expect(hostSeats(['me', 'ai3'])).toEqual([0]);
    expect(hostSeats(['friend', 'me', 'open', 'ai1'])).toEqual([1]);
    expect(hostSeats(['ai2', 'ai5'])).toEqual([]);
    expect(hostSeats(['me', 'me'])).toEqual([0, 1]);
    expect(hostSeats(['me', 'ai4', 'me'])).toEqual([0, 2]);
  });
});
