// @vitest-environment happy-dom
// The game connection after a lobby claim replaced the seat's token: the server closes the socket with
// 1008 (bad_token); the connection must not redial with the dead token, and the device forgets the seat.
// Any other close (a network drop, a server restart) still redials.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_TOKEN_REPLACED, GameConn, REVOKED_TEXT } from '../src/conn';
import { forgetSeat, loadSeats, saveSeat } from '../src/store';

class FakeSocket {
  static made: FakeSocket[] = [];
  static readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string, readonly protocols?: string[]) {
    FakeSocket.made.push(this);
  }
  send(): void {}
  close(): void {}
}

const token = 'a'.repeat(64);

describe('GameConn after the seat token was replaced', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.made = [];
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a 1008 close stops redialling and reports the seat as lost', () => {
    const statuses: string[] = [];
    let revoked = 0;
    const conn = new GameConn('g1', { seat: 1, token }, {
      onMessage: () => {},
      onStatus: (_up, detail) => statuses.push(detail),
      onRevoked: () => revoked++,
    });
    conn.connect();
    expect(FakeSocket.made).toHaveLength(1);
    // The token travels as a subprotocol, never in the URL (which proxies log).
    expect(FakeSocket.made[0].url).toContain('seat=1');
    expect(FakeSocket.made[0].url).not.toContain(token);
    expect(FakeSocket.made[0].protocols).toEqual(['tabula', `tabula.token.${token}`]);
    FakeSocket.made[0].onclose?.({ code: CLOSE_TOKEN_REPLACED });
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.made).toHaveLength(1);
    expect(revoked).toBe(1);
    expect(statuses.at(-1)).toBe(REVOKED_TEXT);
  });

  it('any other close redials', () => {
    let revoked = 0;
    const conn = new GameConn('g1', { seat: 1, token }, {
      onMessage: () => {},
      onStatus: () => {},
      onRevoked: () => revoked++,
    });
    conn.connect();
    FakeSocket.made[0].onclose?.({ code: 1006 });
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.made.length).toBeGreaterThan(1);
    expect(revoked).toBe(0);
    conn.close();
  });

  it('forgetSeat drops only that seat of the game, also from storage', () => {
    saveSeat('g2', { seat: 0, token });
    saveSeat('g2', { seat: 1, token: 'b'.repeat(64) });
    forgetSeat('g2', 1);
    expect(loadSeats('g2')).toEqual([{ seat: 0, token }]);
    expect(JSON.parse(localStorage.getItem('tabula:seat:g2') ?? 'null')).toEqual([{ seat: 0, token }]);
  });
});
