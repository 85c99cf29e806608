// Browser tests of a newcomer's first minute: the home page says in one sentence what Tabula is and
// offers Kyo's first lesson; the five games' cards fit a laptop's screen (1366x768) with blurbs in a
// player's words; the options form starts with the card's AI level; Play vs AI takes a clock. Caird's
// lessons answer a refused move with the rule that forbids it (out of range, blocked at a cell, check
// and by which piece), without "illegal action:", and the next click clears the banner. Every unknown
// address (a game, a replay, a player, a leaderboard, a join link, a path) shows the same friendly,
// titled page, without a developer's backticks. A move tried offline says so and is sent when the
// connection returns. A waiting analysis says its place in the queue and about how long. A wrong try in a Kyo lesson says
// why it failed. At 1366x768 and 390x844, with screenshots. Its helpers come from harness.mjs.

import { h, test, expect, GAMES, DESKTOP, PHONE, withServer } from './harness.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A Kyo record of 36 actions (analysis.spec.mjs's fixture): its analysis takes a while in a debug build. */
const FIXTURE = new URL('./fixtures/kyo-analysed.json', import.meta.url);

function newcomerTests({ test, newPage, base, assert, noConsoleErrors, assertNoOverflow, ARTIFACTS, waitMyTurnOrOver, moveCount }) {
  const SIZES = [['desktop', DESKTOP], ['phone', PHONE]];

  /** Opens the lobby at `size` and waits for every game's card. */
  async function lobby(page, size, count) {
    await page.setViewportSize(size);
    await page.goto(`${base()}/`);
    await expect(page.locator('.game-card[data-game]')).toHaveCount(count, { timeout: 20000 });
  }

  async function homePage(label, size, games) {
    const page = await newPage(`newcomer-home-${label}`);
    try {
      await lobby(page, size, games.length);
      // One sentence that says what Tabula is, then the way in for someone new.
      const intro = (await page.locator('[data-testid=intro] p').textContent()).trim();
      assert(/^Tabula is /.test(intro) && intro.endsWith('.') && !/[.!?] /.test(intro), `the intro is not one sentence about Tabula: "${intro}"`);
      const learn = page.locator('[data-testid=learn-kyo]');
      await expect(learn).toHaveText('New here? Learn Kyo in 5 minutes');
      await expect(learn).toBeInViewport({ ratio: 1 });
      // The blurbs in a player's words: no option ids, no "(a|b|c)" lists, no word about the project.
      for (const g of games) {
        const blurb = (await page.locator(`[data-testid=blurb-${g.id}]`).textContent()).trim();
        assert(blurb.length > 40, `${g.id}: no blurb`);
        assert(!/[a-z]+_[a-z]+|\([a-z_]+\|/.test(blurb), `${g.id}: the blurb names option ids: "${blurb}"`);
        assert(!/this project|options?:/i.test(blurb), `${g.id}: the blurb is not in a player's words: "${blurb}"`);
      }
      if (label === 'desktop') {
        // All the cards in view at once, without scrolling.
        assert((await page.evaluate(() => window.scrollY)) === 0, 'the lobby opened scrolled');
        for (const g of games) {
          const box = await page.locator(`.game-card[data-game="${g.id}"]`).boundingBox();
          assert(box && box.y >= 0 && box.y + box.height <= size.height && box.x + box.width <= size.width,
            `${g.id}'s card is not in view at ${size.width}x${size.height}: ${JSON.stringify(box)}`);
        }
      } else {
        await assertNoOverflow(page, size.width);
      }
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-home-${size.width}x${size.height}.png`), fullPage: false });
      // The options form's opponent is the card's AI level (someone new: the gentlest), and its clock
      // the card's.
      const id = games.some((g) => g.id === 'kyo') ? 'kyo' : games[0].id;
      const level = await page.locator(`[data-testid=ai-level-${id}]`).inputValue();
      assert(level === '1', `a newcomer's card offers level ${level}`);
      await page.locator(`[data-testid=ai-clock-${id}]`).selectOption('blitz');
      const card = page.locator(`.game-card[data-game="${id}"]`);
      await card.locator(`[data-testid=options-${id}]`).click();
      await expect(card.locator('select[data-seat="1"]')).toHaveValue(`ai${level}`);
      await expect(card.locator('select[name=clock]')).toHaveValue('blitz');
      await card.locator(`[data-testid=options-${id}]`).click();
      // Play vs AI with that clock: the game page shows the clocks.
      await page.locator(`[data-testid=play-ai-${id}]`).click();
      await page.waitForURL(/\/game\//, { timeout: 20000 });
      await expect(page.locator('[data-clock="0"] .clock-time')).toHaveText(/^\d+:\d\d/, { timeout: 20000 });
      await expect(page.locator('[data-seat="1"]', { hasText: `AI level ${level}` })).toBeVisible({ timeout: 20000 });
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-clocked-game-${size.width}x${size.height}.png`), fullPage: false });
      // Back home, "New here?" opens Kyo's first lesson.
      await page.goto(`${base()}/`);
      await page.locator('[data-testid=learn-kyo]').click();
      await page.waitForURL(/\/learn\/kyo\/1$/, { timeout: 20000 });
      await expect(page.locator('[data-testid=lesson][data-n="1"]')).toBeVisible({ timeout: 20000 });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function cairdRefusals(label, size) {
    const page = await newPage(`newcomer-caird-${label}`);
    // Each refusal is an HTTP 422, which the browser logs as a failed resource: expected here.
    page.allowNetworkErrors = true;
    const banner = page.locator('[data-testid=lesson-refusal]');
    const cell = (name) => page.locator(`[data-testid=board] [data-cell="${name}"]`).first();
    /** Opens lesson `n`, clicks `from` then `to`, and returns the banner's sentence. */
    const tryMove = async (n, from, to) => {
      await page.goto(`${base()}/learn/cyvasse-caird/${n}`);
      await expect(page.locator(`[data-testid=lesson][data-n="${n}"]`)).toBeVisible({ timeout: 20000 });
      // The lesson's legal moves are in (some cell is a target): a click before that does nothing.
      await expect.poll(() => page.locator('[data-testid=board] [data-cell].target').count(), { timeout: 20000 }).toBeGreaterThan(0);
      await cell(from).click({ force: true });
      await cell(to).click({ force: true });
      await expect(banner).toBeVisible({ timeout: 20000 });
      const text = (await banner.textContent()).trim();
      assert(!/illegal action/i.test(text), `the refusal keeps the protocol's prefix: "${text}"`);
      return text.replace(/^Not allowed:\s*/, '');
    };
    try {
      await page.setViewportSize(size);
      // Lesson 1: the Elephant on d2 moves up to 3 squares.
      assert((await tryMove(1, 'd2', 'd6')) === 'An Elephant moves at most 3 squares: d6 is 4 squares away', 'out of range');
      await banner.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-caird-range-${size.width}x${size.height}.png`), fullPage: false });
      // The next click is a new try: the banner goes.
      await cell('d2').click({ force: true });
      await expect(banner).toHaveCount(0, { timeout: 10000 });
      // Lesson 7: the Trebuchet on b4 stands between the Elephant on a4 and c4.
      const blocked = await tryMove(7, 'a4', 'c4');
      assert(blocked === 'Blocked at b4 by your Trebuchet: a move never passes through pieces', `blocked: "${blocked}"`);
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-caird-blocked-${size.width}x${size.height}.png`), fullPage: false });
      // Lesson 8: the King on e1 is attacked by the Rabble on e2; moving the Elephant away leaves it so.
      const check = await tryMove(8, 'b2', 'b3');
      assert(check === 'Your King on e1 would be in check from Black\'s Rabble on e2', `check: "${check}"`);
      // Lesson 3: the Heavy Horse moves diagonally.
      assert((await tryMove(3, 'c2', 'c4')) === 'A Heavy Horse moves only diagonally', 'direction');
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function notFoundPages(label, size) {
    const page = await newPage(`newcomer-not-found-${label}`);
    // The 404 answers behind these pages are logged by the browser as failed resources: expected.
    page.allowNetworkErrors = true;
    try {
      await page.setViewportSize(size);
      const addresses = {
        game: '/game/no-such-game-here',
        replay: '/replay/no-such-game-here',
        player: '/@/nobody-of-that-name',
        leaderboard: '/leaderboard/no-such-kind',
        join: '/join/no-such-game-here/0#not-a-token',
        path: '/no/such/page',
      };
      let first = null;
      for (const [what, path] of Object.entries(addresses)) {
        await page.goto(`${base()}${path}`);
        const box = page.locator('[data-testid=not-found]');
        await expect(box, `${what}: no not-found page at ${path}`).toBeVisible({ timeout: 20000 });
        await expect(box.locator('h2')).toHaveText('Nothing here');
        // The page alone: nothing of the page that was asked for around it.
        await expect(page.locator('main > *'), `${what}: more than the not-found page`).toHaveCount(1);
        await expect(page.locator('main > [data-testid=not-found]')).toHaveCount(1);
        await expect(page).toHaveTitle(/Not found — Tabula$/);
        const text = (await page.locator('main').textContent()).trim();
        assert(!text.includes('`'), `${what}: a developer's backtick on the page: "${text}"`);
        // The same page each time.
        const html = await box.innerHTML();
        if (first === null) first = html;
        assert(html === first, `${what}: a different not-found page`);
        await page.screenshot({ path: join(ARTIFACTS, `newcomer-not-found-${what}-${size.width}x${size.height}.png`), fullPage: false });
      }
      // Its way on: the lobby.
      await page.locator('[data-testid=not-found] a', { hasText: 'Go to the lobby' }).click();
      await expect(page.locator('[data-testid=intro]')).toBeVisible({ timeout: 20000 });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function offlineMove(label, size) {
    const page = await newPage(`newcomer-offline-${label}`);
    try {
      await page.setViewportSize(size);
      await page.goto(`${base()}/?ai=1`);
      await page.locator('[data-testid=play-ai-kyo]').click();
      await page.waitForURL(/\/game\//, { timeout: 20000 });
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended before the first move');
      const gold = (await page.locator('[data-seat="0"]').textContent()).includes('(you)');
      const [row, ahead] = gold ? [3, 4] : [6, 5];
      const before = await moveCount(page);
      // The network goes; the page says it is down.
      page.allowNetworkErrors = true;
      await page.context().setOffline(true);
      await expect(page.locator('[data-testid=conn].down')).toBeVisible({ timeout: 15000 });
      // A Light Pawn one square forward, clicked as a person does.
      await page.locator(`[data-testid=board] [data-cell="A${row}"]`).first().click({ force: true });
      await page.locator(`[data-testid=board] [data-cell="A${ahead}"]`).first().click({ force: true });
      const error = page.locator('[data-testid=error]');
      await expect(error).toHaveText('You are offline — your move will be sent when the connection returns', { timeout: 20000 });
      // (The header is redrawn at every tick of the clocks: the whole page, not a scroll to the line.)
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-offline-move-${size.width}x${size.height}.png`), fullPage: true });
      assert((await moveCount(page)) === before, 'a move was counted while offline');
      // Back: the move is sent and played, and the message goes.
      await page.context().setOffline(false);
      await expect(page.locator('[data-testid=conn]:not(.down)')).toBeVisible({ timeout: 30000 });
      await expect.poll(() => moveCount(page), { message: 'the move tried offline was not played on reconnect', timeout: 30000 }).toBeGreaterThan(before);
      await expect(error).toHaveCount(0, { timeout: 10000 });
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-offline-sent-${size.width}x${size.height}.png`), fullPage: true });
      page.allowNetworkErrors = false;
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function kyoLessonWords(label, size) {
    const page = await newPage(`newcomer-kyo-lesson-${label}`);
    try {
      await page.setViewportSize(size);
      await page.goto(`${base()}/learn/kyo/1`);
      await expect(page.locator('[data-testid=lesson][data-n="1"]')).toBeVisible({ timeout: 20000 });
      // Words for what is drawn: no letters for pieces drawn as icons.
      const words = (await page.locator('[data-testid=lesson]').textContent()) ?? '';
      assert(!/upper-case|lower-case|Heavy \(H\)/i.test(words), `the lesson names letters that are not drawn: "${words.slice(0, 400)}"`);
      // Red's pawns are red and Gold's gold, as the lesson says.
      const fill = (owner) => page.locator(`[data-testid=board] g.piece[data-owner="${owner}"] path`).first().getAttribute('fill');
      const rgb = async (owner) => {
        const hex = (await fill(owner)) ?? '';
        return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      };
      const [rr, rg, rb] = await rgb(1);
      assert(rr > 150 && rg < 90 && rb < 90, `Red's pawns are not drawn red: ${await fill(1)}`);
      const [gr, gg, gb] = await rgb(0);
      assert(gr > 180 && gg > 120 && gb < 80, `Gold's pawns are not drawn gold: ${await fill(0)}`);
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-kyo-lesson-1-${size.width}x${size.height}.png`), fullPage: false });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** Kyo's "Carry your chips": a legal try that leaves chips behind fails with the reason, in words
   * that follow from the position (the old page said only "That did not reach the goal in 1 move."). */
  async function kyoWrongTry(label, size) {
    const page = await newPage(`newcomer-kyo-wrong-${label}`);
    try {
      await page.setViewportSize(size);
      await page.goto(`${base()}/learn/kyo/3`);
      await expect(page.locator('[data-testid=lesson][data-n="3"]')).toBeVisible({ timeout: 20000 });
      const cell = (name) => page.locator(`[data-testid=board] [data-cell="${name}"]`).first();
      await cell('C3').click({ force: true });
      await cell('C4').click({ force: true });
      // The step to C4 comes in several kinds (how many chips come along): take one that is not the whole stack.
      const partial = page.locator('[data-testid=lesson] button[data-notation^="C3"]:not([data-notation="C3-C4"])').first();
      await expect(partial).toBeVisible({ timeout: 20000 });
      await partial.click();
      const failed = page.locator('[data-testid=lesson-failed]');
      await expect(failed).toBeVisible({ timeout: 20000 });
      await expect(failed).toContainText('Part of your stack stayed behind on C3');
      const text = (await failed.textContent()) ?? '';
      assert(!text.includes('`'), `a developer's backtick in the lesson's words: "${text}"`);
      await failed.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-kyo-wrong-try-${size.width}x${size.height}.png`), fullPage: false });
      // Afresh, the whole stack's step solves it.
      await page.goto(`${base()}/learn/kyo/3`);
      await expect(page.locator('[data-testid=lesson][data-n="3"] [data-testid=lesson-status]')).toBeVisible({ timeout: 20000 });
      await cell('C3').click({ force: true });
      await cell('C4').click({ force: true });
      await page.locator('[data-testid=lesson] button[data-notation="C3-C4"]').click();
      await expect(page.locator('[data-testid=lesson-solved]')).toBeVisible({ timeout: 20000 });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** Imports the fixture's record and returns the new game's id. */
  async function imported() {
    const record = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const r = await fetch(`${base()}/api/records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ record, public: false }) });
    assert(r.status === 201 || r.status === 200, `the import was refused: ${r.status}`);
    return (await r.json()).id;
  }

  async function analysisQueue(label, size) {
    const page = await newPage(`newcomer-queue-${label}`);
    try {
      await page.setViewportSize(size);
      // One analysis runs (asked over the API); the page asks for a second one.
      const first = await imported();
      const second = await imported();
      const r = await fetch(`${base()}/api/games/${first}/analysis`, { method: 'POST', headers: { 'content-type': 'application/json' } });
      assert(r.status === 202, `the first analysis did not start: ${r.status}`);
      await page.goto(`${base()}/replay/${second}`);
      await page.locator('[data-testid=request-analysis]').click();
      // Its place and, once the running one has a pace, about how long.
      const progress = page.locator('[data-testid=analysis-progress]');
      await expect(progress).toHaveText(/^2nd in the queue, about \d+ (s|min|h)/, { timeout: 60000 });
      await progress.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-analysis-queue-${size.width}x${size.height}.png`), fullPage: false });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  return async (games) => {
    for (const [label, size] of SIZES) {
      test(`newcomer: every address that leads nowhere (game, replay, player, leaderboard, join link, path) shows the same titled page (${label} ${size.width}x${size.height})`, () => notFoundPages(label, size));
      test(`newcomer: the home page — one sentence, "Learn Kyo in 5 minutes", blurbs in words, the form's AI = the card's, a clock for Play vs AI (${label} ${size.width}x${size.height})`, () => homePage(label, size, games));
      if (games.some((g) => g.id === 'kyo')) {
        // On a server of its own: the analyses it starts are stopped with it.
        test(`newcomer: a waiting analysis shows its place in the queue and about how long (${label} ${size.width}x${size.height})`, ({ privateServer }) => withServer(privateServer, () => analysisQueue(label, size)));
        test(`newcomer: Kyo's first lesson names what is drawn, and Red's pawns are red (${label} ${size.width}x${size.height})`, () => kyoLessonWords(label, size));
        test(`newcomer: a wrong try in a Kyo lesson says why it failed ("stayed behind on C3") (${label} ${size.width}x${size.height})`, () => kyoWrongTry(label, size));
        test(`newcomer: a move tried offline says so in words, is sent when the connection returns, and the message goes (${label} ${size.width}x${size.height})`, () => offlineMove(label, size));
      }
      if (games.some((g) => g.id === 'cyvasse-caird')) {
        test(`newcomer: a refused Caird move names the rule (range, blocked at a cell, check), no "illegal action:", cleared by the next click (${label} ${size.width}x${size.height})`, () => cairdRefusals(label, size));
      }
    }
  };
}

newcomerTests({ ...h, test })(GAMES);
