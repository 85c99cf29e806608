import { join } from 'node:path';
import {
  test, expect, h, ARTIFACTS, MOVES, AI_LEVEL, GAMES, PHONE, base, newPage, assert, until, noConsoleErrors,
  status, state, moveCount, closeDialogs, settle, waitMyTurnOrOver, playOneDecision, waitChange, assertNoOverflow,
  boardHtml, waitPly, catalog, withServer, theServer,
} from './harness.mjs';

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
  await card.locator('select[data-seat="1"]').selectOption(`ai${AI_LEVEL}`);
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
  await expect(refusal).toBeVisible({ timeout: 15000 });
  const text = await refusal.innerText();
  assert(/refused this setup/.test(text) && /King stands on .* must start in the Fortress/.test(text), `the refusal reads: ${text}`);
  await expect(page.locator('[data-testid=error]'), 'the refusal also shows as the generic banner').toHaveCount(0);
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
  if (variant) {
    await createWithOptions(page, game, variant.options);
  } else {
    await page.goto(`${base()}/?ai=${AI_LEVEL}`);
    await page.locator(`[data-testid=play-ai-${game.id}]`).click();
    await page.waitForURL(/\/game\//, { timeout: 20000 });
  }
  await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
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
    await settle(page);
    // Moves and the player's turn are heard (the page counts the sounds it played); the mute switch
    // silences them and is kept on the device.
    const heard = Number(await page.evaluate(() => document.documentElement.dataset.soundsPlayed ?? '0'));
    assert(heard > 0, 'no sound was played during the game');
    await page.locator('[data-testid=mute]', { hasText: 'Sound: on' }).click();
    await expect(page.locator('[data-testid=mute]')).toHaveText(/Sound: off/);
    assert((await page.evaluate(() => localStorage.getItem('tabula:muted'))) === '1', 'muting is not kept');
  }
  if (game.id === 'kyo' && (await state(page)) !== 'over') {
    // A draw offered to the AI gets an answer on screen (the AI declines at once).
    await page.locator('button', { hasText: 'Offer draw' }).click();
    await expect(page.locator('[data-testid=draw-declined]')).toContainText('The AI declined your draw offer');
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
    await expect(page.locator('[data-testid=piece-tip]'), 'a tap on a piece says what it is').toHaveText(words);
    const box = await page.locator('[data-testid=piece-tip]').boundingBox();
    const width = await page.evaluate(() => document.documentElement.clientWidth);
    assert(box && box.x >= 0 && box.x + box.width <= width && box.y >= 0, `the tap's words run off the window: ${JSON.stringify(box)}`);
    // A tap elsewhere hides them.
    await page.evaluate(() => document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: false, clientX: 5, clientY: 5 })));
    await expect(page.locator('[data-testid=piece-tip]')).toBeHidden();
  }
  // Settled before the screenshots: the player's turn or the game's end, no dialog in the way.
  await settle(page);
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
  await page.setViewportSize(PHONE);
  const phoneWidth = () => page.locator('[data-testid=board] svg').first().evaluate((e) => e.getBoundingClientRect().width);
  await until(async () => { const w = await phoneWidth(); return w > 300 && w <= 390; }, `the board to fit a 390px screen (it is ${await phoneWidth()}px wide)`);
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
}


test.describe('play against the AI', () => {
  for (const g of GAMES) test(`${g.id}: play against the AI by clicking`, () => playAgainstAi(g));
  // Caird's Cyvasse with non-default options, created through the options form: Hex Cyvasse in the
  // Expert version, and the 10x10 board in the Expert version.
  const caird = GAMES.find((g) => g.id === 'cyvasse-caird');
  if (caird) test('cyvasse-caird: Hex Cyvasse, Expert, from the options form (refused setup, terrain swap, play by clicking)', () => playAgainstAi(caird, {
    label: 'cyvasse-caird-hex-expert',
    options: { board: 'hex', version: 'expert' },
    check: async (page) => {
      await expect(page.locator('[data-testid=board] svg').first()).toBeVisible({ timeout: 20000 });
      await expect(page.locator('[data-testid=board] polygon[data-cell]')).toHaveCount(91);
    },
  }));
  if (caird) test('cyvasse-caird: 10x10 board, Expert, from the options form (refused setup, terrain swap, play by clicking)', () => playAgainstAi(caird, {
    label: 'cyvasse-caird-10x10-expert',
    options: { large_board: true, version: 'expert' },
    check: async (page) => {
      await expect(page.locator('[data-testid=board] svg').first()).toBeVisible({ timeout: 20000 });
      await expect(page.locator('[data-testid=board] g[data-cell]')).toHaveCount(100);
      await expect(page.locator('[data-testid=board] [data-cell="j10"]')).toHaveCount(1);
    },
  }));
});
