// Browser tests of the moment of play (issue 38, points 1 and 2), at 1366x768 and 390x844:
// - one gesture per move (Kyo): a click on a Heavy and then the square in front of it makes the common
//   move at once (the whole slice, the engine's first listed variant), no chooser; "Other ways…" under
//   the board (a phone's way) or a right click on the target (a desktop's) opens the variants in a small
//   box at the target square, on the screen, with thumb-sized buttons in words; choosing one makes it;
// - the game's state beside the board: the status, the last move and the game's own panels (Territories'
//   dice and bank) beside the board on a desktop, in the window, and directly under the board on a
//   phone; Kyo's panel says no jargon ("This turn: open, 0 step(s)") and nothing stale.
// Screenshots of each in the artifacts folder. Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { join } from 'node:path';

const SIZES = [[1366, 768, 'desktop'], [390, 844, 'phone']];

function playTests({ test, newPage, base, assert, noConsoleErrors, ARTIFACTS, waitMyTurnOrOver, moveCount }) {
  const cell = (page, name) => page.locator(`[data-testid=board] [data-cell="${name}"]`).first();

  async function playVsAi(page, id) {
    await page.goto(`${base()}/?ai=1`);
    await page.locator(`[data-testid=play-ai-${id}]`).click();
    await page.waitForURL(/\/game\//, { timeout: 20000 });
    await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
  }

  /** Waits until the move list has more than `before` steps; returns the text of its steps from there
   * (the AI may have answered already). */
  async function moved(page, before) {
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=moves] [data-testid=move-step]').length > n, before, { timeout: 20000 });
    return page.evaluate((n) => [...document.querySelectorAll('[data-testid=moves] [data-testid=move-step]')].slice(n).map((e) => e.textContent).join(' | '), before);
  }

  /** Ends the turn when it goes on after a step (a Mana move); then waits for the player's next turn. */
  async function finishTurn(page) {
    const end = page.locator('[data-testid=actions] button[data-notation=end]:not([disabled])');
    if ((await page.locator('[data-testid=status][data-state=yours]').count()) && (await end.count())) await end.first().click();
    return waitMyTurnOrOver(page);
  }

  /** A Heavy on my back row whose square in front is a target once it is selected: [from, to]. */
  async function heavyStep(page, back, front, used) {
    for (const f of 'ABCDGHIJ') {
      if (used.includes(f)) continue;
      const from = `${f}${back}`;
      if (!(await cell(page, from).evaluate((el) => el.classList.contains('target')))) continue;
      await cell(page, from).click({ force: true });
      const to = `${f}${front}`;
      const ok = await page.waitForFunction((c) => document.querySelector(`[data-testid=board] [data-cell="${c}"]`)?.classList.contains('target'), to, { timeout: 3000 }).then(() => true, () => false);
      if (ok) {
        used.push(f);
        return [from, to];
      }
      await page.locator('[data-testid=select-bar] button', { hasText: 'Cancel' }).click();
    }
    throw new Error('no Heavy on the back row may step forward');
  }

  /** The variants box: at the target cell, on the screen, thumb-sized buttons in words. */
  async function checkChooser(page, from, to, w, hgt, label) {
    const chooser = page.locator('[data-testid=chooser]');
    await page.waitForFunction(() => document.querySelector('[data-testid=chooser]')?.classList.contains('placed'), null, { timeout: 10000 });
    const box = await chooser.boundingBox();
    const target = await cell(page, to).boundingBox();
    // Half a pixel of layout rounding allowed when the page scrolled the box into view.
    assert(box && box.x >= 0 && box.x + box.width <= w && box.y >= -0.5 && box.y + box.height <= hgt + 0.5, `the choice is not on the screen (${w}x${hgt}): ${JSON.stringify(box)}`);
    const near = Math.min(Math.abs(box.y - (target.y + target.height)), Math.abs(box.y + box.height - target.y));
    assert(near <= 8 && box.x < target.x + target.width && target.x < box.x + box.width, `the choice is not at ${to}: ${JSON.stringify({ box, target })}`);
    const buttons = chooser.locator('button[data-notation]');
    const n = await buttons.count();
    assert(n >= 2, `${n} variants for ${from} → ${to}`);
    for (let i = 0; i < n; i++) {
      const b = await buttons.nth(i).boundingBox();
      assert(b.height >= 40, `a variant's button is ${b.height}px tall (not thumb-sized)`);
      const text = await buttons.nth(i).innerText();
      assert(text.includes(`${from} → ${to}`), `a variant does not read in words: "${text}"`);
    }
    // Readable: dark text on a light button.
    const [fg, bg] = await buttons.first().evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
    const lum = (c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    assert(lum(bg) - lum(fg) > 120, `the variants are hard to read: ${fg} on ${bg}`);
    await page.screenshot({ path: join(ARTIFACTS, `play-kyo-variants-${label}.png`) });
    return buttons;
  }

  async function kyoOneGesture() {
    const page = await newPage('play-kyo');
    try {
      await playVsAi(page, 'kyo');
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended before the first move');
      const gold = (await page.locator('[data-seat="0"]').textContent()).includes('(you)');
      const [back, front] = gold ? [0, 1] : [9, 8];
      const used = [];
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        // 1. Click, click: the common move (the whole slice) at once, no chooser.
        let before = await moveCount(page);
        const [from, to] = await heavyStep(page, back, front, used);
        await cell(page, to).click({ force: true });
        const last = await moved(page, before);
        await expect(page.locator('[data-testid=chooser]'), 'a chooser opened for the common move').toHaveCount(0);
        assert(new RegExp(`Heavy ${from} → ${to}, carries 3 chips(?!, leaves)`).test(last), `the common move is not the whole slice: "${last}"`);
        await page.screenshot({ path: join(ARTIFACTS, `play-kyo-common-${label}.png`) });
        if ((await finishTurn(page)) === 'over') return;
        // 2. The other ways, one step away: on a phone "Other ways…" then the target; on a desktop a
        //    right click on the target.
        before = await moveCount(page);
        const [from2, to2] = await heavyStep(page, back, front, used);
        if (label === 'phone') {
          await page.locator('[data-testid=other-ways]').click();
          await cell(page, to2).click({ force: true });
        } else {
          await cell(page, to2).click({ button: 'right', force: true });
        }
        const buttons = await checkChooser(page, from2, to2, w, hgt, label);
        const pick = buttons.nth(1);
        const words = (await pick.locator('span').first().textContent()).trim();
        await pick.click();
        const made = await moved(page, before);
        assert(made.includes(words), `the variant chosen ("${words}") is not the move made: "${made}"`);
        if ((await finishTurn(page)) === 'over') return;
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** The status and the game's own panels in view with the board: beside it on a desktop, right
   * under it on a phone. */
  async function stateBesideBoard() {
    const page = await newPage('play-state');
    try {
      await playVsAi(page, 'territories');
      await expect(page.locator('[data-testid=dice]')).toBeVisible({ timeout: 20000 });
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        await page.evaluate(() => window.scrollTo(0, 0));
        const board = await page.locator('[data-testid=board]').boundingBox();
        const st = await page.locator('[data-testid=status]').boundingBox();
        const dice = await page.locator('[data-testid=dice]').boundingBox();
        const last = await page.locator('[data-testid=last-move]').boundingBox();
        if (label === 'desktop') {
          for (const [name, b] of [['status', st], ['last move', last], ['dice', dice]]) {
            assert(b.x >= board.x + board.width && b.y + b.height <= hgt, `the ${name} is not beside the board in the window: ${JSON.stringify({ b, board })}`);
          }
        } else {
          assert(st.y >= board.y + board.height, `the status is above the board on a phone: ${JSON.stringify({ st, board })}`);
          const header = await page.locator('[data-testid=status]').locator('xpath=ancestor::div[contains(@class,"card")][1]').boundingBox();
          // The player's own name bar may sit right under the board (people by name); the status follows it.
          const bar = await page.locator('[data-testid=players-bottom]').boundingBox();
          const above = bar && bar.height > 0 && bar.y >= board.y + board.height ? bar : board;
          assert(above === board || bar.y - (board.y + board.height) < 30, `a gap of ${bar?.y - (board.y + board.height)}px between the board and the player's bar`);
          assert(header.y - (above.y + above.height) < 30, `a gap of ${header.y - (above.y + above.height)}px between the board and the status`);
          assert(dice.y > st.y && dice.y < hgt + 400, `the dice are far from the board: ${JSON.stringify({ dice, board })}`);
        }
        await page.screenshot({ path: join(ARTIFACTS, `play-territories-state-${label}.png`) });
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** Kyo's panel: the turn in words, no engine phase names, nothing said twice or stale. */
  async function kyoPanel() {
    const page = await newPage('play-kyo-panel');
    try {
      await playVsAi(page, 'kyo');
      await expect(page.locator('[data-testid=kyo-panel]')).toBeVisible({ timeout: 20000 });
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        const text = await page.locator('[data-testid=kyo-panel]').innerText();
        assert(!/This turn|step\(s\)|\bto move\b/.test(text), `Kyo's panel: "${text}"`);
        const panel = await page.locator('[data-testid=kyo-panel]').boundingBox();
        const board = await page.locator('[data-testid=board]').boundingBox();
        if (label === 'desktop') assert(panel.x >= board.x + board.width && panel.y < hgt, `Kyo's panel is not beside the board: ${JSON.stringify({ panel, board })}`);
        await page.screenshot({ path: join(ARTIFACTS, `play-kyo-panel-${label}.png`) });
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** Check (Caird): the King's cell marked on the board and "Check — your King is attacked" in the
   * status line, both in the window. Caird's lesson "Protect your King" starts in check (the same
   * renderer and note as the game page, whose status line is unit-tested). */
  async function cairdCheck() {
    const page = await newPage('play-check');
    try {
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        await page.goto(`${base()}/learn/cyvasse-caird/8`);
        const note = page.locator('[data-testid=lesson-status] [data-testid=status-note]');
        await expect(note).toBeVisible({ timeout: 20000 });
        assert((await note.textContent()).trim() === 'Check — your King is attacked', `the status line says "${await note.textContent()}"`);
        const king = page.locator('[data-testid=board] [data-testid=check-cell]');
        assert((await king.count()) === 1 && (await king.getAttribute('data-cell')) === 'e1', `the King's cell is not the one marked: ${await king.count()} marked`);
        await king.scrollIntoViewIfNeeded();
        const box = await king.boundingBox();
        assert(box && box.y >= 0 && box.y + box.height <= hgt, `the King's cell is off the screen: ${JSON.stringify(box)}`);
        await page.screenshot({ path: join(ARTIFACTS, `play-caird-check-${label}.png`) });
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  return async (games) => {
    if (games.some((g) => g.id === 'cyvasse-caird')) {
      test('cyvasse-caird: check marks the King\'s cell and says "Check — your King is attacked" (desktop and phone)', () => cairdCheck());
    }
    if (games.some((g) => g.id === 'kyo')) {
      test('kyo: one gesture per move — click, click makes the whole slice at once; the other ways in a box at the target (desktop and phone)', () => kyoOneGesture());
      test('kyo: the panel says the turn in words, beside the board on a desktop (desktop and phone)', () => kyoPanel());
    }
    if (games.some((g) => g.id === 'territories')) {
      test('territories: the status, last move, dice and bank beside the board on a desktop, right under it on a phone', () => stateBesideBoard());
    }
  };
}

playTests({ ...h, test })(GAMES);
