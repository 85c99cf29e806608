// End-to-end tests of the web client in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core) against a real `tabula serve`. Started by scripts/e2e.sh, which sets TABULA_BIN,
// DATA_DIR and ARTIFACTS. Prints "N passed, N failed" last and exits non-zero on any failure.

import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { learnTests } from './learn.mjs';
import { accountTests } from './accounts.mjs';
import { analysisTests } from './analysis.mjs';
import { takebackTests } from './takeback.mjs';
import { chatTests } from './chat.mjs';
import { wordsTests } from './words.mjs';
import { explainTests } from './explain.mjs';
import { playTests } from './play.mjs';
import { loadTests } from './load.mjs';

const BIN = process.env.TABULA_BIN;
const DATA_DIR = process.env.DATA_DIR;
const ARTIFACTS = process.env.ARTIFACTS ?? 'test-artifacts';
const MOVES = Number(process.env.E2E_MOVES ?? 30);
const ONLY = process.env.E2E_ONLY ?? '';
// E2E_TESTS: run only the tests whose names contain this text (e.g. "accounts").
const NAMED = process.env.E2E_TESTS ?? '';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

if (!BIN || !DATA_DIR) {
  console.error('run.mjs: TABULA_BIN and DATA_DIR must be set (use scripts/e2e.sh)');
  process.exit(2);
}

// ---------------------------------------------------------------- server
let server = null;
let port = 0;
const base = () => `http://127.0.0.1:${port}`;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

async function startServer() {
  if (!port) port = await freePort();
  server = spawn(BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', DATA_DIR], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' },
  });
  const logs = [];
  server.stdout.on('data', (d) => logs.push(String(d)));
  server.stderr.on('data', (d) => logs.push(String(d)));
  const proc = server;
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}):\n${logs.join('').slice(-4000)}`);
    try {
      const r = await fetch(`${base()}/healthz`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  throw new Error(`server did not answer /healthz within 60 s:\n${logs.join('').slice(-4000)}`);
}

async function stopServer() {
  const proc = server;
  server = null;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(t);
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    server?.kill('SIGKILL');
    process.exit(130);
  });
}
process.on('exit', () => server?.kill('SIGKILL'));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- browser helpers
let browser;

async function newPage(name) {
  // A fresh browser context per player: each context has its own localStorage (its own seat tokens).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') {
      const text = m.text();
      // The browser logs failed WebSocket handshakes while the server is deliberately down.
      if (page.allowNetworkErrors && /WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(text)) return;
      page.errors.push(`[${name}] console error: ${text}`);
    }
  });
  page.on('pageerror', (e) => page.errors.push(`[${name}] page error: ${e.message}`));
  return page;
}

async function status(page) {
  return (await page.locator('[data-testid=status]').first().textContent({ timeout: 15000 })) ?? '';
}

/** What the status line says, as the page marks it: 'over', 'waiting' (for players to join), 'yours'
 * (this page owes a decision), 'sent' (it owed one and its action is on the way) or 'others'. */
async function state(page) {
  return (await page.locator('[data-testid=status]').first().getAttribute('data-state', { timeout: 15000 })) ?? '';
}

async function moveCount(page) {
  return page.locator('[data-testid=moves] [data-testid=move-step]').count();
}

async function closeDialogs(page) {
  for (const d of await page.locator('dialog[open] button[data-value=close]').all()) await d.click();
}

/** Waits until this page owes a decision or the game is over. */
async function waitMyTurnOrOver(page, timeout = 60000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const st = await state(page);
    if (st === 'over') return 'over';
    // The player's turn, once no piece is still sliding into place (pieces are clicked where they stand).
    if (st === 'yours' && (await page.locator('[data-testid=board] svg .moving').count()) === 0) return 'turn';
    await sleep(150);
  }
  throw new Error(`timed out waiting for a turn; status: ${await status(page)}`);
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

/** Makes one decision by clicking: a highlighted cell path on the board, or a button. Returns a label,
 * or `null` when a hot-seat page covered the board before anything could be clicked. */
async function playOneDecision(page) {
  const before = await moveCount(page);
  const beforeStatus = await status(page);
  let clocksIdle = 0;
  for (let clicks = 0; clicks < 24; clicks++) {
    // Only enabled buttons: the actions are disabled while a sent action is pending, and the box is
    // redrawn on every update, so a click may also miss (then look again).
    // A choice at a cell (the box on the board), or the card's primary action (a hidden setup's Ready).
    const chooser = await page.locator('[data-testid=chooser] button[data-notation]:not([disabled]), [data-testid=actions] button.primary[data-notation]:not([disabled])').all();
    if (chooser.length) {
      const n = await clickButton(pickOne(chooser));
      if (n === null) continue;
      await waitChange(page, before, beforeStatus);
      return n;
    }
    const targets = await page.locator('[data-testid=board] [data-cell].target').all();
    const buttons = await page.locator('[data-testid=actions] .actions button[data-notation]:not(.primary):not([disabled])').all();
    const useBoard = targets.length > 0 && (buttons.length === 0 || Math.random() < 0.85);
    if (useBoard) {
      const t = pickOne(targets);
      await t.click({ force: true });
      // Either the action went out (pending, then the update) or the selection moved on.
      const deadline = Date.now() + 30000;
      while (Date.now() < deadline) {
        if ((await moveCount(page)) !== before || (await status(page)) !== beforeStatus) return 'board';
        const err = page.locator('[data-testid=error]');
        if (await err.count()) throw new Error(`server refused: ${await err.first().textContent()}`);
        const pendingNow = await page.locator('[data-testid=actions][data-pending="1"]').count();
        if (!pendingNow) break;
        await sleep(100);
      }
      continue;
    }
    if (buttons.length) {
      const n = await clickButton(pickOne(buttons));
      if (n === null) continue;
      await waitChange(page, before, beforeStatus);
      return n;
    }
    // The page may be between two updates: look again a few times before giving up. (The last click may
    // have completed the action after all: its update can land after the page had stopped showing it as
    // pending — another update, such as a join, arrived first.)
    if ((await moveCount(page)) !== before || (await status(page)) !== beforeStatus) return 'board';
    // Hot-seat: the page may have passed the device on meanwhile (the status named the next local
    // seat before its socket caught up, then the switch covered the board): nothing was decided here.
    if (await page.locator('[data-testid=pass-cover]').count()) return null;
    if (clocksIdle++ < 10) {
      await sleep(300);
      continue;
    }
    await page.screenshot({ path: join(ARTIFACTS, `failure-${Date.now()}.png`), fullPage: true });
    throw new Error(`nothing to click although it is this seat's decision (status: ${beforeStatus}; ${await page.locator('[data-testid=actions]').innerText().catch(() => 'no actions box')})`);
  }
  throw new Error('no action completed after 24 tries');
}

/** Nothing on the page is wider than the screen (no sideways scrolling of the page itself). */
async function assertNoOverflow(page, width) {
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
  assert(wide.length === 0, `overflow on a ${width}px screen: ${wide.join('; ')}`);
}

/** The board's drawing, to tell two positions apart (or the note shown where a position has no board:
 * Territories before its first cards are dealt). */
async function boardHtml(page, testid = 'board') {
  const host = page.locator(`[data-testid=${testid}]`);
  await host.locator('svg, .no-board').first().waitFor({ timeout: 15000 });
  // A piece still sliding (class `moving`) is compared once it has arrived.
  await host.locator('svg .moving').first().waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
  if (await host.locator('svg').count()) return host.locator('svg').first().innerHTML();
  return host.locator('.no-board').first().textContent();
}

