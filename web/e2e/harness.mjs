// The browser tests' harness on @playwright/test: a `tabula serve` per worker (and a private one for a
// test that restarts its server), pages in fresh browser contexts that fail the test on any console
// error, and the helpers the scenario files share (playing a decision by clicking, waiting for a turn,
// checking that nothing overflows a phone's screen).
//
// The scenario files declare their tests when they are loaded, before any server runs. The helper bag
// `h` they are given acts on the running test: its `base()` is the address of that test's server and its
// `newPage()` opens a page in that test's browser. A worker runs one test at a time, so the running
// test's fixtures are kept in one variable of the worker (`current`), set and cleared by an automatic
// fixture around every test.

import { test as pwTest, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AI_LEVEL, ALL_GAMES, ARTIFACTS, DESKTOP, GAMES, MOVES, PHONE } from './env.mjs';

export { expect, AI_LEVEL, ALL_GAMES, ARTIFACTS, DESKTOP, GAMES, MOVES, PHONE };

// ---------------------------------------------------------------- the server

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => ok(port));
    });
  });
}

/** Starts `tabula serve` ($TABULA_BIN) on a free loopback port with a throwaway data directory, and
 * waits for `/healthz`. `stop()` ends it (the data directory stays until `close()`); `start()` starts it
 * again on the same port with the same data; `close()` stops it and removes its data. */
export async function launchServer() {
  const bin = process.env.TABULA_BIN;
  if (!bin) throw new Error('TABULA_BIN must name the tabula binary (use scripts/e2e.sh)');
  const dataDir = mkdtempSync(join(tmpdir(), 'tabula-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let proc = null;
  const server = {
    base,
    bin,
    async start() {
      const logs = [];
      const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' },
      });
      proc = child;
      child.stdout.on('data', (d) => logs.push(String(d)));
      child.stderr.on('data', (d) => logs.push(String(d)));
      const exited = new Promise((_, fail) => child.once('exit', (code) => fail(new Error(`tabula serve exited (${code}):\n${logs.join('').slice(-4000)}`))));
      exited.catch(() => undefined);
      const healthy = expect.poll(async () => {
        try {
          return (await fetch(`${base}/healthz`)).ok;
        } catch {
          return false; // not listening yet
        }
      }, { message: `tabula serve answers /healthz at ${base}`, timeout: 60_000 }).toBe(true);
      await Promise.race([healthy, exited]);
    },
    async stop() {
      const child = proc;
      proc = null;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    },
    async close() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  // Never leave a server behind, even when the worker is torn down abruptly.
  process.once('exit', () => proc?.kill('SIGKILL'));
  await server.start();
  return server;
}

// ---------------------------------------------------------------- fixtures

/** The running test's server and page opener (see the note at the top). */
let current = null;

export const test = pwTest.extend({
  /** One server per worker, shared by its tests (each test makes its own games and accounts). */
  server: [async ({}, use) => {
    const server = await launchServer();
    try {
      await use(server);
    } finally {
      await server.close();
    }
  }, { scope: 'worker' }],

  /** A server of the test's own, for a test that stops and restarts it. It goes away before the
   * test's pages are closed: their failing reconnections from then on are expected. */
  privateServer: async ({}, use) => {
    const server = await launchServer();
    try {
      await use(server);
    } finally {
      for (const { page } of current?.newPage.pages ?? []) page.allowNetworkErrors = true;
      await server.close();
    }
  },

  /** Opens a page in a fresh browser context (its own storage: its own seat tokens and session), at
   * the test's viewport. Every console error or uncaught page error fails the test, except network
   * errors while `page.allowNetworkErrors` is set (a deliberate refusal or server restart). On a
   * failure each open page's screenshot is attached. Every context is closed afterwards. */
  newPage: async ({ browser, viewport }, use, testInfo) => {
    const pages = [];
    const open = async (name) => {
      const context = await browser.newContext({ viewport, acceptDownloads: true });
      const page = await context.newPage();
      page.errors = [];
      page.allowNetworkErrors = false;
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        const text = m.text();
        // The browser logs failed requests and WebSocket handshakes while they are expected.
        if (page.allowNetworkErrors && /WebSocket|ERR_CONNECTION_REFUSED|ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(text)) return;
        page.errors.push(`[${name}] console error: ${text}`);
      });
      page.on('pageerror', (e) => page.errors.push(`[${name}] page error: ${e.message}`));
      pages.push({ name, page });
      return page;
    };
    open.pages = pages;
    await use(open);
    const failed = testInfo.status !== testInfo.expectedStatus;
    for (const { name, page } of pages) {
      if (failed && !page.isClosed()) {
        const shot = await page.screenshot({ fullPage: true }).catch(() => null);
        if (shot) await testInfo.attach(`failure-${name}.png`, { body: shot, contentType: 'image/png' });
      }
      await page.context().close().catch(() => undefined);
    }
    const errors = pages.flatMap(({ page }) => page.errors);
    if (!failed) expect(errors, 'console errors in the browser').toEqual([]);
  },

  /** Binds the helper bag to this test's server and browser. */
  bind: [async ({ server, newPage }, use) => {
    current = { server, newPage };
    try {
      await use(undefined);
    } finally {
      current = null;
    }
  }, { auto: true }],
});

