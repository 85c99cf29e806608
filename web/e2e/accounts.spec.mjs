// Browser tests of accounts (issue 24): sign up, sign in and out, the server's messages (a wrong
// password, a taken name, too many attempts), an anonymous seat claimed into the account after signing up, a rated game
// between two browser contexts created and joined from the lobby and ended by resignation, both
// profiles updated (ratings, charts, the game), My games and the tab title counting the games that
// await a move, leaderboards, account settings (password change, deletion), and the pages at phone
// size. Its helpers come from harness.mjs.

import { h, test, expect, GAMES, signUp } from './harness.mjs';
import { join } from 'node:path';

function accountTests({ test, newPage, base, assert, noConsoleErrors, assertNoOverflow, ARTIFACTS }) {
  const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `accounts-${name}.png`), fullPage: true });

  async function signInForm(page, name, password) {
    await page.goto(`${base()}/signin`);
    await page.locator('[data-testid=signin-form] input[name=name]').fill(name);
    await page.locator('[data-testid=signin-form] input[name=password]').fill(password);
    await page.locator('[data-testid=signin-form] button[type=submit]').click();
  }

  /** A failing request logs "Failed to load resource" in the console: expected while `fn` runs. */
  async function expectingRefusal(page, fn) {
    page.allowNetworkErrors = true;
    try {
      await fn();
    } finally {
      page.allowNetworkErrors = false;
    }
  }

  /** The profile's rating of `game` (from the page), or null. */
  async function shownRatingOf(page, name, game) {
    await page.goto(`${base()}/@/${name}`);
    await expect(page.locator('[data-testid=profile]')).toBeVisible({ timeout: 15000 });
    const r = page.locator(`[data-testid=rating][data-game="${game}"]`);
    if (!(await r.count())) return null;
    return Number(await r.getAttribute('data-rating'));
  }

  /** My games, as the page shows it: the game's line and whether it awaits this player's move. */
  async function myGame(page, id) {
    await page.goto(`${base()}/me`);
    const li = page.locator(`[data-testid=my-games] li[data-id="${id}"]`);
    await expect(li).toBeVisible({ timeout: 15000 });
    return (await li.getAttribute('data-your-turn')) === '1';
  }

  return async (games) => {
    const kyo = games.find((g) => g.id === 'kyo') ?? games[0];
    if (!kyo) return;

    test('accounts: sign up, sign out, a wrong password, sign in; an anonymous seat claimed into the account; settings; deletion', async () => {
      const page = await newPage('carol');
      try {
        // An anonymous game against the AI first: its seat is this browser's only.
        await page.goto(`${base()}/`);
        await page.locator(`[data-testid=play-ai-${kyo.id}]`).click();
        await page.waitForURL(/\/game\//, { timeout: 15000 });
        const anon = page.url().split('/game/')[1];
        await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 15000 });
        await page.goto(`${base()}/signin`);
        await shot(page, 'signin');
        await signUp(page, 'carol', 'carol-secret-1');
        // Signing up claimed the anonymous seat: My games lists it.
        await myGame(page, anon);
        await shot(page, 'my-games-claimed');
        // A taken name (in any case) is refused with the server's message, from another browser.
        const other = await newPage('carol-twin');
        try {
          await expectingRefusal(other, async () => {
            await other.goto(`${base()}/signup`);
            await other.locator('[data-testid=signup-form] input[name=name]').fill('CAROL');
            await other.locator('[data-testid=signup-form] input[name=password]').fill('another-secret');
            await other.locator('[data-testid=signup-form] button[type=submit]').click();
            await expect(other.locator('[data-testid=account-error]', { hasText: 'taken' })).toBeVisible({ timeout: 15000 });
          });
          await expect(other.locator('[data-testid=sign-in]'), 'a refused sign-up signed in').toHaveCount(1);
          await noConsoleErrors(other);
        } finally {
          await other.context().close();
        }
        // Sign out from the top bar, then a wrong password, then the right one.
        await page.locator('[data-testid=top-sign-out]').click();
        await expect(page.locator('[data-testid=sign-in]')).toBeVisible({ timeout: 15000 });
        await expectingRefusal(page, async () => {
          await signInForm(page, 'carol', 'not-the-password');
          await expect(page.locator('[data-testid=account-error]', { hasText: 'wrong name or password' })).toBeVisible({ timeout: 15000 });
        });
        await shot(page, 'signin-wrong-password');
        await signInForm(page, 'Carol', 'carol-secret-1');
        await page.waitForURL(/\/me$/, { timeout: 15000 });
        await expect(page.locator('[data-testid=me]', { hasText: 'carol' })).toBeVisible({ timeout: 15000 });
        await myGame(page, anon);
        // A reload keeps the session (the page asks the server who is signed in).
        await page.reload();
        await expect(page.locator('[data-testid=me]', { hasText: 'carol' })).toBeVisible({ timeout: 15000 });
        // Settings: a wrong current password is refused; the right one changes it.
        await page.locator('a', { hasText: 'Account' }).first().click();
        await page.waitForURL(/\/account$/, { timeout: 15000 });
        await expectingRefusal(page, async () => {
          await page.locator('[data-testid=password-form] input[name=current]').fill('nope-nope-nope');
          await page.locator('[data-testid=password-form] input[name=new]').fill('carol-secret-2');
          await page.locator('[data-testid=password-form] button[type=submit]').click();
          await expect(page.locator('[data-testid=password-message].error')).toBeVisible({ timeout: 15000 });
        });
        await page.locator('[data-testid=password-form] input[name=current]').fill('carol-secret-1');
        await page.locator('[data-testid=password-form] input[name=new]').fill('carol-secret-2');
        await page.locator('[data-testid=password-form] button[type=submit]').click();
        await expect(page.locator('[data-testid=password-message]', { hasText: 'Password changed' })).toBeVisible({ timeout: 15000 });
        await shot(page, 'settings');
        await page.setViewportSize({ width: 390, height: 844 });
        await shot(page, 'settings-phone');
        await assertNoOverflow(page, 390);
        await page.setViewportSize({ width: 1280, height: 800 });
        // Delete the account: asked to confirm; cancelling keeps it.
        await page.locator('[data-testid=delete-form] input[name=password]').fill('carol-secret-2');
        await page.locator('[data-testid=delete-form] button[type=submit]').click();
        await page.locator('dialog[open] button[data-value=no]').click();
        await expect(page.locator('[data-testid=me]'), 'cancelling the deletion signed out').toHaveCount(1);
        await page.locator('[data-testid=delete-form] button[type=submit]').click();
        await page.locator('dialog[open] button[data-value=yes]').click();
        await expect(page.locator('[data-testid=sign-in]')).toBeVisible({ timeout: 15000 });
        await expectingRefusal(page, async () => {
          // Five password checks of this name so far (a wrong and a right sign-in, a wrong and a right
          // password change, the deletion): the sixth within a minute is refused as too many.
          await signInForm(page, 'carol', 'carol-secret-2');
          await expect(page.locator('[data-testid=account-error]:not(:empty)')).toBeVisible({ timeout: 15000 });
          const said = await page.locator('[data-testid=account-error]').textContent();
          assert(said.includes('too many sign-in attempts'), `the sixth sign-in attempt says: ${said}`);
          await shot(page, 'signin-too-many');
          await page.goto(`${base()}/@/carol`);
          await expect(page.locator('[data-testid=not-found]')).toBeVisible({ timeout: 15000 });
        });
        await noConsoleErrors(page);
      } finally {
        await page.context().close();
      }
    });

    test(`accounts: a rated ${kyo.id} game between two browsers, from the lobby to resignation; profiles, my games and the tab title, leaderboard, phone size`, async () => {
      const alice = await newPage('alice');
      const bob = await newPage('bob');
      try {
        await signUp(alice, 'alice', 'alice-secret-1');
        await signUp(bob, 'bob', 'bob-secret-1');
        // Alice offers a rated game with an open seat; "Rated" is offered only without AI seats.
        await alice.goto(`${base()}/`);
        const card = alice.locator(`[data-game="${kyo.id}"]`);
        await card.locator('button', { hasText: 'Options & friends' }).click();
        assert(await card.locator('[data-testid=rated]').isDisabled(), 'a game with an AI seat may be rated');
        assert(/AI/.test(await card.locator('[data-testid=rated-why]').textContent()), 'the form does not say why the game cannot be rated');
        assert(!(await card.locator('input[name=rating_min]').isVisible()), 'the rating range is offered for a casual game');
        await card.locator('select[data-seat="1"]').selectOption('open');
        await card.locator('[data-testid=rated]').check();
        await expect(card.locator('input[name=rating_min]')).toBeVisible({ timeout: 5000 });
        await card.locator('input[name=rating_min]').fill('1200');
        await card.locator('input[name=rating_max]').fill('1800');
        await shot(alice, 'create-rated');
        await card.locator('button', { hasText: 'Create game' }).click();
        await alice.waitForURL(/\/game\//, { timeout: 15000 });
        const id = alice.url().split('/game/')[1];
        await expect(alice.locator('[data-testid=rated]')).toBeVisible({ timeout: 15000 });
        // Bob sees it in the lobby with Alice's name and rating, and joins.
        await bob.goto(`${base()}/`);
        const line = bob.locator(`li[data-id="${id}"]`);
        await expect(line).toBeVisible({ timeout: 15000 });
        assert((await line.locator('[data-testid=lobby-player]').textContent()) === 'alice', 'the lobby does not name the creator');
        assert(/unrated|1500/.test(await line.textContent()), `the lobby does not show the creator's rating: ${await line.textContent()}`);
        assert((await line.locator('[data-testid=lobby-rated]').textContent()).startsWith('Rated 1200–1800'), 'the lobby does not say the game is rated, with its range');
        await shot(bob, 'lobby-rated');
        await line.locator('button', { hasText: 'Join as' }).click();
        await bob.waitForURL(new RegExp(`/game/${id}$`), { timeout: 15000 });
        for (const p of [alice, bob]) {
          await expect(p.locator('[data-testid=status]:not([data-state=waiting])')).toBeVisible({ timeout: 15000 });
        }
        await expect(bob.locator('[data-testid=rated]')).toBeVisible({ timeout: 15000 });
        await shot(bob, 'game-rated');
        // My games: exactly one of them awaits a move; that one's top bar and tab title count it.
        const aliceTurn = await myGame(alice, id);
        const bobTurn = await myGame(bob, id);
        assert(aliceTurn !== bobTurn, `both or neither await a move (alice ${aliceTurn}, bob ${bobTurn})`);
        const [waiting, other] = aliceTurn ? [alice, bob] : [bob, alice];
        await expect(waiting.locator('[data-testid=awaiting-count]', { hasText: '1' })).toBeVisible({ timeout: 15000 });
        await waiting.waitForFunction(() => document.title === '(1) Tabula', null, { timeout: 15000 });
        assert((await waiting.locator('[data-testid=awaiting]').textContent()).startsWith('1 game awaits'), 'My games does not count the game awaiting a move');
        await expect(other.locator('[data-testid=awaiting-count]'), 'the player not to move is counted a game').toHaveCount(0);
        assert((await other.title()) === 'Tabula', `the tab title of the player not to move is ${await other.title()}`);
        await shot(waiting, 'my-games');
        await waiting.setViewportSize({ width: 390, height: 844 });
        await shot(waiting, 'my-games-phone');
        await assertNoOverflow(waiting, 390);
        await waiting.setViewportSize({ width: 1280, height: 800 });
        // From My games to the game, then Bob resigns.
        await bob.goto(`${base()}/me`);
        await bob.locator(`[data-testid=my-games] li[data-id="${id}"] a[data-testid=game-link]`).click();
        await bob.waitForURL(new RegExp(`/game/${id}$`), { timeout: 15000 });
        await bob.locator('button', { hasText: 'Resign' }).click({ timeout: 15000 });
        await bob.locator('dialog[open] button[data-value=yes]').click();
        await alice.goto(`${base()}/game/${id}`);
        for (const p of [alice, bob]) {
          await expect(p.locator('[data-testid=status][data-state=over]')).toBeVisible({ timeout: 20000 });
          for (const d of await p.locator('dialog[open] button[data-value=close]').all()) await d.click();
        }
        // Both profiles changed: the winner gained, the loser lost, the game is listed, a chart drawn.
        const a = await shownRatingOf(alice, 'alice', kyo.id);
        const b = await shownRatingOf(bob, 'bob', kyo.id);
        assert(a !== null && a > 1500, `alice's rating is ${a}`);
        assert(b !== null && b < 1500, `bob's rating is ${b}`);
        for (const [p, result] of [[alice, 'Won'], [bob, 'Lost']]) {
          const finished = p.locator(`[data-testid=finished] li[data-id="${id}"]`);
          assert((await finished.textContent()).includes(result), `the profile lists the game without "${result}"`);
          await expect(p.locator(`[data-testid=rating][data-game="${kyo.id}"] svg.rating-chart circle`), 'the rating chart does not show the start and the game').toHaveCount(2);
        }
        assert((await alice.locator('[data-testid=results]').textContent()).startsWith('1 won'), 'alice is not counted a win');
        // The other's profile shows the same (public) numbers, and the game links to its replay.
        await alice.goto(`${base()}/@/bob`);
        await expect(alice.locator(`[data-testid=rating][data-game="${kyo.id}"][data-rating="${b.toFixed(1)}"]`)).toBeVisible({ timeout: 15000 });
        await shot(alice, 'profile');
        await alice.setViewportSize({ width: 390, height: 844 });
        await shot(alice, 'profile-phone');
        await assertNoOverflow(alice, 390);
        await alice.setViewportSize({ width: 1280, height: 800 });
        await alice.locator(`[data-testid=finished] li[data-id="${id}"] a[data-testid=game-link]`).click();
        await alice.waitForURL(new RegExp(`/replay/${id}$`), { timeout: 15000 });
        await expect(alice.locator('[data-testid=replay-ply]')).toBeVisible({ timeout: 15000 });
        // After one game nobody's RD is under 110: the leaderboard lists both, provisional.
        await alice.locator('header a', { hasText: 'Leaderboards' }).click();
        await alice.waitForURL(/\/leaderboard$/, { timeout: 15000 });
        await alice.goto(`${base()}/leaderboard/${kyo.id}`);
        await expect(alice.locator('[data-testid=leaderboard] tbody tr[data-provisional="1"]')).toHaveCount(2, { timeout: 15000 });
        await shot(alice, 'leaderboard');
        await alice.setViewportSize({ width: 390, height: 844 });
        await shot(alice, 'leaderboard-phone');
        await assertNoOverflow(alice, 390);
        // My games after the end: no game awaits a move, the game is among the finished.
        await bob.goto(`${base()}/me`);
        await expect(bob.locator(`[data-testid=my-finished] li[data-id="${id}"]`)).toBeVisible({ timeout: 15000 });
        assert((await bob.title()) === 'Tabula', 'the tab title still counts a finished game');
        await noConsoleErrors(alice, bob);
      } finally {
        for (const p of [alice, bob]) await p.context().close();
      }
    });
  };
}

accountTests({ ...h, test })(GAMES);
