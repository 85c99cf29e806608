// Browser tests of the move list in plain words (issue 22, "Plain words everywhere"): against the AI,
// Kyo's moves read as the game words them ("Gold: Light Pawn A3 → A4"), one line per turn, a
// "Notation" switch shows the engine notation instead and is remembered on the device; Cyvasse's
// hidden setup reads "North sets up (hidden)" and shows nothing of the army. Screenshots at 1280x800
// and 390x844. Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { join } from 'node:path';

function wordsTests({ test, newPage, base, assert, until, noConsoleErrors, ARTIFACTS, playOneDecision, waitMyTurnOrOver }) {
  const shot = async (page, name) => {
    for (const [w, hgt] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width: w, height: hgt });
      await page.locator('[data-testid=moves]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `words-${name}-${w}x${hgt}.png`), fullPage: false });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  async function playVsAi(page, id) {
    await page.goto(`${base()}/?ai=1`);
    await page.locator(`[data-testid=play-ai-${id}]`).click();
    await page.waitForURL(/\/game\//, { timeout: 20000 });
    await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
  }

  const lines = (page) => page.locator('[data-testid=moves] [data-testid=move-line]').allInnerTexts();

  /** Waits until the move list has at least `n` lines (or `pred` holds for them). */
  async function waitLines(page, pred, what) {
    let seen = [];
    await until(async () => pred(seen = await lines(page)), `the move list to show ${what}`, 60000)
      .catch((e) => { throw new Error(`the move list never showed ${what}: ${JSON.stringify(seen)}\n${e.message}`); });
    return seen;
  }

  async function kyoWords() {
    const page = await newPage('words-kyo');
    try {
      await playVsAi(page, 'kyo');
      // Decisions until four turns are listed (a Kyo turn may take several steps: a fixed number of
      // decisions may all go into one turn).
      for (let i = 0; i < 16 && (await lines(page)).length < 4; i++) {
        if ((await waitMyTurnOrOver(page)) === 'over') break;
        await playOneDecision(page);
      }
      const said = await waitLines(page, (ls) => ls.length >= 4, 'four lines');
      // One line per turn: the sides alternate, and a turn's steps share its line.
      for (let i = 0; i < said.length; i++) {
        assert(/^(Gold|Red)[: ]/.test(said[i]), `line ${i + 1} does not start with a side: "${said[i]}"`);
        if (i > 0) assert(said[i].split(/[: ]/)[0] !== said[i - 1].split(/[: ]/)[0], `lines ${i} and ${i + 1} are the same side's: ${JSON.stringify(said)}`);
      }
      assert(said.some((l) => / → /.test(l) && /(Light Pawn|Heavy|Queen|King|Tower) [A-J]\d → [A-J]\d/.test(l)),
        `no move reads in words (a piece by name, from → to): ${JSON.stringify(said)}`);
      await shot(page, 'kyo');
      // The Notation switch shows the engine's notation instead, and the page remembers it.
      await page.locator('[data-testid=move-notation]').check();
      const noted = await waitLines(page, (ls) => ls.length >= 4 && ls.every((l) => !l.includes('→')), 'notation');
      assert(noted.every((l) => /^(Gold|Red): [A-J]\d/.test(l)), `notation lines: ${JSON.stringify(noted)}`);
      await page.reload();
      await expect(page.locator('[data-testid=moves]')).toBeVisible({ timeout: 20000 });
      assert(await page.locator('[data-testid=move-notation]').isChecked(), 'the Notation switch was not remembered');
      await waitLines(page, (ls) => ls.length >= 4 && ls.every((l) => !l.includes('→')), 'notation after a reload');
      await page.locator('[data-testid=move-notation]').uncheck();
      await waitLines(page, (ls) => ls.some((l) => l.includes('→')), 'words again');
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function cyvasseWords() {
    const page = await newPage('words-cyvasse');
    try {
      await playVsAi(page, 'cyvasse-trump');
      const hidden = /^(North|South) sets up \(hidden\)$/;
      for (let i = 0; i < 3 && !(await lines(page)).some((l) => hidden.test(l)); i++) {
        if ((await waitMyTurnOrOver(page)) === 'over') break;
        await playOneDecision(page);
      }
      const said = await waitLines(page, (ls) => ls.some((l) => hidden.test(l)), 'the opponent\'s hidden setup');
      const theirs = said.find((l) => hidden.test(l));
      const side = theirs.split(' ')[0];
      // Nothing of the hidden army: in notation too, it is "(hidden)".
      await page.locator('[data-testid=move-notation]').check();
      const noted = await waitLines(page, (ls) => ls.some((l) => l === `${side}: (hidden)`), 'the hidden setup in notation');
      assert(!noted.some((l) => l.startsWith(`${side}: setup`)), `the opponent's setup leaked: ${JSON.stringify(noted)}`);
      await page.locator('[data-testid=move-notation]').uncheck();
      await waitLines(page, (ls) => ls.some((l) => hidden.test(l)), 'words again');
      await shot(page, 'cyvasse-trump');
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  return async (games) => {
    if (games.some((g) => g.id === 'kyo')) test('kyo: the move list in words, one line per turn, and the Notation switch', () => kyoWords());
    if (games.some((g) => g.id === 'cyvasse-trump')) test('cyvasse-trump: the hidden setup in words ("North sets up (hidden)"), nothing leaked', () => cyvasseWords());
  };
}

wordsTests({ ...h, test })(GAMES);