function running() {
  if (!current) throw new Error('a helper was used outside a running test');
  return current;
}

/** Runs `fn` with this test's helpers acting on `server` (a private server) instead of the worker's. */
export async function withServer(server, fn) {
  const saved = running().server;
  current.server = server;
  try {
    return await fn();
  } finally {
    if (current) current.server = saved;
  }
}

// ---------------------------------------------------------------- helpers

/** Fails with `msg` unless `cond` holds. */
export function assert(cond, msg) {
  expect(cond, msg).toBeTruthy();
}

/** Waits until `cond()` is truthy (Playwright's polling, no fixed sleep), or fails saying what was awaited. */
export async function until(cond, what, timeout = 20_000) {
  await expect.poll(async () => Boolean(await cond()), { message: `waiting for ${what}`, timeout }).toBe(true);
}

export const base = () => running().server.base;
export const newPage = (name) => running().newPage(name);
/** The running test's server: `stop()` and `start()` it (only a private server). */
export const theServer = () => running().server;

/** The console errors of these pages so far: none, or the test fails here. */
export async function noConsoleErrors(...pages) {
  expect(pages.flatMap((p) => p.errors), 'console errors in the browser').toEqual([]);
}

/** Signs up through the form (from the top bar's "Sign in"); lands on My games. */
export async function signUp(page, name, password) {
  await page.goto(`${base()}/`);
  await page.locator('[data-testid=sign-in]').click();
  await page.locator('a', { hasText: 'Create one' }).click();
  await page.locator('[data-testid=signup-form] input[name=name]').fill(name);
  await page.locator('[data-testid=signup-form] input[name=password]').fill(password);
  await page.locator('[data-testid=signup-form] button[type=submit]').click();
  await page.waitForURL(/\/me$/, { timeout: 15000 });
  await expect(page.locator('[data-testid=me]', { hasText: name })).toBeVisible({ timeout: 15000 });
}

export async function status(page) {
  return (await page.locator('[data-testid=status]').first().textContent({ timeout: 15000 })) ?? '';
}

/** What the status line says, as the page marks it: 'over', 'waiting' (for players to join), 'yours'
 * (this page owes a decision), 'sent' (it owed one and its action is on the way) or 'others'. */
export async function state(page) {
  return (await page.locator('[data-testid=status]').first().getAttribute('data-state', { timeout: 15000 })) ?? '';
}

export async function moveCount(page) {
  return page.locator('[data-testid=moves] [data-testid=move-step]').count();
}

export async function closeDialogs(page) {
  for (const d of await page.locator('dialog[open] button[data-value=close]').all()) await d.click();
}

/** Waits until the game page is settled: its player's turn, or the game over and its game-over dialog
 * (opened once, a moment after the end) closed. Other dialogs open are closed. */
