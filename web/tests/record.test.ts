import { describe, expect, it } from 'vitest';
import { fairnessText, fileName, isSeed, parseRecord, type JsonRecord } from '../src/logic/record';
import { rulesFileFor } from '../src/logic/rules';

describe('record import', () => {
  const rec = { game: 'kyo', options: {}, seed: 7, actions: [{ actor: { seat: 0 }, action: { a: 1 } }, { actor: 'chance', action: 3 }] as JsonRecord['actions'], result: null };
  it('accepts a well-formed record, in the form the server writes', () => {
    const r = parseRecord(JSON.stringify(rec));
    expect(r).toEqual({ ok: true, record: { ...rec, seed: '7' } });
    // What the server reads by default: options null, seed 0, no result.
    const bare = parseRecord('{"game": "kyo", "actions": []}');
    expect(bare).toEqual({ ok: true, record: { game: 'kyo', options: null, seed: '0', actions: [], result: null } });
  });
  it('rejects bad files with a clear message', () => {
    const bad = (t: string) => { const r = parseRecord(t); return r.ok ? '' : r.error; };
    expect(bad('{')).toContain('not JSON');
    expect(bad('[]')).toContain('JSON object');
    expect(bad('{"actions": []}')).toContain('"game"');
    expect(bad('{"game": "kyo"}')).toContain('"actions"');
    expect(bad('{"game": "kyo", "actions": [{"actor": 3, "action": 1}]}')).toContain('action 1');
    expect(bad('{"game": "kyo", "actions": [], "seed": "x"}')).toContain('seed');
  });
  it('keeps a 64-bit seed exact: the server sends it as a string, and a download re-serialises it', () => {
    const big = '18446744073709551557';
    const text = JSON.stringify({ ...rec, seed: big, seed_commitment: 'ab'.repeat(32) });
    const r = parseRecord(text);
    expect(r.ok).toBe(true);
    // What the page downloads: the parsed record written out again.
    expect(JSON.stringify(r.ok ? r.record : null)).toContain(`"seed":"${big}"`);
    expect(isSeed(big)).toBe(true);
    expect(isSeed('18446744073709551616')).toBe(false);
    expect(isSeed(-1)).toBe(false);
    expect(isSeed(2 ** 60)).toBe(false);
    const bad = (t: string) => { const r2 = parseRecord(t); return r2.ok ? '' : r2.error; };
    expect(bad('{"game": "kyo", "actions": [], "seed_commitment": "xyz"}')).toContain('seed_commitment');
  });
  it('shows the commitment from the start and the seed only once revealed', () => {
    const c = 'cd'.repeat(32);
    const during = fairnessText({ seed_commitment: c, seed: null });
    expect([during.commitment, during.seed]).toEqual([c, null]);
    expect(during.note).toContain('revealed when the game is over');
    const after = fairnessText({ seed_commitment: c, seed: '42' });
    expect([after.commitment, after.seed]).toEqual([c, '42']);
    expect(after.note).toContain('--audit-seed');
  });
  it('names the downloaded file after the game and its id', () => {
    expect(fileName({ ...rec, seed: '7' }, 'abcdef0123')).toBe('tabula-kyo-abcdef01.json');
  });
  it('finds the rules file of every game id', () => {
    const files = ['../../../docs/rules/cyvasse.md', '../../../docs/rules/kyo.md'];
    expect(rulesFileFor('cyvasse-trump', files)).toBe(files[0]);
    expect(rulesFileFor('kyo', files)).toBe(files[1]);
    expect(rulesFileFor('chess', files)).toBeNull();
  });
});

import { errorMessage } from '../src/api';

describe('server error messages', () => {
  it('shows the message of the protocol error object', () => {
    expect(errorMessage({ error: { code: 'bad_request', message: 'bad value `9` for option `players`' } }, 400, 'Bad Request')).toBe('bad value `9` for option `players`');
    expect(errorMessage({ error: 'plain' }, 400, '')).toBe('plain');
    expect(errorMessage('text body', 500, 'Internal')).toBe('text body');
    expect(errorMessage(null, 502, 'Bad Gateway')).toBe('502 Bad Gateway');
  });
});
