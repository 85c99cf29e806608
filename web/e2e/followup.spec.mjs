// Browser tests of one gesture per move where the engine splits a move in two (issue 38, point 1's
// "same principle for every game's choices"), at 1366x768 and 390x844: the click, click makes the
// common second half at once — Cyvasse Trump's horse ends the turn after its first leg (one decision,
// not two), Syba's army goes with every unit (the selection, opened with all of them chosen, is
// confirmed by the page) — and "Other ways…" before the target leaves that choice to the player (the
// second leg; which units are held back). Screenshots in the artifacts folder.

import { h, test, expect, GAMES } from './harness.mjs';
import { join } from 'node:path';
import { gestureApi } from './gesture-api.mjs';
import { territoriesToPayment } from './territories-drive.mjs';

const SIZES = [[1366, 768, 'desktop'], [390, 844, 'phone']];

function followUpTests({ test, newPage, base, assert, until, noConsoleErrors, ARTIFACTS, waitMyTurnOrOver, moveCount }) {
  const cell = (page, name) => page.locator(`[data-testid=board] [data-cell="${name}"]`).first();
  const { forTwo, snapOf, act, recordSent } = gestureApi({ base, until, assert });

  /** A Cyvasse Trump game of two people, set up over HTTP (a preset army each, the coin flip), with
   * North's moves made over HTTP until South (the browser's seat) is to move. */
  async function trumpForTwo() {
    const g = await forTwo('cyvasse-trump');
    for (let k = 0; k < 12; k++) {
      const s = await snapOf(g.id, g.seats[0]);
      if (s.view?.phase === 'play' || s.view?.phase?.play !== undefined) break;
      for (const seat of g.seats) {
        const own = await snapOf(g.id, seat);
        const pick = own.legal.find((a) => /^setup preset=/.test(a.notation)) ?? own.legal.find((a) => /^first South$/.test(a.notation)) ?? own.legal.find((a) => /^first/.test(a.notation));
        if (pick) await act(g.id, seat, pick.notation);
      }
    }
    return g;
  }

  /** North moves a piece that is no horse (its turn ends) when North is to move. */
  async function northQuiet(g) {
    const s = await snapOf(g.id, g.seats[1]);
    if (!s.legal.length) return;
    const board = s.view.board;
    const a = s.legal.find((l) => l.cells.length === 2 && !['l', 'h'].includes(board[l.cells[0]]) && /^[a-z]\d+-[a-z]\d+$/.test(l.notation));
    assert(a, `North has no quiet move: ${s.legal.slice(0, 8).map((l) => l.notation).join(' ')}`);
    await act(g.id, g.seats[1], a.notation);
  }

  /** South's horse moves with a click, click: the first leg and, at once, the end of the turn (the
   * direct move); on the phone "Other ways…" keeps the turn open for the second leg. */
  async function trumpHorse() {
    const g = await trumpForTwo();
    const page = await newPage('gesture-trump');
    const sent = recordSent(page);
    try {
      await page.goto(`${base()}${g.seats[0].join_url}`);
      await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
      for (const [w, hgt, label] of SIZES) {
        await page.setViewportSize({ width: w, height: hgt });
        await northQuiet(g);
        assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended');
        const s = await snapOf(g.id, g.seats[0]);
        // A horse's first leg onto an empty cell (a capture may end the turn by itself).
        const leg = s.legal.find((l) => l.cells.length === 2 && ['L', 'H'].includes(s.view.board[l.cells[0]]) && !s.view.board[l.cells[1]]);
        assert(leg, 'South has no horse move');
        const [from, to] = leg.cells;
        const n = sent.length;
        const before = await moveCount(page);
        await cell(page, from).click({ force: true });
        if (label === 'phone') await page.locator('[data-testid=other-ways]').click();
        await cell(page, to).click({ force: true });
        await page.waitForFunction((k) => document.querySelectorAll('[data-testid=moves] [data-testid=move-step]').length > k, before, { timeout: 20000 });
        await expect(page.locator('[data-testid=chooser]'), 'a chooser opened for a horse move').toHaveCount(0);
        if (label === 'desktop') {
          // The leg, then at once the end of the turn: North is to move, nothing was asked.
          await expect.poll(() => sent.length, { message: 'the end of the turn was not sent' }).toBe(n + 2);
          await expect(page.locator('[data-testid=status]')).not.toHaveAttribute('data-state', 'yours', { timeout: 20000 });
          const after = await snapOf(g.id, g.seats[0]);
          const mine = after.events.filter((e) => e.kind === 'action' && e.actor?.seat === 0).slice(-2).map((e) => e.notation);
          assert(mine[0] === leg.notation && mine[1] === 'end', `South's last actions: ${JSON.stringify(mine)}`);
          await page.screenshot({ path: join(ARTIFACTS, `gesture-trump-horse-${label}.png`) });
        } else {
          // "Other ways…": the leg alone; the second leg and "end" are offered.
          await expect(page.locator('[data-testid=status]')).toHaveAttribute('data-state', 'yours', { timeout: 20000 });
          await expect.poll(() => sent.length - n, { message: 'the actions sent for one leg' }).toBe(1);
          const end = page.locator('[data-testid=actions] button[data-notation=end]');
          await expect(end).toBeVisible({ timeout: 10000 });
          await page.screenshot({ path: join(ARTIFACTS, `gesture-trump-horse-other-ways-${label}.png`) });
          await end.click();
          await expect(page.locator('[data-testid=status]')).not.toHaveAttribute('data-state', 'yours', { timeout: 20000 });
        }
      }
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** A Syba game of two people set up over HTTP (each decision: the first listed), until the first
   * seat (the browser's) may move an army; returns the game and that army move. */
  async function sybaArmyReady() {
    const g = await forTwo('syba', { players: 2 });
    for (let k = 0; k < 60; k++) {
      const s0 = await snapOf(g.id, g.seats[0]);
      // An army whose area is not itself a target (a click there would open a chooser first).
      const armies = s0.legal.filter((a) => /^army \S+ \S+$/.test(a.notation) && a.cells.length === 2);
      const army = armies.find((a) => !s0.legal.some((l) => l.cells.length === 1 && l.cells[0] === a.cells[0])) ?? armies[0];
      if (army && s0.view.state.phase === 'play') return { g, army };
      const seat = s0.legal.length ? g.seats[0] : g.seats[1];
      const s = seat.seat === 0 ? s0 : await snapOf(g.id, seat);
      assert(s.legal.length, 'nobody is to decide');
      // Before play: the first listed choice; in play, the other seat ends its turn at once.
      const pick = s.view.state.phase === 'play' ? (s.legal.find((a) => a.notation === 'end') ?? s.legal.find((a) => a.notation === 'pass') ?? s.legal[0]) : s.legal[0];
      await act(g.id, seat, pick.notation);
    }
    throw new Error('the first seat never had an army to move');
  }

  /** Syba: an army moved with a click on its area and one on the next: every unit goes at once (the
   * selection, opened with all of them chosen, is confirmed by the page); no decision is left. On the
   * phone, "Other ways…" before the target leaves the selection open: units may be held back, then
   * "confirm". */
  async function sybaArmy(w, hgt, label) {
    const { g, army } = await sybaArmyReady();
    const page = await newPage(`gesture-syba-${label}`);
    const sent = recordSent(page);
    try {
      await page.setViewportSize({ width: w, height: hgt });
      await page.goto(`${base()}${g.seats[0].join_url}`);
      await expect(page.locator('[data-testid=status][data-state=yours]')).toBeVisible({ timeout: 20000 });
      const [from, to] = army.cells;
      // Units are drawn over their area: the press goes to the area's own shape.
      const area = (name) => page.locator(`[data-testid=board] [data-cell="${name}"]`).first();
      await area(from).dispatchEvent('pointerdown', { button: 0 });
      await expect(area(to)).toHaveClass(/target/);
      if (label === 'phone') {
        // A click on an area that is also an action's target offers those at the area: not this move.
        if (await page.locator('[data-testid=chooser]').count()) await page.locator('[data-testid=chooser] button.close').click();
        await page.locator('[data-testid=other-ways]').click();
        await expect(page.locator('[data-testid=other-ways]')).toHaveAttribute('aria-pressed', 'true');
      }
      await area(to).dispatchEvent('pointerdown', { button: 0 });
      if (label === 'phone') {
        // The selection stays for the player: the move alone was sent; confirm is one click away.
        const confirm = page.locator('[data-testid=actions] button[data-notation=confirm]');
        await expect(confirm).toBeVisible({ timeout: 20000 });
        await expect.poll(() => sent.length, { message: 'the actions sent for the move alone' }).toBe(1);
        await page.screenshot({ path: join(ARTIFACTS, `gesture-syba-army-other-ways-${label}.png`) });
        await confirm.click();
      }
      await expect.poll(() => sent.length, { message: 'the army move and its confirmation were not both sent' }).toBe(2);
      assert(JSON.stringify(sent[0].action) === JSON.stringify(army.action), `sent first: ${JSON.stringify(sent[0])}`);
      // No selection is left open: the units moved.
      await expect.poll(async () => (await snapOf(g.id, g.seats[0])).view.state.stack.some((p) => 'select' in p), { message: 'a selection is still open' }).toBe(false);
      const after = await snapOf(g.id, g.seats[0]);
      const mine = after.events.filter((e) => e.kind === 'action' && e.actor?.seat === 0).slice(-2).map((e) => e.notation);
      assert(mine[0] === army.notation && mine[1] === 'confirm', `the last actions: ${JSON.stringify(mine)}`);
      await expect(page.locator('[data-testid=chooser]')).toHaveCount(0);
      await page.screenshot({ path: join(ARTIFACTS, `gesture-syba-army-${label}.png`) });
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  /** The payment the page should make at once: a resource at a time from the suit held most (ties:
   * ♥ ♠ ♣ ♦, the engine's order), worked out here from the counts the seat sees. */
  function expectedPayment(held, left) {
    const counts = [...held];
    const out = [];
    for (let i = 0; i < left && counts.some((n) => n > 0); i++) {
      const j = counts.indexOf(Math.max(...counts));
      counts[j] -= 1;
      out.push(`pay ${'HSCD'[j]}`);
    }
    return out;
  }

  /** Territories: the payment for Survey or Expand is one large button (the common payment, in
   * words), the per-suit buttons one step away behind "Other ways…"; one click pays it all. Then the
   * card for the chosen cell is asked in the box at that cell, on the screen. */
  async function territoriesPay(w, hgt, label) {
    const api = gestureApi({ base, until, assert });
    const g = await territoriesToPayment(api);
    assert(g, 'the first seat never had to pay for Survey or Expand');
    const s = await snapOf(g.id, g.seats[0]);
    const { left } = s.view.phase;
    const plan = expectedPayment(s.view.hands[0].resources, left);
    const page = await newPage(`gesture-territories-${label}`);
    const sent = recordSent(page);
    try {
      await page.setViewportSize({ width: w, height: hgt });
      await page.goto(`${base()}${g.seats[0].join_url}`);
      await expect(page.locator('[data-testid=status][data-state=yours]')).toBeVisible({ timeout: 20000 });
      const common = page.locator('[data-testid=actions] [data-testid=common-action]');
      await expect(common, 'no common payment is offered').toBeVisible({ timeout: 20000 });
      await expect(common).toContainText(`Pay ${left}:`);
      // The other ways to pay are one step away, folded.
      await expect(page.locator('[data-testid=common-others] button[data-notation^="pay "]').first()).toBeHidden();
      await common.scrollIntoViewIfNeeded();
      const box = await common.boundingBox();
      assert(box && box.height >= 40 && box.x >= 0 && box.x + box.width <= w, `the button is not thumb-sized on screen: ${JSON.stringify(box)}`);
      await page.screenshot({ path: join(ARTIFACTS, `gesture-territories-pay-${label}.png`) });
      await common.click();
      // One click: the page sends the whole payment, each from the list the server sent then.
      await expect.poll(async () => (await snapOf(g.id, g.seats[0])).view.phase.phase, { message: 'the payment did not end', timeout: 30000 }).not.toBe('pay');
      const after = await snapOf(g.id, g.seats[0]);
      const pays = after.events.filter((e) => e.kind === 'action' && e.actor?.seat === 0).slice(-left).map((e) => e.notation);
      assert(JSON.stringify(pays) === JSON.stringify(plan), `paid ${JSON.stringify(pays)}, expected ${JSON.stringify(plan)}`);
      // Frames reach the test through the browser's protocol, possibly after the server applied them.
      await expect.poll(() => sent.length, { message: `the actions the page sent for a payment of ${left}`, timeout: 10000 }).toBe(left);
      // Survey or Expand: the card for a cell is chosen in the box at that cell, on the screen.
      const place = after.legal.filter((a) => /^(survey|expand) /.test(a.notation));
      assert(place.length, `nothing to place after paying: ${after.legal.map((a) => a.notation).join(' ')}`);
      const at = place[place.length - 1].cells[0];
      // The page has the last payment's answer (a click while an action is on its way does nothing).
      await expect(page.locator('[data-testid=status]')).toHaveAttribute('data-state', 'yours', { timeout: 20000 });
      await expect(cell(page, at)).toHaveClass(/target/, { timeout: 20000 });
      await cell(page, at).scrollIntoViewIfNeeded();
      await cell(page, at).click({ force: true });
      if (place.filter((a) => a.cells[0] === at).length > 1) {
        const pop = page.locator('[data-testid=chooser]');
        await expect(pop).toBeVisible();
        await expect(pop).toHaveAttribute('data-cell-at', at);
        await expect(pop).toHaveClass(/placed/);
        const pb = await pop.boundingBox();
        assert(pb && pb.x >= 0 && pb.x + pb.width <= w && pb.y >= 0 && pb.y + pb.height <= hgt, `the box is off the screen: ${JSON.stringify(pb)}`);
        const choice = pop.locator('button.choice').first();
        assert(((await choice.boundingBox())?.height ?? 0) >= 40, 'the choice is smaller than a thumb');
        await page.screenshot({ path: join(ARTIFACTS, `gesture-territories-card-${label}.png`) });
        await choice.click();
      }
      await expect.poll(async () => (await snapOf(g.id, g.seats[0])).view.phase.phase, { message: 'the card was not placed', timeout: 20000 }).toBe('main');
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  return async (games) => {
    if (games.some((g) => g.id === 'territories')) {
      for (const [w, hgt, label] of SIZES) {
        test(`territories: the payment for Survey/Expand is one button (the suits held most), the rest behind "Other ways…"; the card asked at the cell (${label})`, () => territoriesPay(w, hgt, label));
      }
    }
    if (games.some((g) => g.id === 'cyvasse-trump')) {
      test('cyvasse-trump: a horse\'s click, click is the direct move (the turn ends at once); "Other ways…" keeps the second leg (desktop and phone)', () => trumpHorse());
    }
    if (games.some((g) => g.id === 'syba')) {
      for (const [w, hgt, label] of SIZES) {
        test(`syba: an army moved by click, click goes with every unit at once; "Other ways…" leaves the choice of units (${label})`, () => sybaArmy(w, hgt, label));
      }
    }
  };
}

followUpTests({ ...h, test })(GAMES);