export async function settle(page) {
  if ((await waitMyTurnOrOver(page)) === 'over' && !page.overDialogSeen) {
    await expect(page.locator('dialog[open] [data-testid=result]')).toBeVisible({ timeout: 20000 });
    page.overDialogSeen = true;
  }
  await closeDialogs(page);
}

/** Waits until this page owes a decision (no piece still sliding into place: pieces are clicked where
 * they stand) or the game is over; returns 'turn' or 'over'. */
export async function waitMyTurnOrOver(page, timeout = 60000) {
  const handle = await page.waitForFunction(() => {
    const st = document.querySelector('[data-testid=status]')?.getAttribute('data-state');
    if (st === 'over') return 'over';
    if (st === 'yours' && !document.querySelector('[data-testid=board] svg .moving')) return 'turn';
    return false;
  }, null, { timeout, polling: 'raf' }).catch(async (e) => {
    throw new Error(`timed out waiting for a turn; status: ${await status(page).catch(() => '?')} (${e.message.split('\n')[0]})`);
  });
  return handle.jsonValue();
}

const pickOne = (xs) => xs[Math.floor(Math.random() * xs.length)];

/** Clicks an action button and returns its notation, or `null` when the page redrew it first (it
 * went away or became disabled before it could be clicked). */
async function clickButton(b) {
  try {
    const n = await b.getAttribute('data-notation', { timeout: 5000 });
    await b.click({ timeout: 5000 });
    return n;
  } catch {
    return null;
  }
}

/** Waits until the move list or the status line differs from before (the action was acknowledged);
 * fails on the server's refusal. */
export async function waitChange(page, beforeMoves, beforeStatus, timeout = 30000) {
  const handle = await page.waitForFunction(([moves, st]) => {
    if (document.querySelectorAll('[data-testid=moves] [data-testid=move-step]').length !== moves) return 'changed';
    if ((document.querySelector('[data-testid=status]')?.textContent ?? '') !== st) return 'changed';
    if (document.querySelector('[data-testid=error]')) return 'error';
    return false;
  }, [beforeMoves, beforeStatus], { timeout, polling: 'raf' }).catch(() => {
    throw new Error(`the action was not acknowledged within ${timeout / 1000} s`);
  });
  if ((await handle.jsonValue()) === 'error') throw new Error(`server refused: ${await page.locator('[data-testid=error]').first().textContent()}`);
}

const CHOOSER = '[data-testid=chooser] button[data-notation]:not([disabled]), [data-testid=actions] button.primary[data-notation]:not([disabled])';
const TARGETS = '[data-testid=board] [data-cell].target';
const BUTTONS = '[data-testid=actions] .actions button[data-notation]:not(.primary):not([disabled])';

/** Makes one decision by clicking: a highlighted cell path on the board, or a button. Returns a label,
 * or `null` when a hot-seat page covered the board before anything could be clicked. */
