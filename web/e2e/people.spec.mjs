// Browser tests of people by name: two accounts play a rated game between two browsers (created and
// joined from the lobby, ended by resignation); each page names both players beside the board with
// their ratings ("1,500?": provisional), a spectator sees the same names, the game-over dialog shows
// each new rating and its change ("+162", "−162"), a reload keeps them; My games and the profiles
// name the opponent with the result from the player's side ("won against bob (1,500?)"); the
// leaderboard lists the provisional ratings, marked with a legend; an empty one says how to get on
// it. Every view at desktop (1366x768) and phone (390x844) size, with screenshots.

import { h, test, expect, GAMES, DESKTOP, PHONE, signUp, withServer } from './harness.mjs';
import { join } from 'node:path';

function peopleTests({ test, newPage, base, assert, noConsoleErrors, assertNoOverflow, ARTIFACTS }) {
  const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `people-${name}.png`), fullPage: false });

  /** Takes a screenshot at desktop and at phone size, checking the phone page for overflow; back to desktop. */
  async function bothSizes(page, name, check = async () => {}) {
    await page.setViewportSize(DESKTOP);
    await check();
    await shot(page, `${name}-desktop`);
    await page.setViewportSize(PHONE);
    await check();
    await shot(page, `${name}-phone`);
    await assertNoOverflow(page, PHONE.width);
    await page.setViewportSize(DESKTOP);
  }

  /** The bars beside the board name `top` above it and `bottom` below it, with a rating each. */
  async function barsName(page, top, bottom) {
    await expect(page.locator(`[data-testid=players-top] [data-testid=player][data-name="${top}"] a.player-name`)).toHaveText(top, { timeout: 15000 });
    await expect(page.locator(`[data-testid=players-bottom] [data-testid=player][data-name="${bottom}"] a.player-name`)).toHaveText(bottom, { timeout: 15000 });
    for (const bar of ['players-top', 'players-bottom']) {
      await expect(page.locator(`[data-testid=${bar}] [data-testid=player-rating]`)).toHaveText(/^\d{1,3}(,\d{3})*\??$/);
    }
  }

  /** Above and below the board (its box's top and bottom, on screen). */
  async function besideTheBoard(page) {
    const board = await page.locator('[data-testid=board]').boundingBox();
    const top = await page.locator('[data-testid=players-top]').boundingBox();
    const bottom = await page.locator('[data-testid=players-bottom]').boundingBox();
    assert(board && top && bottom, 'the board or a players\' bar is not shown');
    assert(top.y + top.height <= board.y + 2, `the opponents' bar (${top.y}..${top.y + top.height}) is not above the board (from ${board.y})`);
    assert(bottom.y >= board.y + board.height - 2, `the player's bar (from ${bottom.y}) is not below the board (to ${board.y + board.height})`);
    assert(Math.abs(top.x - board.x) < 40, `the opponents' bar (x ${top.x}) is not at the board (x ${board.x})`);
    // On a desktop the board and both bars are in view without scrolling.
    const view = page.viewportSize();
    if (view.width >= 1000) {
      assert(top.y >= 0 && bottom.y + bottom.height <= view.height, `the players' bars (${top.y}, ${bottom.y + bottom.height}) are not both in a ${view.height}px window`);
    }
  }

  return async (games) => {
    const kyo = games.find((g) => g.id === 'kyo') ?? games[0];
    if (!kyo) return;
    const other = games.find((g) => g.id !== kyo.id) ?? kyo;

    test(`people: names and ratings beside the board, the rating change after a rated ${kyo.id} game, opponents in My games and profiles, a leaderboard with provisional ratings`, ({ privateServer }) => withServer(privateServer, async () => {
      // A server of its own: the names are fresh and the leaderboards hold this test's games only.
      const alice = await newPage('alice');
      const bob = await newPage('bob');
      const watcher = await newPage('watcher');
      try {
        // An empty leaderboard says in words how to get on it.
        await watcher.goto(`${base()}/leaderboard/${other.id}`);
        await expect(watcher.locator('[data-testid=leaderboard-empty]')).toContainText('To get on this board', { timeout: 15000 });
        await bothSizes(watcher, 'leaderboard-empty');

        await signUp(alice, 'alice', 'alice-secret-1');
        await signUp(bob, 'bob', 'bob-secret-1');
        // Alice offers a rated game with an open seat; Bob joins it from the lobby.
        await alice.goto(`${base()}/`);
        const card = alice.locator(`[data-game="${kyo.id}"]`);
        await card.locator('button', { hasText: 'Options & friends' }).click();
        await card.locator('select[data-seat="1"]').selectOption('open');
        await card.locator('[data-testid=rated]').check();
        await card.locator('button', { hasText: 'Create game' }).click();
        await alice.waitForURL(/\/game\//, { timeout: 15000 });
        const id = alice.url().split('/game/')[1];
        // Before Bob joins, Alice's bar names her, and the open seat says so.
        await expect(alice.locator('[data-testid=players-bottom] a.player-name')).toHaveText('alice', { timeout: 15000 });
        await expect(alice.locator('[data-testid=players-top] .player-name')).toHaveText('Open seat');
        await bob.goto(`${base()}/`);
        const line = bob.locator(`li[data-id="${id}"]`);
        await expect(line).toBeVisible({ timeout: 15000 });
        await line.locator('button', { hasText: 'Join as' }).click();
        await bob.waitForURL(new RegExp(`/game/${id}$`), { timeout: 15000 });
        // Each player sees the opponent above the board and themself below it, rated "1,500?"
        // (provisional: no rated game yet); Alice's page learns Bob's name when he joins.
        await barsName(alice, 'bob', 'alice');
        await barsName(bob, 'alice', 'bob');
        await expect(alice.locator('[data-testid=players-top] [data-testid=player-rating]')).toHaveText('1,500?');
        await bothSizes(alice, 'game-alice', () => besideTheBoard(alice));
        await bothSizes(bob, 'game-bob', () => besideTheBoard(bob));
        // A spectator sees the same names (the first seat below the board).
        await watcher.goto(`${base()}/watch/${id}`);
        const seat0 = await alice.locator('[data-testid=players-bottom] [data-testid=player]').getAttribute('data-player-seat');
        const [wTop, wBottom] = seat0 === '0' ? ['bob', 'alice'] : ['alice', 'bob'];
        await barsName(watcher, wTop, wBottom);
        await bothSizes(watcher, 'game-spectator', () => besideTheBoard(watcher));

        // Bob resigns: both dialogs show both new ratings with the change, Alice up, Bob down.
        await bob.locator('button', { hasText: 'Resign' }).click({ timeout: 15000 });
        await bob.locator('dialog[open] button[data-value=yes]').click();
        const changes = {};
        for (const [p, who] of [[alice, 'alice'], [bob, 'bob']]) {
          const dialog = p.locator('dialog[open]');
          await expect(dialog.locator('[data-testid=rating-changes] li')).toHaveCount(2, { timeout: 20000 });
          for (const name of ['alice', 'bob']) {
            const li = dialog.locator(`[data-testid=rating-changes] li[data-name="${name}"]`);
            const rating = await li.locator('[data-testid=new-rating]').textContent();
            const change = await li.locator('[data-testid=rating-change]').textContent();
            assert(/^\d{1,3}(,\d{3})*$/.test(rating), `${who}'s dialog shows ${name}'s new rating as "${rating}"`);
            changes[name] = { rating, change };
          }
          assert(changes.alice.change.startsWith('+') && changes.bob.change.startsWith('\u2212'),
            `${who}'s dialog: alice ${changes.alice.change}, bob ${changes.bob.change}`);
          // The new rating is the old one (1500) plus the change.
          for (const name of ['alice', 'bob']) {
            const n = Number(changes[name].rating.replace(/,/g, ''));
            const d = Number(changes[name].change.replace('\u2212', '-').replace('+', ''));
            assert(Math.abs(n - (1500 + d)) <= 1, `${name}: ${changes[name].rating} is not 1,500 ${changes[name].change}`);
          }
          await bothSizes(p, `dialog-${who}`);
          await dialog.locator('button[data-value=close]').click();
        }
        // A reload still shows the changes beside the board.
        await alice.reload();
        await expect(alice.locator('[data-testid=players-bottom] [data-testid=rating-change]')).toHaveText(changes.alice.change, { timeout: 15000 });
        await expect(alice.locator('[data-testid=players-top] [data-testid=rating-change]')).toHaveText(changes.bob.change);
        for (const d of await alice.locator('dialog[open] button[data-value=close]').all()) await d.click();
        await bothSizes(alice, 'game-over-alice');

        // My games: the result from Alice's side, against Bob at his rating then (linked).
        await alice.goto(`${base()}/me`);
        const mine = alice.locator(`[data-testid=my-finished] li[data-id="${id}"]`);
        await expect(mine).toContainText('won against bob (1,500?)', { timeout: 15000 });
        await bothSizes(alice, 'my-games');
        // Bob's profile: lost to Alice; the opponent's name leads to her profile.
        await bob.goto(`${base()}/@/bob`);
        const fin = bob.locator(`[data-testid=finished] li[data-id="${id}"]`);
        await expect(fin).toContainText('Lost to alice (1,500?)', { timeout: 15000 });
        await bothSizes(bob, 'profile');
        await fin.locator('[data-testid=opponent] a.player-name').click();
        await bob.waitForURL(/\/@\/alice$/, { timeout: 15000 });
        await expect(bob.locator('[data-testid=profile][data-name=alice]')).toBeVisible({ timeout: 15000 });

        // The leaderboard of a new site: both listed, provisional ("?"), the winner first, explained.
        await watcher.goto(`${base()}/leaderboard/${kyo.id}`);
        const rows = watcher.locator('[data-testid=leaderboard] tbody tr');
        await expect(rows).toHaveCount(2, { timeout: 15000 });
        assert((await rows.nth(0).getAttribute('data-name')) === 'alice', 'the winner is not first');
        for (const [i, name] of [[0, 'alice'], [1, 'bob']]) {
          assert((await rows.nth(i).getAttribute('data-provisional')) === '1', `${name} is not marked provisional`);
          await expect(rows.nth(i).locator('[data-testid=board-rating]')).toHaveText(`${changes[name].rating}?`);
        }
        await expect(watcher.locator('[data-testid=leaderboard-legend]')).toContainText('provisional');
        await bothSizes(watcher, 'leaderboard');
        await noConsoleErrors(alice, bob, watcher);
      } finally {
        for (const p of [alice, bob, watcher]) await p.context().close();
      }
    }));
  };
}

peopleTests({ ...h, test })(GAMES);
