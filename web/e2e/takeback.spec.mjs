// Browser tests of takebacks (issue 22): against the AI in Kyo (move, take back, the board as it was,
// the AI moves again) and between two browser contexts (ask, decline, ask again, accept), each page
// looked at in screenshots at 1280x800 and 390x844. Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { join } from 'node:path';

function takebackTests({ test, newPage, base, assert, until, noConsoleErrors, ARTIFACTS, playOneDecision, waitMyTurnOrOver, state, moveCount }) {
  const shot = async (page, name) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, `takeback-${name}-1280x800.png`) });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, `takeback-${name}-390x844.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  /** The position as the board shows it: every cell's description (its tooltip names the stack). */
  async function position(page) {
    return page.locator('[data-testid=board] [data-cell] > title').allTextContents();
  }

  /** Plays this page's decisions until the turn passes (or the game ends). */
  async function playTurn(page) {
    for (let i = 0; i < 12; i++) {
      await playOneDecision(page);
      // The update settles: no action on its way.
      await page.waitForFunction(() => document.querySelector('[data-testid=status]')?.getAttribute('data-state') !== 'sent'
        && !document.querySelector('[data-testid=actions][data-pending="1"]'), null, { timeout: 20000, polling: 'raf' });
      if ((await state(page)) !== 'yours') return;
    }
    throw new Error('the turn did not pass after 12 decisions');
  }

  /** The number of actions of the AI seats in the game's log (the spectator's snapshot over HTTP). */
  async function aiActions(page) {
    const id = page.url().split('/game/')[1];
    const snap = await (await fetch(`${base()}/api/games/${id}`)).json();
    const ai = snap.seats.filter((x) => x.kind === 'ai').map((x) => x.seat);
    return snap.events.filter((e) => e.kind === 'action' && ai.includes(e.actor?.seat)).length;
  }

  /** Plays the player's turn against the AI until the AI has replied. */
  async function playTurnAgainstAi(page) {
    const replies = await aiActions(page);
    for (let i = 0; i < 12; i++) {
      await playOneDecision(page);
      // The AI replied, or this player's turn goes on (a Kyo turn may take several decisions).
      let replied = false;
      await until(async () => (replied = (await aiActions(page)) > replies) || (await state(page)) === 'yours', 'the AI\'s reply or the next decision', 30000);
      if (replied) {
        await waitMyTurnOrOver(page);
        return;
      }
    }
    throw new Error('the AI did not reply after 12 decisions');
  }

  async function againstTheAi() {
    const page = await newPage('takeback-ai');
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${base()}/?ai=1`);
      await page.locator('[data-testid=play-ai-kyo]').click();
      await page.waitForURL(/\/game\//, { timeout: 20000 });
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game against the AI is over before the first move');
      const button = page.locator('[data-testid=takeback]');
      await expect(button).toBeVisible({ timeout: 10000 });
      assert(await button.isDisabled(), 'Take back is enabled before the player has moved');
      const why = (await button.getAttribute('title')) ?? '';
      assert(/not moved yet/.test(why), `the disabled Take back does not say why: "${why}"`);
      assert((await button.textContent()) === 'Take back', `the button against the AI reads "${await button.textContent()}"`);

      const before = await position(page);
      const movesBefore = await moveCount(page);
      assert(before.length > 0, 'the board shows no cells');
      await playTurnAgainstAi(page);
      // The AI replies: the player is to move again, in a changed position.
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended after one move');
      const replied = await moveCount(page);
      assert(replied >= movesBefore + 2, `the move list did not grow by a move and a reply (${movesBefore} → ${replied})`);
      assert(JSON.stringify(await position(page)) !== JSON.stringify(before), 'the position did not change after a move and a reply');

      await until(() => button.isEnabled(), 'Take back to be enabled after the move');
      await button.click();
      await expect(page.locator('[data-testid=takeback-done]', { hasText: 'Your last move was taken back' })).toBeVisible({ timeout: 15000 });
      await until(async () => (await moveCount(page)) === movesBefore, `the move list back at ${movesBefore} moves`);
      await until(async () => JSON.stringify(await position(page)) === JSON.stringify(before), 'the board as it was before the move');
      assert((await state(page)) === 'yours', 'after the takeback it is not the player\'s move');
      await expect(page.locator('[data-testid=error]'), 'the takeback shows an error').toHaveCount(0);
      await shot(page, 'ai-restored');

      // Play again: the AI moves again.
      await playTurnAgainstAi(page);
      assert((await waitMyTurnOrOver(page)) === 'turn', 'the game ended after the move');
      assert((await moveCount(page)) >= movesBefore + 2, 'the AI did not move again after the takeback');
      await expect(page.locator('[data-testid=takeback-done]'), 'the takeback banner stays after the next move').toHaveCount(0);
      await noConsoleErrors(page);
    } finally {
      await page.context().close();
    }
  }

  async function betweenPeople() {
    const host = await newPage('takeback-host');
    const friend = await newPage('takeback-friend');
    try {
      await host.goto(`${base()}/`);
      const card = host.locator('[data-game="kyo"]');
      await card.locator('button', { hasText: 'Options & friends' }).click();
      await card.locator('select[data-seat="1"]').selectOption('friend');
      await card.locator('button', { hasText: 'Create game' }).click();
      await host.waitForURL(/\/game\//);
      const link = await host.locator('[data-testid=invites] input[data-join-seat="1"]').inputValue({ timeout: 15000 });
      await friend.goto(link);
      await friend.waitForURL(/\/game\//);
      await until(async () => (await state(host)) === 'yours' || (await state(friend)) === 'yours', 'a first move to be owed');
      const [asker, other] = (await state(host)) === 'yours' ? [host, friend] : [friend, host];
      const button = asker.locator('[data-testid=takeback]');
      assert((await button.textContent()) === 'Ask to take back', `the button between people reads "${await button.textContent()}"`);
      assert(await button.isDisabled(), 'Ask to take back is enabled before the player has moved');

      const before = await position(asker);
      const movesBefore = await moveCount(asker);
      await playTurn(asker);
      await until(async () => (await state(other)) === 'yours', 'the opponent\'s turn');
      const moved = await moveCount(other);
      assert(moved > movesBefore, 'the opponent does not see the move');

      // Ask; the opponent declines.
      await until(() => button.isEnabled(), 'Ask to take back to be enabled after the move');
      await button.click();
      await expect(asker.locator('[data-testid=takeback-offer]', { hasText: 'You ask to take back your last move' })).toBeVisible({ timeout: 15000 });
      const offer = other.locator('[data-testid=takeback-offer]');
      await expect(offer.filter({ hasText: 'Your opponent asks to take back their last move' })).toBeVisible({ timeout: 15000 });
      assert(await asker.locator('[data-testid=takeback]').isDisabled(), 'the asker can ask twice');
      await shot(other, 'asked');
      await other.locator('[data-testid=takeback-decline]').click();
      await expect(asker.locator('[data-testid=takeback-declined]', { hasText: 'Your opponent declined the takeback' })).toBeVisible({ timeout: 15000 });
      await expect(other.locator('[data-testid=takeback-offer]')).toHaveCount(0, { timeout: 15000 });
      assert((await moveCount(asker)) === moved, 'a declined takeback changed the moves');
      await shot(asker, 'declined');

      // Ask again; the opponent accepts: both see the position before the move.
      await until(() => asker.locator('[data-testid=takeback]').isEnabled(), 'Ask to take back to be enabled again');
      await asker.locator('[data-testid=takeback]').click();
      await other.locator('[data-testid=takeback-accept]').click({ timeout: 15000 });
      for (const p of [asker, other]) {
        await until(async () => (await moveCount(p)) === movesBefore, `the move list back at ${movesBefore} moves`);
        await until(async () => JSON.stringify(await position(p)) === JSON.stringify(before), 'the board as it was before the move');
      }
      await expect(asker.locator('[data-testid=takeback-done]', { hasText: 'Your last move was taken back' })).toBeVisible({ timeout: 15000 });
      await until(async () => (await state(asker)) === 'yours', 'the asker to move again');
      assert((await state(other)) !== 'yours', 'the opponent is to move after the takeback');
      await shot(asker, 'accepted');
      await shot(other, 'accepted-opponent');
      await noConsoleErrors(host, friend);
    } finally {
      await host.context().close();
      await friend.context().close();
    }
  }

  return async (games) => {
    if (!games.some((g) => g.id === 'kyo')) return;
    test('kyo: takeback against the AI, the board restored, the AI moves again', () => againstTheAi());
    test('kyo: takeback between two browsers, declined then accepted', () => betweenPeople());
  };
}

takebackTests({ ...h, test })(GAMES);