/** Waits until the replay shows "Action n of …". */
async function waitPly(page, n) {
  await page.locator('[data-testid=replay-ply]', { hasText: new RegExp(`^Action ${n} of `) }).waitFor({ timeout: 15000 });
}

/** Steps back through a live game on its game page (a seat or a spectator) and returns to the live position.
 * (Consecutive positions may look alike — Kyo's "end" moves nothing — so boards are compared with the start.) */
async function stepLiveGame(page, label) {
  const live = await boardHtml(page);
  const total = await moveCount(page);
  assert(total >= 2, 'too few moves to step through');
  await page.locator('[data-testid=moves] [data-testid=move-step]').first().click();
  await waitPly(page, 1);
  assert((await page.locator('[data-testid=actions]').count()) === 0, 'actions are offered while replaying');
  await page.locator('[data-testid=review] [data-testid=replay-first]').click();
  await waitPly(page, 0);
  const start = await boardHtml(page);
  assert(start !== live, 'the start of the game looks like the live position');
  await page.locator('[data-testid=review] [data-testid=replay-next]').click();
  await waitPly(page, 1);
  await page.locator('[data-testid=review] [data-testid=replay-next]').click();
  await waitPly(page, 2);
  await page.screenshot({ path: join(ARTIFACTS, `live-replay-${label}.png`), fullPage: true });
  await page.locator('[data-testid=review] [data-testid=replay-first]').click();
  await waitPly(page, 0);
  assert((await boardHtml(page)) === start, 'the start looks different the second time');
  await page.locator('[data-testid=replay-leave]').click();
  await page.locator('[data-testid=review]').waitFor({ state: 'detached', timeout: 15000 });
  assert((await boardHtml(page)) === live, 'leaving the replay did not return to the live position');
}

/** Makes one move by dragging a highlighted piece onto one of its highlighted targets (press, move,
 * release), choosing among variants if the drop names several. Returns 'drag', 'click' (the press alone
 * completed the move: the piece was selected already), or null when nothing could be dragged. */
async function dragOneMove(page) {
  const before = await moveCount(page);
  const beforeStatus = await status(page);
  const centre = async (loc) => {
    const b = await loc.boundingBox();
    return b ? { x: b.x + b.width / 2, y: b.y + b.height / 2 } : null;
  };
  const sources = await page.locator('[data-testid=board] [data-cell].target').all();
  for (const src of sources.slice(0, 6)) {
    const cell = await src.getAttribute('data-cell');
    const from = await centre(src);
    if (!from) continue;
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    if ((await page.locator('[data-testid=actions][data-pending="1"]').count()) || (await moveCount(page)) !== before) {
      await page.mouse.up();
      await waitChange(page, before, beforeStatus);
      return 'click';
    }
    // Pressing selected the piece: its targets are highlighted now (the board was redrawn).
    const dests = (await page.locator('[data-testid=board] [data-cell].target').all());
    let to = null;
    for (const d of dests) {
      if ((await d.getAttribute('data-cell')) !== cell) { to = await centre(d); if (to) break; }
    }
    if (!to) {
      await page.mouse.up();
      await page.locator('[data-testid=actions] button', { hasText: 'Cancel' }).click().catch(() => undefined);
      continue;
    }
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2);
    await page.mouse.move(to.x, to.y);
    await page.mouse.up();
    const chooser = await page.locator('[data-testid=chooser] button[data-notation]').all();
    if (chooser.length) await pickOne(chooser).click();
    await waitChange(page, before, beforeStatus);
    return 'drag';
  }
  return null;
}

async function waitChange(page, beforeMoves, beforeStatus, timeout = 30000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    if ((await moveCount(page)) !== beforeMoves) return;
    if ((await status(page)) !== beforeStatus) return;
    const err = page.locator('[data-testid=error]');
    if (await err.count()) throw new Error(`server refused: ${await err.first().textContent()}`);
    await sleep(100);
  }
  throw new Error('the action was not acknowledged within 30 s');
}

