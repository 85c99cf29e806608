// @vitest-environment happy-dom
// The game page's hidden-setup editor against a mocked server connection: the listed setups are
// labelled by the origin their notation names, and a setup the server refuses shows the server's
// reasons on the setup screen.
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
    private next = 1;
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
      return this.next++;
    }
  },
}));

import '../src/games/register';
import { gamePage } from '../src/pages/game/page';
import type { Page } from '../src/pages/page';
import { saveSeat } from '../src/store';
import type { CairdView } from '../src/wire/cyvasse/CairdView';

// Caird's Cyvasse, Version C on 8x8: White's home is ranks 1-4 (32 cells, a1 b1 … h4).
const pieces = 'MMRRSSRR' + 'MM.SS.MM' + 'HLECCELH' + 'TD.K.T..';
const terrain = 'hhwwffff' + 'hhwwffff' + '........' + '...c....';
const plan = { terrain, pieces };
const options = { version: 'expert', board: 'square', large_board: false, dragon_reserve: false, super_trebuchets: false, dragonfyre: false, castle_storming: false, wildfyre: false, sea_movement: false } as const;
// White's view of the setup before either side committed, as the server sends it.
const view: CairdView = {
  observer: { seat: 0 }, setup_committed: [false, false], in_check: false, options, phase: 'setup', setups: [null, null],
  board: '', terrain: '', to_move: 0, dragon_in_reserve: [false, false], storm: [null, null], fortress_spent: [false, false], ply: 0, quiet_plies: 0, history: [], outcome: null,
};
const snapshot = {
  type: 'snapshot',
  id: 'g1',
  game: 'cyvasse-caird',
  name: "Caird's Cyvasse",
  status: 'running',
  seq: 3,
  you: { seat: 0 },
  seats: [{ seat: 0, name: 'White', kind: 'human', joined: true }, { seat: 1, name: 'Black', kind: 'ai', level: 1, joined: true }],
  options,
  to_act: { seats: [0, 1] },
  view,
  legal: [
    { action: { setup: plan }, notation: `setup preset=phalanx pieces=${pieces} terrain=${terrain}`, words: 'White sets up', cells: [] },
    { action: { setup: plan }, notation: `setup random=1 pieces=${pieces} terrain=${terrain}`, words: 'White sets up', cells: [] },
  ],
  events: [{ seq: 1, kind: 'created' }, { seq: 2, kind: 'join', seat: 0 }, { seq: 3, kind: 'start' }],
  draw_offer: null,
  clock: null,
  result: null,
  rematch: null,
};

let page: Page | null = null;

afterEach(() => {
  page?.unmount();
  page = null;
  conns.length = 0;
});

function openPage(): { root: HTMLElement; conn: FakeConn } {
  saveSeat('g1', { seat: 0, token: 'a'.repeat(64) });
  const root = document.createElement('main');
  document.body.appendChild(root);
  page = gamePage('g1', false);
  page.mount(root);
  const conn = conns[0];
  conn.handlers.onMessage(snapshot);
  return { root, conn };
}

describe('the hidden-setup editor', () => {
  it('labels the listed setups as presets and random setups', () => {
    const { root } = openPage();
    const buttons = [...root.querySelectorAll('[data-testid=setup-listed]')].map((b) => b.textContent);
    expect(buttons).toEqual(['Preset: phalanx', 'Random 1']);
    expect(root.querySelector('[data-testid=setup-editor]')?.textContent).toContain('Starting point: Preset: phalanx');
  });

  it("shows the server's reasons on the setup screen when it refuses the setup", () => {
    const { root, conn } = openPage();
    (root.querySelector('[data-testid=setup-ready]') as HTMLButtonElement).click();
    const sent = conn.sent.find((m) => m.type === 'action');
    expect(sent?.action).toEqual({ setup: plan });
    conn.handlers.onMessage({
      type: 'error', id: 1, code: 'illegal',
      message: 'illegal action: setup refused: the King stands on d4 but must start in the Fortress',
    });
    const box = root.querySelector('[data-testid=setup-editor] [data-testid=setup-error]');
    expect(box).not.toBeNull();
    expect(box?.textContent).toContain('The server refused this setup:');
    expect([...(box?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual(['The King stands on d4 but must start in the Fortress']);
    // Shown once, on the setup screen, not as the page's generic banner; the editor stays usable.
    expect(root.querySelector('[data-testid=error]')).toBeNull();
    expect((root.querySelector('[data-testid=setup-ready]') as HTMLButtonElement).disabled).toBe(false);
    // Once the draft is edited, the reasons stay, marked as being about the setup sent before.
    const cells = [...root.querySelectorAll('[data-testid=board] [data-cell].target')].map((e) => e.getAttribute('data-cell'));
    expect(cells).toContain('a1');
    expect(cells).toContain('b1');
    const click = (cell: string) => root.querySelector(`[data-testid=board] [data-cell="${cell}"]`)?.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    click('a1');
    click('b1');
    expect(root.querySelector('[data-testid=setup-editor]')?.textContent).toContain('Starting point: edited');
    const stale = root.querySelector('[data-testid=setup-error]');
    expect(stale?.getAttribute('data-stale')).toBe('1');
    expect(stale?.textContent).toContain('before these changes');
    expect(stale?.textContent).toContain('The King stands on d4 but must start in the Fortress');
    // Starting again from a listed setup clears it.
    (root.querySelectorAll('[data-testid=setup-listed]')[1] as HTMLButtonElement).click();
    expect(root.querySelector('[data-testid=setup-error]')).toBeNull();
  });

  it('keeps other refusals in the page banner', () => {
    const { root, conn } = openPage();
    conn.handlers.onMessage({ type: 'error', id: 9, code: 'conflict', message: 'no pending draw offer' });
    expect(root.querySelector('[data-testid=error]')?.textContent).toBe('no pending draw offer');
    expect(root.querySelector('[data-testid=setup-error]')).toBeNull();
  });
});
