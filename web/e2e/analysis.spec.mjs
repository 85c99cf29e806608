// Browser tests of the engine's analysis and hints: a game against the AI (a hint on the board, a few
// moves, resign), its analysis requested from the replay page (progress, graph, counts, marks, a mark
// clicked shows the engine's move on the board), an imported record with known blunders, a hint in a
// lesson, and no hint control at all in a rated game (created over the HTTP API with two accounts).
// Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The first 36 actions of a Kyo game between two level-1 AIs (`tabula play kyo --ai 0=1 --ai 1=1
 * --seed 3 --record`): its analysis (seed 0, the server's budget, the same as `tabula analyse`) marks
 * Gold's actions 19 and 25 and Red's 35 as inaccuracies and Red's action 33 as a mistake, and the
 * engine prefers C6/1-D5 (cells C6, D5) to Red's C5-D4. (The marks follow the engine: Kyo's legal list
 * now starts with the common variant of a move, so the search settles ties differently than when the
 * fixture was made.) */
const FIXTURE = new URL('./fixtures/kyo-analysed.json', import.meta.url);
const FIXTURE_MARKS = '19:inaccuracy 25:inaccuracy 33:mistake 35:inaccuracy';

function analysisTests(t) {
  const { test, newPage, base, assert, noConsoleErrors, ARTIFACTS, playOneDecision, waitMyTurnOrOver, status, assertNoOverflow } = t;

  async function post(path, body, headers = {}) {
    const r = await fetch(`${base()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const text = await r.text();
    let data = null;
    try { data = JSON.parse(text); } catch { data = text; }
    return { status: r.status, data, cookie: r.headers.get('set-cookie') };
  }

  /** Waits until the analysis card shows the finished analysis (the engine runs in the debug build in
   * tests: allow it minutes). */
  async function waitAnalysed(page) {
    await expect(page.locator('[data-testid=analysis][data-state=done] [data-testid=analysis-graph]')).toBeVisible({ timeout: 300000 });
  }

  /** Requests the analysis on the replay page: the progress shows, then the graph, the counts and the
   * legend. */
  async function requestAnalysis(page) {
    await page.locator('[data-testid=request-analysis]').click();
    await expect(page.locator('[data-testid=analysis-progress], [data-testid=analysis][data-state=done]').first()).toBeVisible({ timeout: 15000 });
    await waitAnalysed(page);
    const rows = await page.locator('[data-testid=analysis-counts] tbody tr').count();
    assert(rows === 2, `the counts table has ${rows} rows for a two-seat game`);
    const legendText = await page.locator('[data-testid=analysis-legend]').innerText();
    assert(/\?\? blunder: the winning chance drops by 30% or more/.test(legendText), `the legend: ${legendText}`);
    const lines = await page.locator('[data-testid=analysis-graph] path').count();
    assert(lines >= 2, `the graph draws ${lines} paths`);
  }

  /** Clicks the first mark of the move list (see clickMark). */
  async function clickFirstMark(page, label) {
    const ply = Number(await page.locator('[data-testid=move-mark]').first().getAttribute('data-ply'));
    return clickMark(page, ply, label);
  }

  /** Clicks the mark of decision `ply` in the move list: the replay goes to the position before that
   * decision, the decision's card names the engine's move and the board draws it. Returns the ply. */
  async function clickMark(page, ply, label) {
    const badge = page.locator(`[data-testid=move-mark][data-ply="${ply}"]`);
    const mark = await badge.getAttribute('data-mark');
    await badge.click();
    await expect(page.locator('[data-testid=replay-ply]', { hasText: new RegExp(`^Action ${ply} of `) })).toBeVisible({ timeout: 15000 });
    const card = page.locator(`[data-testid=decision][data-ply="${ply}"]`);
    await expect(card).toBeVisible({ timeout: 15000 });
    const cardText = await card.innerText();
    assert(cardText.includes(mark), `the decision card does not name the ${mark}: ${cardText}`);
    assert(/The engine prefers|The engine agrees/.test(cardText), `the decision card names no preferred move: ${cardText}`);
    const arrow = page.locator('[data-testid=replay-board] [data-testid=arrow-best]');
    if (/The engine prefers/.test(cardText)) {
      await expect(arrow.first()).toBeVisible({ timeout: 15000 });
      const cells = (await arrow.first().getAttribute('data-cells')) ?? '';
      assert(cells.trim().length > 0, 'the arrow of the engine\'s move names no cell');
      // The arrow is drawn inside the board, over the cells it names.
      const shapes = await arrow.first().locator('line, circle').count();
      assert(shapes >= 1, 'the arrow of the engine\'s move has no shape');
    }
    const cursor = await page.locator('[data-testid=graph-cursor]').count();
    assert(cursor === 1, 'the graph has no cursor at the shown position');
    await page.screenshot({ path: join(ARTIFACTS, `analysis-${label}.png`), fullPage: true });
    return ply;
  }

  async function phoneShots(page, label) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-testid=analysis-graph]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `analysis-${label}-phone.png`) });
    await page.screenshot({ path: join(ARTIFACTS, `analysis-${label}-phone-full.png`), fullPage: true });
    await assertNoOverflow(page, 390);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  async function aiGameHintResignAnalyse() {
    const page = await newPage('analysis-ai');
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${base()}/?ai=1`);
      await page.locator('[data-testid=play-ai-kyo]').click();
      await page.waitForURL(/\/game\//, { timeout: 20000 });
      const id = new URL(page.url()).pathname.split('/').pop();
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game did not start with the player\'s move');
      // A hint for the decision owed now: its move in words and an arrow on the board.
      await page.locator('[data-testid=hint]').click();
      await expect(page.locator('[data-testid=hint-text]')).toBeVisible({ timeout: 120000 });
      const hintMove = (await page.locator('[data-testid=hint-move]').innerText()).trim();
      assert(hintMove.length > 0, 'the hint names no move');
      await expect(page.locator('[data-testid=board] [data-testid=arrow-hint]')).toBeVisible({ timeout: 15000 });
      await page.screenshot({ path: join(ARTIFACTS, 'hint-ai-game.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator('[data-testid=hint-text]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'hint-ai-game-phone.png') });
      await assertNoOverflow(page, 390);
      await page.setViewportSize({ width: 1280, height: 800 });
      // A few moves, then resign.
      let decisions = 0;
      while (decisions < 6) {
        if ((await waitMyTurnOrOver(page)) === 'over') break;
        await playOneDecision(page);
        decisions++;
      }
      await expect(page.locator('[data-testid=hint-text]'), 'the hint of an earlier position is still shown').toHaveCount(0);
      if (!(await status(page)).startsWith('Game over')) {
        await page.locator('button', { hasText: /^Resign$/ }).click();
        await page.locator('dialog[open] button[data-value=yes]').click();
      }
      await page.locator('dialog[open] button[data-value=replay]').click({ timeout: 30000 });
      await page.waitForURL(new RegExp(`/replay/${id}$`), { timeout: 15000 });
      await requestAnalysis(page);
      const marks = await page.locator('[data-testid=move-mark]').count();
      console.log(`     the AI game: ${decisions} decisions played, ${marks} marked`);
      if (marks) await clickFirstMark(page, 'ai-game');
      // A point of the graph is a way to a position as well.
      await page.locator('[data-testid=analysis-graph]').click({ position: { x: 40, y: 20 } });
      await expect(page.locator('[data-testid=replay-ply]', { hasText: /^Action [0-2] of / })).toBeVisible({ timeout: 15000 });
      await page.screenshot({ path: join(ARTIFACTS, 'analysis-ai-game-start.png'), fullPage: true });
      // The stored analysis is shown again after a reload, without asking.
      await page.reload();
      await waitAnalysed(page);
      await expect(page.locator('[data-testid=request-analysis]'), 'the request button shows for an analysed game').toHaveCount(0);
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function importedRecordMarks() {
    const record = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    const r = await post('/api/records', { record, public: false });
    assert(r.status === 201, `the record was not imported: ${r.status} ${JSON.stringify(r.data)}`);
    const page = await newPage('analysis-import');
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${base()}/replay/${r.data.id}`);
      await requestAnalysis(page);
      const marks = (await page.locator('[data-testid=move-mark]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-ply')}:${e.getAttribute('data-mark')}`))).join(' ');
      assert(marks === FIXTURE_MARKS, `the move list marks ${marks}, not ${FIXTURE_MARKS}`);
      // Each seat's counts: Gold two inaccuracies, Red one inaccuracy and one mistake.
      const counts = await page.locator('[data-testid=analysis-counts] tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td[data-mark]')].map((td) => td.textContent).join(',')));
      assert(counts.join(' ') === '2,0,0 1,1,0', `the counts are ${counts.join(' ')}`);
      // The mistake: the replay goes to the position before it, the engine's move is drawn.
      await page.locator('[data-testid=move-mark][data-ply="33"]').scrollIntoViewIfNeeded();
      const ply = await clickMark(page, 33, 'imported');
      const cells = await page.locator('[data-testid=replay-board] [data-testid=arrow-best]').first().getAttribute('data-cells');
      assert(cells === 'C6 D5', `the engine's move is drawn through ${cells}, not C6 D5`);
      assert((await page.locator('[data-testid=replay-board] [data-testid=arrow-played]').getAttribute('data-cells')) === 'C5 D4', 'the move played is not drawn through C5 D4');
      // The graph's dot of that mark leads to the same position, from elsewhere.
      await page.locator('[data-testid=replay-first]').click();
      await expect(page.locator('[data-testid=replay-ply]', { hasText: /^Action 0 of / })).toBeVisible({ timeout: 15000 });
      await page.locator(`[data-testid=graph-mark][data-ply="${ply}"]`).first().click();
      await expect(page.locator('[data-testid=replay-ply]', { hasText: new RegExp(`^Action ${ply} of `) })).toBeVisible({ timeout: 15000 });
      await expect(page.locator('[data-testid=replay-board] [data-testid=arrow-best]').first()).toBeVisible({ timeout: 15000 });
      await phoneShots(page, 'imported');
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function lessonHint() {
    const page = await newPage('lesson-hint');
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${base()}/learn/kyo/1`);
      await expect(page.locator('[data-testid=lesson-goal]')).toBeVisible({ timeout: 20000 });
      await page.locator('[data-testid=lesson-hint]').click();
      await page.locator('[data-testid=engine-hint]').click();
      await expect(page.locator('[data-testid=engine-hint-text]')).toBeVisible({ timeout: 120000 });
      const move = (await page.locator('[data-testid=engine-hint-move]').innerText()).trim();
      assert(move.length > 0, 'the engine\'s hint names no move');
      await expect(page.locator('[data-testid=board] [data-testid=arrow-hint]')).toBeVisible({ timeout: 15000 });
      await page.screenshot({ path: join(ARTIFACTS, 'hint-lesson.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(ARTIFACTS, 'hint-lesson-phone.png') });
      await assertNoOverflow(page, 390);
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function ratedGameHasNoHint() {
    const stamp = Date.now().toString(36);
    const accounts = [];
    for (const who of ['ra', 'rb']) {
      const r = await post('/api/account', { name: `${who}${stamp}`, password: 'correct horse battery' });
      assert(r.status === 201 && r.cookie, `sign-up failed: ${r.status} ${JSON.stringify(r.data)}`);
      accounts.push({ cookie: r.cookie.split(';')[0], csrf: r.data.csrf });
    }
    const auth = (a) => ({ cookie: a.cookie, 'x-csrf-token': a.csrf });
    const created = await post('/api/games', { game: 'kyo', seats: [{ kind: 'human' }, { kind: 'human' }], host_seat: 0, rated: true, public: false }, auth(accounts[0]));
    assert(created.status === 201, `the rated game was not created: ${created.status} ${JSON.stringify(created.data)}`);
    const { id, seats } = created.data;
    const joined = await post(`/api/games/${id}/join`, { seat: 1, token: seats[1].token }, auth(accounts[1]));
    assert(joined.status === 200, `the second account could not join: ${joined.status} ${JSON.stringify(joined.data)}`);
    // The server refuses a hint in a rated game, whoever asks.
    const refused = await post(`/api/games/${id}/hint`, { seat: 0, token: seats[0].token });
    assert(refused.status === 403, `a hint in a rated game answered ${refused.status}`);
    const page = await newPage('rated');
    try {
      await page.goto(`${base()}/`);
      await page.evaluate(([gid, token]) => localStorage.setItem(`tabula:seat:${gid}`, JSON.stringify([{ seat: 0, token }])), [id, seats[0].token]);
      await page.goto(`${base()}/game/${id}`);
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the rated game does not show the player\'s move');
      await expect(page.locator('[data-testid=board] [data-cell].target').first()).toBeVisible({ timeout: 15000 });
      await expect(page.locator('[data-testid=actions]')).toBeVisible({ timeout: 15000 });
      await expect(page.locator('[data-testid=hint], [data-testid=hint-box]'), 'a hint control shows in a rated game').toHaveCount(0);
      await page.screenshot({ path: join(ARTIFACTS, 'rated-no-hint.png'), fullPage: true });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  return async () => {
    test('analysis: a hint in a game against the AI, a few moves, resign, request the analysis (graph, counts, marks, the engine\'s move)', aiGameHintResignAnalyse);
    test('analysis: an imported record\'s inaccuracies and mistake marked, a mark and a graph dot show the engine\'s move on the board', importedRecordMarks);
    test('analysis: the engine\'s hint in a lesson', lessonHint);
    test('analysis: no hint control in a rated game (two accounts over the HTTP API)', ratedGameHasNoHint);
  };
}

analysisTests({ ...h, test })(GAMES);
