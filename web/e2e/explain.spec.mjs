// Browser tests of "why does this click do nothing" (issue 22: "A click on a piece or cell that has no
// legal action says briefly why, using the engine's own refusal text"): against Kyo's AI, a Light Pawn
// selected then a square two ahead shows the engine's "A Light Pawn steps one square: it cannot make
// Mana moves"; a click on the opponent's piece says whose it is; the next click clears the line; a
// choice between actions on the same cells (a Heavy's slice) reads in the engine's words. At 390x844
// and 1280x800, with screenshots of each. Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { join } from 'node:path';

function explainTests({ test, newPage, base, assert, noConsoleErrors, ARTIFACTS, waitMyTurnOrOver }) {
  const cell = (page, name) => page.locator(`[data-testid=board] [data-cell="${name}"]`);
  const toast = (page) => page.locator('[data-testid=explain][role=status]');

  /** Clicks a cell as a person does (the board takes pointer input on the cell's shape). */
  async function tap(page, name) {
    await cell(page, name).click({ force: true });
  }

  /** Waits for the engine's line and returns its text. */
  async function said(page) {
    await expect(toast(page)).toBeVisible({ timeout: 20000 });
    return (await toast(page).textContent()).trim();
  }

  async function kyoWhy() {
    const page = await newPage('explain-kyo');
    try {
      await page.goto(`${base()}/?ai=1`);
      await page.locator('[data-testid=play-ai-kyo]').click();
      await page.waitForURL(/\/game\//, { timeout: 20000 });
      await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended before the first move');
      const gold = (await page.locator('[data-seat="0"]').textContent()).includes('(you)');
      const [row, ahead, theirs] = gold ? [3, 5, 9] : [6, 4, 0];
      // One of my Light Pawns that may move (a highlighted start on its row).
      let pawn = null;
      for (const c of 'ABCDGHIJ') {
        if (await cell(page, `${c}${row}`).evaluate((el) => el.classList.contains('target'))) { pawn = c; break; }
      }
      assert(pawn, `no Light Pawn of row ${row} may move`);
      for (const [w, hgt] of [[390, 844], [1280, 800]]) {
        await page.setViewportSize({ width: w, height: hgt });
        // Select the Light Pawn, then a square two ahead: only a Mana chain would get there.
        await tap(page, `${pawn}${row}`);
        await expect(page.locator(`[data-testid=board] [data-cell="${pawn}${row}"].selected, [data-testid=board] [data-cell].target`).first()).toBeVisible({ timeout: 10000 });
        await tap(page, `${pawn}${ahead}`);
        const why = await said(page);
        assert(why === 'A Light Pawn steps one square: it cannot make Mana moves', `the engine's reason reads "${why}"`);
        await toast(page).scrollIntoViewIfNeeded();
        const box = await toast(page).boundingBox();
        assert(box && box.x >= 0 && box.x + box.width <= w, `the reason runs off the window: ${JSON.stringify(box)}`);
        // Never over the board (its edge labels included): beside it on a desktop, under it on a phone.
        const boardBox = await page.locator('[data-testid=board] svg.board').first().boundingBox();
        const overlaps = boardBox && box.x < boardBox.x + boardBox.width && boardBox.x < box.x + box.width && box.y < boardBox.y + boardBox.height && boardBox.y < box.y + box.height;
        assert(!overlaps, `the reason covers the board: ${JSON.stringify({ box, boardBox })}`);
        await page.screenshot({ path: join(ARTIFACTS, `explain-kyo-light-pawn-${w}x${hgt}.png`), fullPage: false });
        // The opponent's back row: whose piece (or chips) it is.
        await tap(page, `A${theirs}`);
        await page.waitForFunction((old) => {
          const t = document.querySelector('[data-testid=explain]');
          return t && t.textContent.trim() !== old;
        }, why, { timeout: 20000 });
        const other = await said(page);
        assert(/^That is (Gold|Red)'s [A-Z][a-z]+( Pawn)?$|^The top chip on A\d is (Gold|Red)'s/.test(other), `the opponent's piece: "${other}"`);
        assert(other.includes(gold ? 'Red' : 'Gold'), `the reason names the wrong side: "${other}"`);
        await page.screenshot({ path: join(ARTIFACTS, `explain-kyo-opponent-${w}x${hgt}.png`), fullPage: false });
        // The next click clears the line (a click that selects my pawn again).
        await tap(page, `${pawn}${row}`);
        await expect(toast(page)).toHaveCount(0, { timeout: 10000 });
      }
      // A choice between actions on the same cells reads in the engine's words (the notation in
      // small print): a Heavy on my back row stepping forward, with a choice of how many chips it carries
      // (a click there makes the common move at once; a right click shows every way, at the cell).
      const back = gold ? 0 : 9;
      const front = gold ? 1 : 8;
      // (The square in front of the B file's Heavy is empty at the start, and only my moves reach it.)
      const heavy = 'B';
      await tap(page, `${heavy}${back}`);
      await page.locator(`[data-testid=board] [data-cell="${heavy}${front}"]`).first().click({ button: 'right', force: true });
      const choices = page.locator('[data-testid=chooser] button[data-notation]');
      await expect(choices.first()).toBeVisible({ timeout: 10000 });
      const labels = await choices.allInnerTexts();
      assert(labels.length > 1, `a single choice: ${JSON.stringify(labels)}`);
      for (const [i, label] of labels.entries()) {
        const notation = await choices.nth(i).getAttribute('data-notation');
        assert(label.includes(`${heavy}${back} → ${heavy}${front}`), `a choice does not read in words: "${label}"`);
        assert(label.includes(notation), `a choice does not show its notation "${notation}": "${label}"`);
        assert(!label.startsWith(gold ? 'Gold' : 'Red'), `a choice repeats the player's side: "${label}"`);
      }
      // The Heavy with chips, and chips without it ("2 chips B0 → B1").
      assert(labels.some((l) => l.startsWith(`Heavy ${heavy}${back} → `)) && labels.some((l) => /^\d chips? /.test(l)), `choices: ${JSON.stringify(labels)}`);
      await page.screenshot({ path: join(ARTIFACTS, 'explain-kyo-choice-words.png'), fullPage: false });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  return async (games) => {
    if (games.some((g) => g.id === 'kyo')) test('kyo: a click with no legal action says why in the engine\'s words, and choices read in words (phone and desktop)', () => kyoWhy());
  };
}

explainTests({ ...h, test })(GAMES);