// ---------------------------------------------------------------- tests
const results = [];
async function test(name, fn) {
  if (NAMED && !name.includes(NAMED)) return;
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${e instanceof Error ? e.stack ?? e.message : e}`);
  }
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

async function noConsoleErrors(...pages) {
  const errs = pages.flatMap((p) => p.errors);
  assert(errs.length === 0, errs.join('\n'));
}

async function catalog() {
  const r = await fetch(`${base()}/api/catalog`);
  const c = await r.json();
  return c.games;
}

/** Creates a game against the AI through the lobby's options form ("Options & friends"), with these
 * options (a select per choice, a checkbox per bool), and checks that the server created it with them.
 * Returns the game's id. */
async function createWithOptions(page, game, options) {
  await page.goto(`${base()}/`);
  const card = page.locator(`[data-game="${game.id}"]`);
  await card.locator('button', { hasText: 'Options & friends' }).click();
  for (const [name, value] of Object.entries(options)) {
    const input = card.locator(`[name="${name}"]`);
    if (typeof value === 'boolean') await input.setChecked(value);
    else await input.selectOption(String(value));
  }
  await card.locator('select[data-seat="1"]').selectOption(`ai${process.env.E2E_AI_LEVEL ?? 1}`);
  await card.locator('button', { hasText: 'Create game' }).click();
  await page.waitForURL(/\/game\//, { timeout: 20000 });
  const id = page.url().split('/game/')[1];
  const created = await (await fetch(`${base()}/api/games/${id}`)).json();
  for (const [name, value] of Object.entries(options)) {
    assert(created.options?.[name] === value, `the game was created with ${name}=${JSON.stringify(created.options?.[name])}, not ${JSON.stringify(value)}`);
  }
  return id;
}

/** The setup board as the page draws it: per cell, its terrain (from the cell's title), the piece on it,
 * and whether it is a cell of the own half the setup editor offers (highlighted). */
async function setupCells(page) {
  return page.evaluate(() => {
    const cells = {};
    for (const el of document.querySelectorAll('[data-testid=board] [data-cell]')) {
      const name = el.getAttribute('data-cell');
      const c = (cells[name] ??= { terrain: 'grassland', piece: null, home: false });
      if (el.classList.contains('piece')) {
        c.piece = el.getAttribute('data-piece');
        continue;
      }
      if (el.classList.contains('target')) c.home = true;
      const m = /\(([a-z]+)\)/.exec(el.querySelector(':scope > title')?.textContent ?? '');
      if (m) c.terrain = m[1];
      const p = el.querySelector('.piece');
      if (p) c.piece = p.getAttribute('data-piece');
    }
    return cells;
  });
}

async function clickCell(page, cell) {
  await page.locator(`[data-testid=board] [data-cell="${cell}"]`).first().click({ force: true });
}

/** Caird's Expert setup editor: the listed setups are labelled, an edited setup the server refuses
 * (the King moved off the Fortress by a terrain swap) shows the server's reason on the setup screen,
 * and after undoing it a valid terrain swap is made (seen on the board) before Ready. */
async function cairdTerrainSwap(page, label) {
  const listed = await page.locator('[data-testid=setup-listed]').allTextContents();
  assert(listed.includes('Preset: phalanx') && listed.some((t) => /^Random \d+$/.test(t)), `the listed setups are labelled ${listed.join(', ')}`);
  await page.locator('[data-testid=setup-editor] button', { hasText: /^terrain$/ }).click();
  let cells = await setupCells(page);
  const home = Object.entries(cells).filter(([, c]) => c.home);
  assert(home.length >= 32, `the setup editor offers ${home.length} cells of the own half`);
  const king = home.find(([, c]) => c.piece === 'King');
  assert(king && king[1].terrain === 'fortress', 'the King does not start in the Fortress');
  const other = home.find(([, c]) => c.terrain !== 'fortress' && c.terrain !== 'grassland') ?? home.find(([, c]) => c.terrain !== 'fortress');
  // An invalid setup: the Fortress tile swapped away from under the King.
  await clickCell(page, king[0]);
  await clickCell(page, other[0]);
  cells = await setupCells(page);
  assert(cells[king[0]].terrain === other[1].terrain && cells[other[0]].terrain === 'fortress', 'the terrain swap did not show on the board');
  await page.locator('[data-testid=setup-ready]').click();
  const refusal = page.locator('[data-testid=setup-editor] [data-testid=setup-error]');
  await refusal.waitFor({ timeout: 15000 });
  const text = await refusal.innerText();
  assert(/refused this setup/.test(text) && /King stands on .* must start in the Fortress/.test(text), `the refusal reads: ${text}`);
  assert((await page.locator('[data-testid=error]').count()) === 0, 'the refusal also shows as the generic banner');
  await page.screenshot({ path: join(ARTIFACTS, `${label}-setup-refused.png`), fullPage: true });
  // Undo it, then a valid swap: two other tiles, never Water under a Mountain.
  await clickCell(page, king[0]);
  await clickCell(page, other[0]);
  cells = await setupCells(page);
  assert(cells[king[0]].terrain === 'fortress', 'swapping back did not restore the Fortress under the King');
  assert((await refusal.getAttribute('data-stale')) === '1', 'the refusal is not marked as about the setup sent before the changes');
  const free = Object.entries(cells).filter(([, c]) => c.home && c.terrain !== 'fortress');
  let pair = null;
  for (const [a, ca] of free) {
    for (const [b, cb] of free) {
      if (ca.terrain === cb.terrain) continue;
      if ((ca.piece === 'Mountain' && cb.terrain === 'water') || (cb.piece === 'Mountain' && ca.terrain === 'water')) continue;
      pair = [a, b, ca.terrain, cb.terrain];
      break;
    }
    if (pair) break;
  }
  assert(pair, 'no two terrain tiles can be swapped');
  await clickCell(page, pair[0]);
  await clickCell(page, pair[1]);
  cells = await setupCells(page);
  assert(cells[pair[0]].terrain === pair[3] && cells[pair[1]].terrain === pair[2], `swapping the terrain of ${pair[0]} and ${pair[1]} did not show`);
  assert((await page.locator('[data-testid=setup-editor]').innerText()).includes('Starting point: edited'), 'the draft is not marked as edited');
  await page.screenshot({ path: join(ARTIFACTS, `${label}-setup.png`), fullPage: true });
}

/** Plays a game against the AI by clicking, until it ends or MOVES moves pass. Without a variant: the
 * lobby's one-click "Play vs AI" (default options); with one ({label, options, check}): the game is
 * created through the options form with those options, `check(page)` checks the board drawn, and
 * (Caird's Expert) the setup editor swaps terrain before Ready. */
async function playAgainstAi(game, variant = null) {
  const label = variant?.label ?? game.id;
  const page = await newPage(label);
  try {
    if (variant) {
      await createWithOptions(page, game, variant.options);
    } else {
      await page.goto(`${base()}/?ai=${process.env.E2E_AI_LEVEL ?? 1}`);
      await page.locator(`[data-testid=play-ai-${game.id}]`).click();
      await page.waitForURL(/\/game\//, { timeout: 20000 });
    }
    await page.locator('[data-testid=status]').waitFor({ timeout: 20000 });
    if (variant?.check) await variant.check(page);
    let moves = 0;
    let decisions = 0;
    let shot = false;
    let edited = false;
    let dragged = false;
    while (moves < MOVES && decisions < 200) {
      const st = await waitMyTurnOrOver(page);
      if (st === 'over') break;
      const setup = /same time|Place your army/.test(await status(page));
      if (decisions === 0) assert((await page.title()).startsWith('Your turn'), `the tab's title does not say it is the player's turn: "${await page.title()}"`);
      if (!edited && game.id === 'cyvasse-trump' && (await page.locator('[data-testid=setup-editor]').count())) {
        // Edit the hidden setup by dragging one piece onto another cell of the half (a swap), then
        // check that the draft changed before it is committed.
        edited = true;
        const placing = await status(page);
        assert(placing.startsWith('Place your army') && placing.includes('cannot see'),
          `the hidden setup's status does not say that the army is placed unseen: "${placing}"`);
        const before = await page.locator('[data-testid=board] .piece').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')).sort().join());
        const cells = await page.evaluate(() => {
          const pieces = new Set([...document.querySelectorAll('[data-testid=board] .piece')].map((e) => e.getAttribute('data-cell')));
          const home = [...document.querySelectorAll('[data-testid=board] polygon.target')].map((e) => e.getAttribute('data-cell'));
          return { from: home.find((c) => pieces.has(c)), to: home.find((c) => !pieces.has(c)) };
        });
        assert(cells.from && cells.to, 'the setup editor shows no piece and no empty cell on the own half');
        const from = page.locator(`[data-testid=board] polygon[data-cell="${cells.from}"]`);
        const to = page.locator(`[data-testid=board] polygon[data-cell="${cells.to}"]`);
        await from.dragTo(to, { force: true });
        const after = await page.locator('[data-testid=board] .piece').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell')).sort().join());
        assert(before !== after, `dragging ${cells.from} to ${cells.to} in the setup editor changed nothing`);
        await page.screenshot({ path: join(ARTIFACTS, `${game.id}-setup.png`), fullPage: true });
      }
      if (!edited && variant?.options.version === 'expert' && (await page.locator('[data-testid=setup-editor]').count())) {
        edited = true;
        await cairdTerrainSwap(page, label);
      }
      const how = !dragged && !setup && (game.id === 'kyo' || game.id === 'cyvasse-caird') ? await dragOneMove(page) : null;
      if (how === 'drag') dragged = true;
      else if (how === null) await playOneDecision(page);
      decisions++;
      if (!setup) moves++;
      if (!shot && !setup && moves >= 1) {
        shot = true;
        await page.screenshot({ path: join(ARTIFACTS, `${label}-early.png`), fullPage: true });
      }
    }
    if (variant?.options.version === 'expert') assert(edited, 'the setup editor never showed');
    if (game.id === 'kyo') {
      // The AI may still be moving (or have ended the game): settle first, with no dialog in the way.
      await waitMyTurnOrOver(page);
      await closeDialogs(page);
      // Moves and the player's turn are heard (the page counts the sounds it played); the mute switch
      // silences them and is kept on the device.
      const heard = Number(await page.evaluate(() => document.documentElement.dataset.soundsPlayed ?? '0'));
      assert(heard > 0, 'no sound was played during the game');
      await page.locator('[data-testid=mute]', { hasText: 'Sound: on' }).click();
      await page.locator('[data-testid=mute]', { hasText: 'Sound: off' }).waitFor({ timeout: 5000 });
      assert((await page.evaluate(() => localStorage.getItem('tabula:muted'))) === '1', 'muting is not kept');
    }
    if (game.id === 'kyo' && (await state(page)) !== 'over') {
      // A draw offered to the AI gets an answer on screen (the AI declines at once).
      await page.locator('button', { hasText: 'Offer draw' }).click();
      const declined = await page.locator('[data-testid=draw-declined]').textContent({ timeout: 15000 });
      assert(declined.includes('The AI declined your draw offer'), `the draw offer's answer reads "${declined}"`);
    }
    // Every board draws its pieces (units, cities, buildings) as SVG symbols of the sprite, not letters.
    const symbols = await page.locator('[data-testid=board] svg use[href^="#tabula-emblem-"]').count();
    assert(symbols > 0, 'no piece is drawn as an SVG symbol');
    assert((await page.locator('#tabula-sprite symbol').count()) > 10, 'the sprite of piece symbols is missing');
    if (['kyo', 'cyvasse-trump', 'cyvasse-caird'].includes(game.id)) {
      // The last move's origin and destination are tinted, and moves slide from one to the other.
      await waitMyTurnOrOver(page);
      const last = await page.locator('[data-testid=board] svg.board').first().getAttribute('data-last-move');
      assert(last && last.split(' ').length === 2, `the board does not name the last move's cells: ${last}`);
      const tinted = await page.locator('[data-testid=board] .last-tint').count();
      assert(tinted >= 2, `the last move's cells are not tinted (${tinted} tinted)`);
      const slid = Number(await page.evaluate(() => document.documentElement.dataset.movesAnimated ?? '0'));
      assert(slid > 0, 'no move slid from its origin to its destination');
    }
    // A tap on a piece says what it is in words. (The press is sent to the piece without bubbling, so
    // the board does not also select it and the game goes on unchanged.)
    const info = page.locator('[data-testid=board] svg [data-info]').first();
    if (await info.count()) {
      const words = await info.getAttribute('data-info');
      await info.evaluate((el) => el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: false, clientX: 120, clientY: 120, pointerType: 'touch' })));
      const tip = await page.locator('[data-testid=piece-tip]').textContent({ timeout: 5000 });
      assert(tip === words, `a tap on a piece shows "${tip}", not "${words}"`);
      const box = await page.locator('[data-testid=piece-tip]').boundingBox();
      const width = await page.evaluate(() => document.documentElement.clientWidth);
      assert(box && box.x >= 0 && box.x + box.width <= width && box.y >= 0, `the tap's words run off the window: ${JSON.stringify(box)}`);
      // A tap elsewhere hides them.
      await page.evaluate(() => document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: false, clientX: 5, clientY: 5 })));
      await page.locator('[data-testid=piece-tip]').waitFor({ state: 'hidden', timeout: 5000 });
    }
    await sleep(300);
    await closeDialogs(page);
    await page.screenshot({ path: join(ARTIFACTS, `${label}.png`), fullPage: true });
    // On a laptop's screen the whole board is in view, from its first row to its last.
    for (const [w, hgt] of [[1280, 800], [1366, 768]]) {
      await page.setViewportSize({ width: w, height: hgt });
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await page.locator('[data-testid=board] svg').first().boundingBox();
      assert(box && box.y >= 0 && box.y + box.height <= hgt, `at ${w}x${hgt} the board runs below the screen: ${JSON.stringify(box)}`);
      if (w === 1280) await page.screenshot({ path: join(ARTIFACTS, `${label}-1280x800.png`) });
    }
    // The same board on a phone-sized screen (the layout stacks; the SVG scales).
    await page.setViewportSize({ width: 390, height: 844 });
    await sleep(200);
    const phoneWidth = await page.locator('[data-testid=board] svg').evaluate((e) => e.getBoundingClientRect().width);
    assert(phoneWidth > 300 && phoneWidth <= 390, `the board is ${phoneWidth}px wide on a 390px screen`);
    await page.screenshot({ path: join(ARTIFACTS, `${label}-phone.png`) });
    await page.screenshot({ path: join(ARTIFACTS, `${label}-phone-full.png`), fullPage: true });
    await assertNoOverflow(page, 390);
    // Zoomed in, the board is twice as wide and scrolls inside its box; the page still fits the screen.
    await page.locator('[data-testid=board] [data-testid=zoom]').click();
    const zoomed = await page.locator('[data-testid=board] svg').first().evaluate((e) => e.getBoundingClientRect().width);
    assert(zoomed > 600, `the zoomed board is only ${zoomed}px wide`);
    await assertNoOverflow(page, 390);
    await page.screenshot({ path: join(ARTIFACTS, `${label}-phone-zoomed.png`) });
    await page.locator('[data-testid=board] [data-testid=zoom]').click();
    const board = await page.locator('[data-testid=board] svg').count();
    console.log(`     ${label}: ${decisions} decisions, ${moves} moves after setup${dragged ? ' (one by dragging)' : ''}, status: ${await status(page)}`);
    if (game.id === 'kyo' || game.id === 'cyvasse-caird') assert(dragged || decisions === 0, 'no move could be made by dragging');
    assert(decisions > 0, 'no decision was made');
    assert(board > 0, 'no SVG board was drawn');
    await noConsoleErrors(page);
  } finally {
    await page.context().close();
  }
}

