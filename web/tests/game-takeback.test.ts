// @vitest-environment happy-dom
// The game page offers a takeback exactly when the server would accept it: the snapshot's `may`
// decides, not a rule restated in the client. The case the client once got wrong: the player's own
// last turn was hidden from the opponent (a hidden setup). The player sees its notation, so a client
// rule "nothing hidden from me since" offered the button; the server refuses (it would keep what was
// hidden), and says so.
import { afterEach, describe, expect, it, vi } from 'vitest';

interface FakeConn {
  handlers: { onStatus(up: boolean, detail: string): void; onMessage(msg: unknown): void };
  sent: Record<string, unknown>[];
}
const conns: FakeConn[] = [];

vi.mock('../src/conn', () => ({
  GameConn: class {
    handlers: FakeConn['handlers'];
    sent: Record<string, unknown>[] = [];
    constructor(_id: string, _cred: unknown, handlers: FakeConn['handlers']) {
      this.handlers = handlers;
      conns.push(this);
    }
    connect() {
      this.handlers.onStatus(true, 'live');
    }
    close() {}
    kick() {}
    drop() {}
    send(msg: Record<string, unknown>) {
      this.sent.push(msg);
      return this.sent.length;
    }
  },
}));

import '../src/games/register';
import { gamePage } from '../src/pages/game/page';
import type { Page } from '../src/pages/page';
import { saveSeat } from '../src/store';

const refusal = 'a takeback cannot undo hidden information: a move since then was hidden from a player (undoing it would keep what it revealed)';

// A Duel-like game (the generic board): seat 0 played its secret, visible to seat 0 only.
function snapshot(may: unknown) {
  return {
    type: 'snapshot', id: 'g1', game: 'duel', name: 'Duel', status: 'running', seq: 4, now: 0,
    you: { seat: 0 },
    seats: [{ seat: 0, name: 'North', kind: 'human', joined: true }, { seat: 1, name: 'South', kind: 'human', joined: true }],
    options: {}, rated: false, to_act: { seat: 1 }, view: {}, legal: [], legal_sampled: false,
    events: [
      { seq: 1, at: 0, kind: 'created' }, { seq: 2, at: 0, kind: 'start' },
      { seq: 3, at: 0, kind: 'join', seat: 1 },
      { seq: 4, at: 0, kind: 'action', actor: { seat: 0 }, notation: 'secret:amberword', cells: [], words: 'North chooses a secret', turn: 0 },
    ],
    draw_offer: null, takeback_offer: null, clock: null, result: null, seed_commitment: 'ab', seed: null, rematch: null,
    may,
  };
}

let page: Page | null = null;
afterEach(() => {
  page?.unmount();
  page = null;
  conns.length = 0;
});

function open(may: unknown): { root: HTMLElement; conn: FakeConn } {
  saveSeat('g1', { seat: 0, token: 'a'.repeat(64) });
  const root = document.createElement('main');
  document.body.appendChild(root);
  page = gamePage('g1', false);
  page.mount(root);
  conns[0].handlers.onMessage(snapshot(may));
  return { root, conn: conns[0] };
}

describe('the takeback button', () => {
  it('is greyed out with the server\'s reason when the server would refuse, though the player saw its own move', () => {
    const { root } = open({ takeback: false, takeback_refusal: refusal, hint: false, draw_offer: true });
    const button = root.querySelector('[data-testid=takeback]') as HTMLButtonElement;
    expect(button).not.toBeNull();
    expect(button.disabled).toBe(true);
    expect(button.title).toBe(`${refusal[0].toUpperCase()}${refusal.slice(1)}.`);
  });

  it('is offered when the server would accept, and asks', () => {
    const { root, conn } = open({ takeback: true, takeback_refusal: null, hint: false, draw_offer: true });
    const button = root.querySelector('[data-testid=takeback]') as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.textContent).toBe('Ask to take back');
    button.click();
    expect(conn.sent).toEqual([{ type: 'takeback', op: 'offer' }]);
  });

  it('offers a draw and a hint only when the server says so', () => {
    const { root } = open({ takeback: false, takeback_refusal: refusal, hint: false, draw_offer: false });
    const labels = [...root.querySelectorAll('button')].map((b) => b.textContent);
    expect(labels).toContain('Resign');
    expect(labels).not.toContain('Offer draw');
    expect(root.querySelector('[data-testid=hint]')).toBeNull();
  });
});
