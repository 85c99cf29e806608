// Browser tests of one gesture per move and of the move list (issue 38, points 1 and 2), at 1366x768
// and 390x844:
// - Kyo's stack reordering is a direct manipulation: the stack editor opens at the stack; a chip
//   dragged to its new place (desktop) or two chips tapped to swap (phone), "Done" sends exactly the
//   order arranged; an arrangement that is no listed reorder cannot be confirmed and says why;
// - a turn of many steps slides in at most ~1 s in all (the declared durations of the Web Animations
//   the page starts for it, recorded as they start);
// - the move list's numbers of 100 and more are not clipped;
// - the explanation of a refused click never covers the board's edge labels.
// Screenshots of each in the artifacts folder. Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { join } from 'node:path';
import { gestureApi } from './gesture-api.mjs';

const SIZES = [[1366, 768, 'desktop'], [390, 844, 'phone']];

function gestureTests({ test, newPage, base, assert, until, noConsoleErrors, ARTIFACTS, waitMyTurnOrOver, moveCount }) {
  const cell = (page, name) => page.locator(`[data-testid=board] [data-cell="${name}"]`).first();

  const { forTwo, snapOf, act, recordSent } = gestureApi({ base, until, assert });
  /** A Kyo game of two people (options as given). */
  const kyoForTwo = (options = {}) => forTwo('kyo', options);

  async function playVsAi(page, id) {
    await page.goto(`${base()}/?ai=1`);
    await page.locator(`[data-testid=play-ai-${id}]`).click();
    await page.waitForURL(/\/game\//, { timeout: 20000 });
    await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
  }

  /** The stack editor at `at`: on the screen, beside the stack, thumb-sized chips. */
  async function checkEditor(page, at, w, hgt) {
    const ed = page.locator('[data-testid=restack]');
    await page.waitForFunction(() => document.querySelector('[data-testid=restack]')?.classList.contains('placed'), null, { timeout: 10000 });
    const box = await ed.boundingBox();
    const stack = await cell(page, at).boundingBox();
    assert(box && box.x >= 0 && box.x + box.width <= w && box.y >= 0 && box.y + box.height <= hgt, `the stack editor is not on the screen (${w}x${hgt}): ${JSON.stringify(box)}`);
    const near = Math.min(Math.abs(box.y - (stack.y + stack.height)), Math.abs(box.y + box.height - stack.y));
    assert(near <= 8 && box.x < stack.x + stack.width && stack.x < box.x + box.width, `the stack editor is not at ${at}: ${JSON.stringify({ box, stack })}`);
    const chips = ed.locator('[data-testid=restack-chip]');
    assert((await chips.count()) === 3, `${await chips.count()} chips in the editor of ${at}`);
    for (let i = 0; i < 3; i++) {
      const b = await chips.nth(i).boundingBox();
      assert(b.height >= 40 && b.width >= 100, `a chip is ${b.width}x${b.height}px (not thumb-sized)`);
    }
    // Top first: the column reads as the stack stands.
    const places = await chips.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-place'))));
    assert(JSON.stringify(places) === '[2,1,0]', `the chips are not top first: ${JSON.stringify(places)}`);
  }

  const chip = (page, place) => page.locator(`[data-testid=restack] [data-testid=restack-chip][data-place="${place}"]`);
  const kinds = (page) => page.locator('[data-testid=restack] [data-testid=restack-chip]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')).reverse().join(''));

  /** Drags the chip at place `from` onto the chip at place `to` with the mouse. */
  async function drag(page, from, to) {
    const a = await chip(page, from).boundingBox();
    const b = await chip(page, to).boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
    await page.mouse.up();
  }

  async function restack() {
    const page = await newPage('gesture-restack');
    const sent = recordSent(page);
    try {
      await playVsAi(page, 'kyo');
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended before the first move');
      const gold = (await page.locator('[data-seat="0"]').textContent()).includes('(you)');
      const back = gold ? 0 : 9;
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended');
        // Desktop: the Heavy on B (Dark, Dark, Light); phone: the Heavy on C (Dark, Light, Light).
        const at = `${label === 'desktop' ? 'B' : 'C'}${back}`;
        const before = await moveCount(page);
        await cell(page, at).click({ force: true });
        await page.locator('[data-testid=select-bar] [data-testid=stack-ways]').click();
        await checkEditor(page, at, w, hgt);
        await expect(page.locator('[data-testid=chooser]'), 'a list of orders opened').toHaveCount(0);
        const done = page.locator('[data-testid=restack-done]');
        const why = page.locator('[data-testid=restack-why]');
        // Swapping the two bottom chips changes nothing: refused in words, Done disabled.
        if (label === 'desktop') {
          await chip(page, 0).click();
          await chip(page, 1).click();
          await expect(why).toHaveText('This is the order the stack has now: move a chip to change it.');
          assert(await done.isDisabled(), 'Done is enabled for an unchanged stack');
          await page.screenshot({ path: join(ARTIFACTS, `gesture-restack-refused-${label}.png`) });
          // Drag the top Light chip to the bottom: Light, Dark, Dark.
          await drag(page, 2, 0);
          await expect(why).toHaveText(/^Allowed: /);
          assert((await kinds(page)) === 'LDD', `arranged ${await kinds(page)}`);
        } else {
          // Tap the bottom Dark and the top Light: they swap (Light, Light, Dark).
          await chip(page, 0).click();
          await expect(chip(page, 0)).toHaveAttribute('aria-pressed', 'true');
          await chip(page, 2).click();
          await expect(why).toHaveText(/^Allowed: /);
          assert((await kinds(page)) === 'LLD', `arranged ${await kinds(page)}`);
        }
        const order = label === 'desktop' ? 'LDD' : 'LLD';
        await expect(done).toHaveAttribute('data-notation', `${at}~${order}`);
        assert(await done.isEnabled(), 'Done is disabled for a listed order');
        await page.screenshot({ path: join(ARTIFACTS, `gesture-restack-${label}.png`) });
        const n = sent.length;
        await done.click();
        await expect.poll(() => sent.length, { message: 'the reorder was not sent' }).toBeGreaterThan(n);
        assert(JSON.stringify(sent[n].action) === JSON.stringify({ shuffle: { at, order } }), `sent ${JSON.stringify(sent[n])}, arranged ${at}~${order}`);
        await page.waitForFunction((k) => document.querySelectorAll('[data-testid=moves] [data-testid=move-step]').length > k, before, { timeout: 20000 });
        await expect(page.locator('[data-testid=restack]')).toHaveCount(0);
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** Records the duration of every Web Animation the page starts (before any script of the page). */
  async function recordAnimations(page) {
    await page.addInitScript(() => {
      const orig = Element.prototype.animate;
      window.__slides = [];
      Element.prototype.animate = function (frames, opts) {
        const ms = typeof opts === 'number' ? opts : Number(opts?.duration ?? 0);
        window.__slides.push(ms);
        return orig.call(this, frames, opts);
      };
    });
  }

  const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));

  /** Red makes a step with a Light Pawn of row 6 (its turn passes to Gold). */
  async function redStep(id, red) {
    const s = await snapOf(id, red);
    const a = s.legal.find((l) => l.cells.length === 2 && /^[A-J]6$/.test(l.cells[0]) && /^[A-J]6-[A-J]5$/.test(l.notation));
    assert(a, `Red has no Light Pawn step: ${s.legal.slice(0, 10).map((l) => l.notation).join(' ')}`);
    await act(id, red, a.notation);
  }

  /** Gold's whole turn, each step sent once the page shows the one before. */
  async function goldTurn(page, id, gold, steps) {
    for (const n of steps) {
      const before = await moveCount(page);
      await act(id, gold, n);
      await page.waitForFunction((k) => document.querySelectorAll('[data-testid=moves] [data-testid=move-step]').length > k, before, { timeout: 20000 });
      await frames(page);
    }
    const s = await snapOf(id, gold);
    if (s.to_act && s.to_act.seat === 0) await act(id, gold, 'end');
  }

  /** Gold's Tower gathers five Shields over three turns, then deploys them one by one and steps: a
   * turn of six slides, watched from Red's page. */
  async function longTurn(w, hgt, label) {
    const page = await newPage(`gesture-anim-${label}`);
    try {
      await recordAnimations(page);
      await page.setViewportSize({ width: w, height: hgt });
      const g = await kyoForTwo();
      const [gold, red] = g.seats;
      await page.goto(`${base()}${red.join_url}`);
      await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
      // The King leaves its Shields on E0 and walks off; the Tower steps onto them.
      await goldTurn(page, g.id, gold, ['E0/3-D1']);
      await redStep(g.id, red);
      await goldTurn(page, g.id, gold, ['D1-C2']);
      await redStep(g.id, red);
      await goldTurn(page, g.id, gold, ['E1-E0']);
      await redStep(g.id, red);
      await page.waitForFunction(() => !document.querySelector('[data-testid=board] svg .moving'), null, { timeout: 10000 });
      const start = await page.evaluate(() => window.__slides.length);
      // The long turn: five deploys (to D1 and E1 in turn) and the Tower's step.
      await goldTurn(page, g.id, gold, ['E0*D1', 'E0*E1', 'E0*D1', 'E0*E1', 'E0*D1', 'E0-E1']);
      await page.waitForFunction(() => !document.querySelector('[data-testid=board] svg .moving'), null, { timeout: 10000 });
      const slides = await page.evaluate((k) => window.__slides.slice(k), start);
      const sum = slides.reduce((a, b) => a + b, 0);
      const lines = await page.locator('[data-testid=moves] [data-testid=move-line]').allInnerTexts();
      assert(/\(6 steps\)/.test(lines[lines.length - 1] ?? ''), `the long turn is not one line of six steps: ${JSON.stringify(lines.slice(-2))}`);
      assert(slides.length >= 2, `the long turn did not slide: ${JSON.stringify(slides)}`);
      assert(sum <= 1000, `the long turn's slides take ${sum} ms in all: ${JSON.stringify(slides)}`);
      assert(Number(await page.evaluate(() => document.documentElement.dataset.turnAnimMs)) === sum, 'the page\'s own account of the turn differs');
      await page.screenshot({ path: join(ARTIFACTS, `gesture-long-turn-${label}.png`) });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** A Kyo game of 100 turns and more, played over HTTP; the list's numbers from "100." on are whole. */
  async function longList() {
    let g = null;
    // Kyo's view counts the completed turns: one line of the move list each.
    const turnsOf = (s) => s.view.turns;
    for (let attempt = 0; attempt < 4 && !g; attempt++) {
      const made = await kyoForTwo();
      for (let k = 0; k < 400; k++) {
        const s0 = await snapOf(made.id, made.seats[0]);
        if (s0.result || !s0.to_act || turnsOf(s0) >= 102) break;
        const seat = made.seats[s0.to_act.seat];
        const s = s0.to_act.seat === 0 ? s0 : await snapOf(made.id, seat);
        // Direct moves end a turn at once; no captures, so the game goes on.
        const quiet = s.legal.filter((l) => /^[A-J]\d(\/\d)?-[A-J]\d$/.test(l.notation));
        const pool = quiet.length ? quiet : s.legal;
        await act(made.id, seat, pool[Math.floor(Math.random() * pool.length)].notation);
      }
      if (turnsOf(await snapOf(made.id, made.seats[0])) >= 100) g = made;
    }
    assert(g, 'no Kyo game reached 100 turns');
    const page = await newPage('gesture-list');
    try {
      await page.goto(`${base()}${g.seats[0].join_url}`);
      await expect(page.locator('[data-testid=moves] [data-testid=move-no]').nth(99)).toBeAttached({ timeout: 20000 });
      // The game may have ended (a draw after 100 quiet turns): its dialog closed, the list in view.
      if ((await snapOf(g.id, g.seats[0])).result) {
        await expect(page.locator('dialog[open] [data-testid=result]')).toBeVisible({ timeout: 20000 });
        await page.locator('dialog[open] button[data-value=close]').first().click();
      }
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        const no = page.locator('[data-testid=moves] [data-testid=move-no]', { hasText: /^100\.$/ }).first();
        await no.scrollIntoViewIfNeeded();
        const clipped = await page.evaluate(() => {
          const list = document.querySelector('[data-testid=moves]').getBoundingClientRect();
          return [...document.querySelectorAll('[data-testid=moves] [data-testid=move-no]')].filter((e) => {
            const r = e.getBoundingClientRect();
            return e.scrollWidth > e.clientWidth || r.left < list.left - 0.5 || r.right > list.right + 0.5;
          }).map((e) => e.textContent);
        });
        assert(clipped.length === 0, `clipped move numbers: ${clipped.slice(0, 5).join(' ')}`);
        const text = (await no.innerText()).trim();
        assert(text === '100.', `the number reads "${text}"`);
        await page.locator('[data-testid=moves]').screenshot({ path: join(ARTIFACTS, `gesture-move-numbers-${label}.png`) });
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** The explanation of a refused click stays clear of every edge label of the board. */
  async function explainClear() {
    const page = await newPage('gesture-explain');
    try {
      await playVsAi(page, 'kyo');
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended before the first move');
      const gold = (await page.locator('[data-seat="0"]').textContent()).includes('(you)');
      const [row, ahead] = gold ? [3, 5] : [6, 4];
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        await cell(page, `B${row}`).click({ force: true });
        await cell(page, `B${ahead}`).click({ force: true });
        const why = page.locator('[data-testid=explain]');
        await expect(why).toBeVisible({ timeout: 20000 });
        await why.scrollIntoViewIfNeeded();
        const hits = await page.evaluate(() => {
          const e = document.querySelector('[data-testid=explain]').getBoundingClientRect();
          const labels = [...document.querySelectorAll('[data-testid=board] svg.board .edge-label')];
          const over = labels.filter((l) => {
            const r = l.getBoundingClientRect();
            return r.left < e.right && e.left < r.right && r.top < e.bottom && e.top < r.bottom;
          }).map((l) => l.textContent);
          return { n: labels.length, over };
        });
        assert(hits.n === 20, `${hits.n} edge labels found on the board`);
        assert(hits.over.length === 0, `the explanation covers the edge labels ${hits.over.join(' ')}`);
        await page.screenshot({ path: join(ARTIFACTS, `gesture-explain-${label}.png`) });
        await cell(page, `B${row}`).click({ force: true });
        await expect(why).toHaveCount(0, { timeout: 10000 });
        await page.locator('[data-testid=select-bar] button', { hasText: 'Cancel' }).click().catch(() => undefined);
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  return async (games) => {
    if (!games.some((g) => g.id === 'kyo')) return;
    test('kyo: a stack is reordered in the stack editor at the stack — drag or tap two chips, Done sends the order arranged (desktop and phone)', () => restack());
    for (const [w, hgt, label] of SIZES) {
      test(`kyo: a turn of six steps slides in at most 1 s in all (${label})`, () => longTurn(w, hgt, label));
    }
    test('kyo: the move list\'s numbers of 100 and more are not clipped (desktop and phone)', () => longList());
    test('kyo: the explanation of a refused click never covers the board\'s edge labels (desktop and phone)', () => explainClear());
  };
}

gestureTests({ ...h, test })(GAMES);