export async function playOneDecision(page) {
  const before = await moveCount(page);
  const beforeStatus = await status(page);
  for (let clicks = 0; clicks < 24; clicks++) {
    // Only enabled buttons: the actions are disabled while a sent action is pending, and the box is
    // redrawn on every update, so a click may also miss (then look again).
    // A choice at a cell (the box on the board), or the card's primary action (a hidden setup's Ready).
    const chooser = await page.locator(CHOOSER).all();
    if (chooser.length) {
      const n = await clickButton(pickOne(chooser));
      if (n === null) continue;
      await waitChange(page, before, beforeStatus);
      return n;
    }
    const targets = await page.locator(TARGETS).all();
    const buttons = await page.locator(BUTTONS).all();
    const useBoard = targets.length > 0 && (buttons.length === 0 || Math.random() < 0.85);
    if (useBoard) {
      await pickOne(targets).click({ force: true });
      // Either the action went out (pending, then the update) or the selection moved on.
      const handle = await page.waitForFunction(([moves, st]) => {
        if (document.querySelectorAll('[data-testid=moves] [data-testid=move-step]').length !== moves) return 'changed';
        if ((document.querySelector('[data-testid=status]')?.textContent ?? '') !== st) return 'changed';
        if (document.querySelector('[data-testid=error]')) return 'error';
        if (!document.querySelector('[data-testid=actions][data-pending="1"]')) return 'idle';
        return false;
      }, [before, beforeStatus], { timeout: 30000, polling: 'raf' });
      const what = await handle.jsonValue();
      if (what === 'changed') return 'board';
      if (what === 'error') throw new Error(`server refused: ${await page.locator('[data-testid=error]').first().textContent()}`);
      continue;
    }
    if (buttons.length) {
      const n = await clickButton(pickOne(buttons));
      if (n === null) continue;
      await waitChange(page, before, beforeStatus);
      return n;
    }
    // The page may be between two updates: wait until it offers something to click, or the last click
    // completed the action after all (its update can land after the page had stopped showing it as
    // pending: another update, such as a join, arrived first), or a hot-seat page passed the device on
    // meanwhile (the status named the next local seat before its socket caught up, then the switch
    // covered the board: nothing was decided here).
    const next = await page.waitForFunction(([moves, st, sel]) => {
      if (document.querySelectorAll('[data-testid=moves] [data-testid=move-step]').length !== moves) return 'changed';
      if ((document.querySelector('[data-testid=status]')?.textContent ?? '') !== st) return 'changed';
      if (document.querySelector('[data-testid=pass-cover]')) return 'covered';
      if (document.querySelector(sel)) return 'offered';
      return false;
    }, [before, beforeStatus, `${CHOOSER}, ${TARGETS}, ${BUTTONS}`], { timeout: 5000, polling: 'raf' }).then((h) => h.jsonValue(), () => 'nothing');
    if (next === 'changed') return 'board';
    if (next === 'covered') return null;
    if (next === 'offered') continue;
    throw new Error(`nothing to click although it is this seat's decision (status: ${beforeStatus}; ${await page.locator('[data-testid=actions]').innerText().catch(() => 'no actions box')})`);
  }
  throw new Error('no action completed after 24 tries');
}

/** Nothing on the page is wider than the screen (no sideways scrolling of the page itself). */
export async function assertNoOverflow(page, width) {
  const wide = await page.evaluate((w) => {
    const out = [];
    if (document.documentElement.scrollWidth > w) out.push(`the page is ${document.documentElement.scrollWidth}px wide`);
    for (const el of document.querySelectorAll('main *')) {
      const r = el.getBoundingClientRect();
      // Elements inside a scrolling box (a wide table in its card, the move list) do not widen the page.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
      }
      if (!clipped && r.width > 0 && (r.right > w + 1 || r.left < -1)) out.push(`${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out.slice(0, 5);
  }, width);
  expect(wide, `overflow on a ${width}px screen`).toEqual([]);
}

/** The board's drawing, to tell two positions apart (or the note shown where a position has no board:
 * Territories before its first cards are dealt). */
export async function boardHtml(page, testid = 'board') {
  const host = page.locator(`[data-testid=${testid}]`);
  await expect(host.locator('svg, .no-board').first()).toBeVisible({ timeout: 15000 });
  // A piece still sliding (class `moving`) is compared once it has arrived.
  await host.locator('svg .moving').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
  if (await host.locator('svg').count()) return host.locator('svg').first().innerHTML();
  return host.locator('.no-board').first().textContent();
}

/** Waits until the replay shows "Action n of …". */
export async function waitPly(page, n) {
  await expect(page.locator('[data-testid=replay-ply]')).toHaveText(new RegExp(`^Action ${n} of `));
}

/** The games the server offers, from its catalog. */
export async function catalog() {
  const r = await fetch(`${base()}/api/catalog`);
  return (await r.json()).games;
}

/** A screenshot into the artifacts folder, under this name. */
export async function shotTo(page, name, fullPage = true) {
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage });
}

/** The helper bag the scenario files are given (with `test`). */
export const h = {
  newPage, base, assert, until, noConsoleErrors, assertNoOverflow, ARTIFACTS,
  playOneDecision, waitMyTurnOrOver, status, state, moveCount,
};