async function onlineGame(game) {
  const host = await newPage('host');
  const friend = await newPage('friend');
  const watcher = await newPage('spectator');
  try {
    await host.goto(`${base()}/`);
    const card = host.locator(`[data-game="${game.id}"]`);
    await card.locator('button', { hasText: 'Options & friends' }).click();
    await card.locator('select[data-seat="1"]').selectOption('friend');
    await card.locator('button', { hasText: 'Create game' }).click();
    await host.waitForURL(/\/game\//);
    const id = host.url().split('/game/')[1];
    // The waiting page keeps the friend's full link with a Copy button, also after a reload.
    await host.reload();
    const link = await host.locator('[data-testid=invites] input[data-join-seat="1"]').inputValue({ timeout: 15000 });
    assert(link.startsWith(`${base()}/join/${id}/1#`) && /#[0-9a-f]{64}$/.test(link), `the invite link is not a whole join link: ${link}`);
    await host.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await host.locator('[data-testid=copy-invite-1]').click();
    await host.locator('[data-testid=copy-invite-1]', { hasText: 'Copied' }).waitFor({ timeout: 5000 });
    assert((await host.evaluate(() => navigator.clipboard.readText())) === link, 'Copy did not put the link on the clipboard');
    await host.screenshot({ path: join(ARTIFACTS, `invite-${game.id}.png`), fullPage: true });
    // Listed in the lobby, the friend's seat cannot be taken from there by a stranger.
    await watcher.goto(`${base()}/`);
    await watcher.locator(`li[data-id="${id}"]`).waitFor({ timeout: 15000 });
    assert((await watcher.locator(`li[data-id="${id}"] button`, { hasText: 'Join as' }).count()) === 0,
      'a seat kept for a friend by link is offered in the lobby');
    await friend.goto(link);
    await friend.waitForURL(/\/game\//);
    await watcher.goto(`${base()}/watch/${id}`);
    await watcher.locator('[data-testid=status]').waitFor();
    // Once the friend joined, the link is no longer offered.
    await host.locator('[data-testid=invites]').waitFor({ state: 'detached', timeout: 15000 });
    // The spectator flips the board: the first seat's side goes to the top, and back.
    if (game.id === 'kyo') {
      const rowOf = async () => (await watcher.locator('[data-testid=board] [data-cell="A0"]').first().boundingBox()).y;
      const before = await rowOf();
      await watcher.locator('[data-testid=flip]').click();
      await watcher.locator('[data-testid=flip][aria-pressed=true]').waitFor({ timeout: 5000 });
      const after = await rowOf();
      assert(after < before, `Flip board did not move A0 to the top (y ${before} → ${after})`);
      await watcher.screenshot({ path: join(ARTIFACTS, `flipped-${game.id}.png`), fullPage: true });
      await watcher.locator('[data-testid=flip]').click();
      assert((await rowOf()) === before, 'flipping twice does not restore the board');
    }
    // Alternate: whoever owes a decision clicks.
    let made = 0;
    for (let i = 0; i < 60 && made < 8; i++) {
      for (const p of [host, friend]) {
        const st = await state(p);
        if (st === 'over') break;
        if (st === 'yours') {
          await playOneDecision(p);
          made++;
        }
      }
      await sleep(150);
    }
    assert(made >= 4, `only ${made} decisions were made in the online game`);
    // The spectator sees the same moves and has no actions.
    await sleep(500);
    const hostMoves = await moveCount(host);
    const deadline = Date.now() + 10000;
    while ((await moveCount(watcher)) < hostMoves && Date.now() < deadline) await sleep(100);
    assert((await moveCount(watcher)) === hostMoves, 'the spectator did not see every move');
    assert((await watcher.locator('[data-testid=actions]').count()) === 0, 'a spectator was offered actions');
    await watcher.screenshot({ path: join(ARTIFACTS, `online-${game.id}-spectator.png`), fullPage: true });
    // Step through the live game: as the spectator and as a seat (positions from the server).
    await stepLiveGame(watcher, 'spectator');
    await stepLiveGame(host, 'seat');
    // The replay page of the running game (as a spectator): it reaches the latest position, steps back,
    // and links back to the live game.
    const liveReplay = await newPage('live-replay');
    try {
      await liveReplay.goto(`${base()}/replay/${id}`);
      const n = await moveCount(host);
      await waitPly(liveReplay, n);
      const latest = await boardHtml(liveReplay, 'replay-board');
      await liveReplay.locator('[data-testid=replay-prev]').click();
      await waitPly(liveReplay, n - 1); // (an action such as Kyo's "end" may leave the board as it was)
      await liveReplay.locator('[data-testid=replay-first]').click();
      await waitPly(liveReplay, 0);
      assert((await boardHtml(liveReplay, 'replay-board')) !== latest, 'the start of the live replay looks like its latest position');
      await liveReplay.locator('a', { hasText: 'Back to the live game' }).click();
      await liveReplay.waitForURL(/\/watch\//, { timeout: 15000 });
      await liveReplay.locator('[data-testid=status]').waitFor({ timeout: 15000 });
      await noConsoleErrors(liveReplay);
    } finally {
      await liveReplay.context().close();
    }

    // A network drop: the browser of the seat that is not to move goes offline; its page says so at once,
    // the other seat moves meanwhile, and when the network is back the page reconnects with its seat and
    // gets the missed move.
    const mover = (await state(host)) === 'yours' ? host : friend;
    const dropped = mover === host ? friend : host;
    dropped.allowNetworkErrors = true;
    await dropped.context().setOffline(true);
    await dropped.locator('[data-testid=conn].down').waitFor({ timeout: 10000 });
    if ((await state(mover)) === 'yours') await playOneDecision(mover);
    const movedTo = await moveCount(mover);
    await dropped.context().setOffline(false);
    await dropped.locator('[data-testid=conn]:not(.down)').waitFor({ timeout: 20000 });
    dropped.allowNetworkErrors = false;
    for (const t = Date.now(); (await moveCount(dropped)) < movedTo && Date.now() - t < 10000;) await sleep(100);
    assert((await moveCount(dropped)) === movedTo, 'the move made during the network drop did not reach the reconnected page');
    assert((await dropped.locator('[data-seat]', { hasText: '(you)' }).count()) === 1, 'the reconnected page lost its seat');

    // Reconnect after a server restart, keeping the seat.
    const beforeRestart = await moveCount(host);
    host.allowNetworkErrors = friend.allowNetworkErrors = watcher.allowNetworkErrors = true;
    await stopServer();
    await host.locator('[data-testid=conn].down').waitFor({ timeout: 15000 });
    await startServer();
    await host.locator('[data-testid=conn]:not(.down)').waitFor({ timeout: 30000 });
    await friend.locator('[data-testid=conn]:not(.down)').waitFor({ timeout: 30000 });
    host.allowNetworkErrors = friend.allowNetworkErrors = watcher.allowNetworkErrors = false;
    assert((await moveCount(host)) === beforeRestart, 'moves were lost over the restart');
    // Still seated: whoever owes a decision can still act after the restart.
    let actedAfterRestart = false;
    for (let i = 0; i < 40 && !actedAfterRestart; i++) {
      for (const p of [host, friend]) {
        if ((await state(p)) === 'yours') {
          await playOneDecision(p);
          actedAfterRestart = true;
          break;
        }
      }
      await sleep(200);
    }
    assert(actedAfterRestart, 'no seat could act after the server restart');

    // Fair chance: the game's details show the seed's commitment from the start, never the seed while
    // the game runs.
    await host.locator('[data-testid=fairness] summary').click();
    const commitment = (await host.locator('[data-testid=seed-commitment]').textContent()).trim();
    assert(/^[0-9a-f]{64}$/.test(commitment), `no seed commitment in the game's details: ${commitment}`);
    assert((await host.locator('[data-testid=seed]').count()) === 0, 'the seed shows while the game runs');
    // Resign: both see the game-over dialog; then export, import and replay the record.
    await host.locator('button', { hasText: 'Resign' }).click();
    await host.locator('dialog button[data-value=yes]').click();
    await host.locator('dialog [data-testid=result]').waitFor({ timeout: 15000 });
    await friend.locator('dialog [data-testid=result]').waitFor({ timeout: 15000 });
    assert((await friend.locator('dialog h2').textContent()) === 'You win!', 'the friend did not win by resignation');
    await host.locator('dialog button[data-value=close]').click();
    // The finished game's replay (not imported): first, a clicked move, last.
    const finished = await newPage('replay');
    try {
      await finished.goto(`${base()}/replay/${id}`);
      await finished.locator('[data-testid=replay-ply]').waitFor({ timeout: 15000 }); // drawn with its move list
      const n = await finished.locator('[data-testid=moves] li').count();
      assert(n >= 4, `the finished game's replay lists ${n} moves`);
      await waitPly(finished, n);
      const end = await boardHtml(finished, 'replay-board');
      await finished.locator('[data-testid=replay-first]').click();
      await waitPly(finished, 0);
      const start = await boardHtml(finished, 'replay-board');
      assert(start !== end, 'the first and last positions of the finished game look the same');
      await finished.locator('[data-testid=moves] li').nth(2).click();
      await waitPly(finished, 3);
      assert((await boardHtml(finished, 'replay-board')) !== start, 'jumping to a move did not change the board');
      await finished.locator('[data-testid=replay-last]').click();
      await waitPly(finished, n);
      assert((await boardHtml(finished, 'replay-board')) === end, 'the last position changed on the way back');
      await finished.keyboard.press('ArrowLeft');
      await waitPly(finished, n - 1);
      await finished.keyboard.press('Home');
      await waitPly(finished, 0);
      assert((await boardHtml(finished, 'replay-board')) === start, 'Home did not show the start');
      await finished.screenshot({ path: join(ARTIFACTS, `replay-finished-${game.id}.png`), fullPage: true });
      await noConsoleErrors(finished);
    } finally {
      await finished.context().close();
    }
    const dl = host.waitForEvent('download');
    await host.locator('[data-testid=export]').click();
    const file = await (await dl).path();
    const record = JSON.parse(readFileSync(file, 'utf8'));
    assert(record.game === game.id && Array.isArray(record.actions), 'the downloaded record is not a record');
    // Once over, the details show the seed; the downloaded record carries it exactly (a string) with the
    // commitment, and passes the command-line audit.
    const seedText = (await host.locator('[data-testid=seed]').textContent({ timeout: 15000 })).trim();
    await host.screenshot({ path: join(ARTIFACTS, `fair-chance-${game.id}.png`), fullPage: true });
    assert(record.seed === seedText, `the record's seed ${record.seed} is not the page's ${seedText}`);
    assert(record.seed_commitment === commitment, 'the record carries another commitment');
    const audit = spawnSync(BIN, ['replay', file, '--audit-seed'], { encoding: 'utf8' });
    assert(audit.status === 0 && audit.stdout.includes('matches its commitment'),
      `tabula replay --audit-seed refused the downloaded record: ${audit.stderr}${audit.stdout.slice(-300)}`);
    // Rematch: the friend asks from the game-over dialog, the host accepts from the banner. Both keep their
    // tokens and the sides swap (docs/protocol.md); the new game starts and its first player can move.
    await friend.locator('dialog button[data-value=rematch]').click();
    await friend.waitForURL((u) => /\/game\//.test(u.pathname) && !u.pathname.endsWith(id), { timeout: 15000 });
    const rematchId = friend.url().split('/game/')[1];
    await host.locator('button', { hasText: 'Play it' }).click({ timeout: 15000 });
    await host.waitForURL((u) => u.pathname.endsWith(`/game/${rematchId}`), { timeout: 15000 });
    for (const p of [host, friend]) {
      const deadline = Date.now() + 15000;
      while ((await state(p)) === 'waiting' && Date.now() < deadline) await sleep(150);
    }
    assert((await host.locator('[data-seat="1"]').textContent()).includes('(you)'), 'the host does not play the other side in the rematch');
    assert((await friend.locator('[data-seat="0"]').textContent()).includes('(you)'), 'the friend does not play the other side in the rematch');
    const firstToMove = (await state(friend)) === 'yours' ? friend : host;
    assert((await state(firstToMove)) === 'yours', `nobody can move in the rematch: ${await status(host)} / ${await status(friend)}`);
    await playOneDecision(firstToMove);
    await host.goto(`${base()}/`);
    await host.locator('[data-testid=import-file]').setInputFiles(file);
    await host.waitForURL(/\/replay\//, { timeout: 15000 });
    await host.locator('[data-testid=replay-ply]').waitFor();
    const total = record.actions.length;
    assert((await host.locator('[data-testid=replay-ply]').textContent()) === `Action ${total} of ${total}`, 'the replay does not start at the end');
    await host.locator('[data-testid=replay-prev]').click();
    await host.locator('[data-testid=replay-ply]', { hasText: `Action ${total - 1} of` }).waitFor({ timeout: 15000 });
    await host.screenshot({ path: join(ARTIFACTS, `replay-${game.id}.png`), fullPage: true });
    await noConsoleErrors(host, friend, watcher);
  } finally {
    for (const p of [host, friend, watcher]) await p.context().close();
  }
}

async function lobbyJoinAndWatch(game) {
  const host = await newPage('lobby-host');
  const guest = await newPage('lobby-guest');
  const viewer = await newPage('lobby-viewer');
  try {
    await host.goto(`${base()}/`);
    const card = host.locator(`[data-game="${game.id}"]`);
    await card.locator('button', { hasText: 'Options & friends' }).click();
    await card.locator('select[data-seat="1"]').selectOption('open');
    await card.locator('button', { hasText: 'Create game' }).click();
    await host.waitForURL(/\/game\//, { timeout: 15000 });
    const id = host.url().split('/game/')[1];
    assert((await state(host)) === 'waiting', 'the game started before the open seat was taken');
    assert((await status(host)).startsWith('Waiting for your opponent to join'), `the waiting host reads "${await status(host)}"`);
    assert((await host.locator('[data-seat] b', { hasText: 'to act' }).count()) === 0, 'a seat is marked "to act" before the game started');
    // Someone else claims the open seat from the lobby's list.
    await guest.goto(`${base()}/`);
    await guest.locator(`li[data-id="${id}"] button`, { hasText: 'Join as' }).click({ timeout: 15000 });
    await guest.waitForURL(new RegExp(`/game/${id}$`), { timeout: 15000 });
    for (const p of [host, guest]) {
      const deadline = Date.now() + 15000;
      while ((await state(p)) === 'waiting' && Date.now() < deadline) await sleep(150);
      assert((await state(p)) !== 'waiting', 'the game did not start when the open seat was taken');
    }
    assert((await guest.locator('[data-seat="1"]', { hasText: '(you)' }).count()) === 1, 'the guest does not hold the claimed seat');
    // A third browser finds it among the live games and watches.
    await viewer.goto(`${base()}/`);
    await viewer.locator(`li[data-id="${id}"] a`, { hasText: 'Watch' }).click({ timeout: 15000 });
    await viewer.waitForURL(new RegExp(`/watch/${id}$`), { timeout: 15000 });
    await viewer.locator('[data-testid=status]').waitFor({ timeout: 15000 });
    assert((await viewer.locator('[data-testid=actions]').count()) === 0, 'a spectator was offered actions');
    await noConsoleErrors(host, guest, viewer);
  } finally {
    for (const p of [host, guest, viewer]) await p.context().close();
  }
}

async function rulesPages(games) {
  const page = await newPage('rules');
  try {
    // The top bar's "Rules" opens the index of every game, each linking to its rules.
    await page.goto(`${base()}/`);
    await page.locator('header.top a', { hasText: 'Rules' }).click();
    await page.locator('[data-testid=rules-index]').waitFor({ timeout: 10000 });
    for (const g of games) {
      assert((await page.locator(`[data-testid=rules-index] li[data-game="${g.id}"] a[href="/rules/${g.id}"]`).count()) === 1,
        `the rules index does not list ${g.id}`);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'rules-index.png'), fullPage: true });
    // The two Cyvasse rule families share docs/rules/cyvasse.md: each page shows only its own family.
    const family = {
      'cyvasse-trump': { own: 'Board and armies', other: 'Hex Cyvasse' },
      'cyvasse-caird': { own: 'Hex Cyvasse', other: 'Board and armies' },
    };
    for (const g of games) {
      await page.goto(`${base()}/rules/${g.id}`);
      await page.locator(`[data-testid=rules][data-game="${g.id}"]`).waitFor({ timeout: 10000 });
      const text = await page.locator('[data-testid=rules]').textContent({ timeout: 10000 });
      assert(text && text.length > 500, `the rules page of ${g.id} is empty`);
      const f = family[g.id];
      if (f) {
        const headings = await page.locator('[data-testid=rules] h3').allTextContents();
        assert(headings.some((h) => h.startsWith(f.own)), `the rules page of ${g.id} lacks "${f.own}"`);
        assert(!headings.some((h) => h.startsWith(f.other)), `the rules page of ${g.id} shows the other family's "${f.other}"`);
        assert((await page.locator('[data-testid=rules-family] a').count()) === 1, `the rules page of ${g.id} does not link the other family`);
      }
    }
    await noConsoleErrors(page);
  } finally {
    await page.context().close();
  }
}

/** The AI's level is chosen beside "Play vs AI", the game says which level plays, and the choice is kept. */
async function chooseAiLevel(game) {
  const page = await newPage('ai-level');
  try {
    await page.goto(`${base()}/`);
    await page.locator(`[data-testid=ai-level-${game.id}]`).selectOption('2');
    await page.locator(`[data-testid=play-ai-${game.id}]`).click();
    await page.waitForURL(/\/game\//, { timeout: 20000 });
    await page.locator('[data-seat="1"]', { hasText: 'AI level 2' }).waitFor({ timeout: 15000 });
    await page.goto(`${base()}/`);
    assert((await page.locator(`[data-testid=ai-level-${game.id}]`).inputValue()) === '2', 'the chosen AI level is not kept');
    await noConsoleErrors(page);
  } finally {
    await page.context().close();
  }
}

/** An address that names no game says so and links back, instead of reconnecting forever. */
async function unknownGame() {
  const page = await newPage('unknown-game');
  page.allowNetworkErrors = true; // the refused WebSocket upgrade (404) is logged by the browser
  try {
    await page.goto(`${base()}/game/no-such-game-here`);
    await page.locator('[data-testid=no-such-game]').waitFor({ timeout: 20000 });
    assert((await page.locator('[data-testid=no-such-game] h2').textContent()) === 'No such game', 'the page does not say "No such game"');
    await page.locator('[data-testid=no-such-game] a', { hasText: 'Go to the lobby' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10000 });
    await noConsoleErrors(page);
  } finally {
    await page.context().close();
  }
}

async function lobbyOnPhone(games) {
  const page = await newPage('lobby');
  try {
    await page.goto(`${base()}/`);
    for (const g of games) await page.locator(`[data-testid=play-ai-${g.id}]`).waitFor({ timeout: 10000 });
    await page.screenshot({ path: join(ARTIFACTS, 'lobby.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    // The options form of a game open, as a player would see it on a phone.
    await page.locator(`[data-game="${games[0].id}"] button`, { hasText: 'Options & friends' }).click();
    await sleep(200);
    await page.screenshot({ path: join(ARTIFACTS, 'lobby-phone.png'), fullPage: true });
    await assertNoOverflow(page, 390);
    await noConsoleErrors(page);
  } finally {
    await page.context().close();
  }
}

/** On a phone, a game opened from the lobby (scrolled down to its last game's "Play vs AI") opens at the
 * top of the page, not at the lobby's scroll position. */
async function phoneOpensAtTop(games) {
  const page = await newPage('phone-top');
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base()}/?ai=1`);
    const last = games[games.length - 1];
    const button = page.locator(`[data-testid=play-ai-${last.id}]`);
    await button.waitFor({ timeout: 10000 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const lobbyY = await page.evaluate(() => window.scrollY);
    assert(lobbyY > 0, 'the lobby does not scroll on a phone');
    await button.click();
    await page.waitForURL(/\/game\//, { timeout: 20000 });
    await page.locator('[data-testid=status]').waitFor({ timeout: 20000 });
    await page.locator('[data-testid=board] svg').first().waitFor({ timeout: 20000 });
    const y = await page.evaluate(() => window.scrollY);
    assert(y === 0, `the game opens scrolled down by ${y}px on a phone (the lobby was at ${lobbyY}px)`);
    await page.screenshot({ path: join(ARTIFACTS, 'phone-opens-at-top.png') });
    await noConsoleErrors(page);
  } finally {
    await page.context().close();
  }
}

/** The seat a hot-seat page shows now (the header marks it "this device, shown"), or null. */
async function shownSeat(page) {
  const el = page.locator('[data-testid=status]').locator('xpath=..').locator('[data-seat]', { hasText: 'this device, shown' });
  if (!(await el.count())) return null;
  return Number(await el.first().getAttribute('data-seat'));
}

/** Hot-seat: both seats of a game played from ONE page, by clicking. `cover` says whether the game hides
 * something between the seats (true: the page must ask to pass the device before showing the other seat
 * every time), only while their views differ ('some': the Cyvasse hidden setups; Syba once the starting
 * cities are dealt face down; at least once), or never (false). A reload keeps both seats; the seat to act resigns; a rematch from the
 * game-over dialog seats both players on this device again. */
async function hotSeat(game, cover, decisionsWanted, others = []) {
  const page = await newPage(`hotseat-${game.id}`);
  try {
    await page.goto(`${base()}/`);
    const card = page.locator(`[data-game="${game.id}"]`);
    await card.locator('button', { hasText: 'Options & friends' }).click();
    await card.locator('select[data-seat="0"]').selectOption('me');
    await card.locator('select[data-seat="1"]').selectOption('me');
    // Further seats (Syba: the AI), from seat 2 on.
    for (const [i, choice] of others.entries()) await card.locator(`select[data-seat="${i + 2}"]`).selectOption(choice);
    await card.locator('button', { hasText: 'Create game' }).click();
    await page.waitForURL(/\/game\//, { timeout: 20000 });
    const id = page.url().split('/game/')[1];
    await page.locator('[data-testid=status]').waitFor({ timeout: 20000 });
    const seen = new Set();
    let covers = 0;
    let switches = 0;
    let decisions = 0;
    let last = null;
    let reloaded = false;
    let coverShot = false;
    const deadline = Date.now() + 120000;
    while (decisions < decisionsWanted && Date.now() < deadline) {
      const coverBox = page.locator('[data-testid=pass-cover]');
      if (await coverBox.count()) {
        assert(cover !== false, `${game.id} covered the board although both seats see the same`);
        const to = Number(await coverBox.getAttribute('data-seat'));
        // Nothing of the next seat shows under the cover: no board, no actions, no hand.
        assert((await page.locator('[data-testid=board] svg').count()) === 0, 'the board shows under the cover');
        assert((await page.locator('[data-testid=actions]').count()) === 0, 'actions show under the cover');
        if (!coverShot) {
          coverShot = true;
          await page.screenshot({ path: join(ARTIFACTS, `hotseat-${game.id}-cover.png`), fullPage: true });
        }
        covers++;
        await page.locator('[data-testid=pass-show]').click();
        assert((await shownSeat(page)) === to, 'the cover named another seat than the one shown after it');
        continue;
      }
      const st = await state(page);
      if (st === 'over') break;
      const seat = await shownSeat(page);
      if (st !== 'yours') {
        await sleep(150); // chance, or the page between two updates
        continue;
      }
      assert(seat !== null, 'no seat shown in a hot-seat game');
      // `null`: the page switched seats (and covered the board) first; the cover is handled above.
      if ((await playOneDecision(page)) === null) continue;
      if (last !== null && seat !== last) {
        switches++;
      }
      last = seat;
      seen.add(seat);
      decisions++;
      if (!reloaded && decisions === Math.floor(decisionsWanted / 2)) {
        // A reload keeps both seats of this device (localStorage); a game with hidden information asks
        // to be passed on first (someone else may be looking).
        reloaded = true;
        await page.reload();
        await page.locator('[data-testid=status]').waitFor({ timeout: 20000 });
        await page.locator('[data-testid=pass-cover], [data-testid=board] svg, [data-testid=board] .no-board').first().waitFor({ timeout: 20000 });
        assert((await page.locator('[data-seat]', { hasText: '(this device' }).count()) >= 2, 'the reload lost a seat of this device');
        if (cover === true) assert((await page.locator('[data-testid=pass-cover]').count()) === 1, 'a reloaded hot-seat page showed hidden information at once');
      }
    }
    console.log(`     ${game.id} hot-seat: ${decisions} decisions, ${switches} seat changes, ${covers} covers`);
    assert(decisions >= decisionsWanted || (await state(page)) === 'over', `only ${decisions} decisions were made`);
    assert(seen.size === 2, `only seat(s) ${[...seen].join(', ')} played`);
    if (cover === true) assert(covers >= switches && covers >= 2, `${switches} seat changes, only ${covers} covers`);
    else if (cover === 'some') assert(covers >= 1, 'the hidden information was never covered');
    else assert(covers === 0, 'a cover appeared');
    await page.screenshot({ path: join(ARTIFACTS, `hotseat-${game.id}.png`), fullPage: true });
    if ((await state(page)) !== 'over') {
      if (await page.locator('[data-testid=pass-cover]').count()) await page.locator('[data-testid=pass-show]').click();
      const who = await shownSeat(page);
      const name = (await page.locator(`[data-seat="${who}"]`).first().textContent()) ?? '';
      await page.locator('button', { hasText: 'Resign' }).click();
      const dlg = page.locator('dialog[open]');
      const title = (await dlg.locator('h2').textContent()) ?? '';
      assert(title.startsWith('Resign as ') && name.startsWith(title.slice('Resign as '.length, -1)), `the resign dialog names "${title}", the shown seat is "${name}"`);
      await dlg.locator('button[data-value=yes]').click();
    }
    const over = page.locator('dialog[open]', { hasText: 'Game over' });
    await over.waitFor({ timeout: 20000 });
    await over.locator('button[data-value=rematch]').click();
    await page.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.endsWith(id), { timeout: 20000 });
    await page.locator('[data-testid=status]').waitFor({ timeout: 20000 });
    const deadline2 = Date.now() + 15000;
    while ((await state(page)) === 'waiting' && Date.now() < deadline2) await sleep(150);
    assert((await state(page)) !== 'waiting', 'the hot-seat rematch waits for a player');
    assert((await page.locator('[data-seat]', { hasText: '(this device' }).count()) >= 2, 'the rematch is not played on this device by both seats');
    await noConsoleErrors(page);
  } finally {
    await page.context().close();
  }
}

async function main() {
  let exitCode = 0;
  try {
    await startServer();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    const games = (await catalog()).filter((g) => !ONLY || ONLY.split(',').includes(g.id));
    // scripts/e2e.sh empties the artifacts folder first: it holds this run's screenshots only.
    if (process.env.ARTIFACTS) {
      await test('the artifacts folder starts empty', async () => {
        const left = readdirSync(ARTIFACTS);
        assert(left.length === 0, `${ARTIFACTS} holds ${left.length} files of an earlier run (${left.slice(0, 3).join(', ')}…)`);
      });
    }
    await test('rules pages render for every game', () => rulesPages(games));
    await test('an unknown game address says "No such game"', () => unknownGame());
    if (games.length) await test(`${games[0].id}: the AI level is chosen beside "Play vs AI"`, () => chooseAiLevel(games[0]));
    await learnTests({ test, newPage, base, assert, sleep, noConsoleErrors, ARTIFACTS })(games);
    await loadTests({ test, newPage, base, assert, noConsoleErrors, ARTIFACTS })();
    if (games.length) await test('the lobby fits a phone screen', () => lobbyOnPhone(games));
    if (games.length) await test('a game opened from the lobby on a phone starts at the top of the page', () => phoneOpensAtTop(games));
    for (const g of games) await test(`${g.id}: play against the AI by clicking`, () => playAgainstAi(g));
    // Caird's Cyvasse with non-default options, created through the options form: Hex Cyvasse in the
    // Expert version, and the 10x10 board in the Expert version.
    const caird = games.find((g) => g.id === 'cyvasse-caird');
    if (caird) {
      await test('cyvasse-caird: Hex Cyvasse, Expert, from the options form (refused setup, terrain swap, play by clicking)', () => playAgainstAi(caird, {
        label: 'cyvasse-caird-hex-expert',
        options: { board: 'hex', version: 'expert' },
        check: async (page) => {
          await page.locator('[data-testid=board] svg').first().waitFor({ timeout: 20000 });
          const n = await page.locator('[data-testid=board] polygon[data-cell]').count();
          assert(n === 91, `the hex board has ${n} cells`);
        },
      }));
      await test('cyvasse-caird: 10x10 board, Expert, from the options form (refused setup, terrain swap, play by clicking)', () => playAgainstAi(caird, {
        label: 'cyvasse-caird-10x10-expert',
        options: { large_board: true, version: 'expert' },
        check: async (page) => {
          await page.locator('[data-testid=board] svg').first().waitFor({ timeout: 20000 });
          const n = await page.locator('[data-testid=board] g[data-cell]').count();
          assert(n === 100 && (await page.locator('[data-testid=board] [data-cell="j10"]').count()) === 1, `the square board has ${n} cells`);
        },
      }));
    }
    const duo = games.find((g) => g.id === 'kyo') ?? games[0];
    if (duo) await test(`${duo.id}: an open seat claimed from the lobby, the game watched from the lobby`, () => lobbyJoinAndWatch(duo));
    if (duo) await test(`${duo.id}: two browsers online with a spectator, restart, resign, export, import, replay`, () => onlineGame(duo));
    if (games.some((g) => g.id === 'kyo')) {
      await analysisTests({ test, newPage, base, assert, noConsoleErrors, ARTIFACTS, playOneDecision, waitMyTurnOrOver, status, assertNoOverflow })();
    }
    for (const [gid, cover, others] of [['territories', true, []], ['kyo', false, []], ['cyvasse-trump', 'some', []], ['syba', 'some', ['ai1', 'ai1']]]) {
      const g = games.find((x) => x.id === gid);
      const how = (cover === true ? ', the board covered between them' : cover ? ', the board covered while their views differ' : '') + (others.length ? `, ${others.length} AI seats` : '');
      if (g) await test(`${gid}: hot-seat, two seats on one page${how}, reload, resign, rematch`, () => hotSeat(g, cover, 12, others));
    }
    await accountTests({ test, newPage, base, assert, noConsoleErrors, assertNoOverflow, ARTIFACTS })(games);
    await takebackTests({ test, newPage, base, assert, sleep, noConsoleErrors, ARTIFACTS, playOneDecision, waitMyTurnOrOver, state, moveCount })(games);
    await chatTests({ test, newPage, base, assert, noConsoleErrors, assertNoOverflow, ARTIFACTS })(games);
    await wordsTests({ test, newPage, base, assert, sleep, noConsoleErrors, ARTIFACTS, playOneDecision, waitMyTurnOrOver })(games);
    await explainTests({ test, newPage, base, assert, noConsoleErrors, ARTIFACTS, waitMyTurnOrOver })(games);
    await playTests({ test, newPage, base, assert, noConsoleErrors, ARTIFACTS, waitMyTurnOrOver, moveCount })(games);
  } catch (e) {
    console.log(`FAIL setup: ${e instanceof Error ? e.message : e}`);
    results.push({ name: 'setup', ok: false });
  } finally {
    await browser?.close().catch(() => undefined);
    await stopServer();
  }
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  if (failed > 0 || results.length === 0) exitCode = 1;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(exitCode);
}

main();
