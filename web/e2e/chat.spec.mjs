// Browser tests of the in-game chat (issue 22, web/src/ui/chat.ts): two players in two browser contexts
// talk live; a signed-in spectator writes in the spectators' chat, which the players do not see while
// the game runs, and never sees the players'; a too-long message is refused in the server's words;
// "Mute chat" hides the chat (and stays muted after a reload); the phone size folds the panel; the
// replay of the finished game keeps its chat (a player reads both channels, a spectator theirs).
// Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { join } from 'node:path';

function chatTests({ test, newPage, base, assert, noConsoleErrors, assertNoOverflow, ARTIFACTS }) {
  const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `chat-${name}.png`), fullPage: false });

  /** Types and sends a message from the page's chat panel. */
  async function say(page, text) {
    await page.locator('[data-testid=chat-input]').fill(text);
    await page.locator('[data-testid=chat-send]').click();
  }

  /** Waits until the page's chat list shows `text`. */
  async function sees(page, text) {
    await expect(page.locator('[data-testid=chat-list] .chat-text', { hasText: text }).first()).toBeVisible({ timeout: 15000 });
  }

  async function texts(page) {
    return page.locator('[data-testid=chat-list] .chat-text').allTextContents();
  }

  return async (games) => {
    const game = games.find((g) => g.id === 'kyo') ?? games[0];
    if (!game) return;
    test(`${game.id}: chat between two players live, a spectator's chat apart, too long refused, mute, phone`, async () => {
      const host = await newPage('chat-host');
      const friend = await newPage('chat-friend');
      const watcher = await newPage('chat-watcher');
      try {
        // A game for two people, each joining by their link.
        const r = await fetch(`${base()}/api/games`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ game: game.id, seats: [{ kind: 'human' }, { kind: 'human' }] }),
        });
        const created = await r.json();
        assert(r.status === 201, `the game was not created: ${JSON.stringify(created)}`);
        const id = created.id;
        await host.setViewportSize({ width: 1280, height: 800 });
        await host.goto(`${base()}${created.seats[0].join_url}`);
        await friend.goto(`${base()}${created.seats[1].join_url}`);
        for (const p of [host, friend]) await expect(p.locator('[data-testid=chat-input]')).toBeVisible({ timeout: 15000 });

        // Live both ways, named by side.
        await say(host, 'good luck, have fun');
        await sees(friend, 'good luck, have fun');
        await say(friend, 'you too!');
        await sees(host, 'you too!');
        const author = await friend.locator('[data-testid=chat-list] .chat-message', { hasText: 'good luck' }).locator('.chat-author').textContent();
        assert(author && !/^\d/.test(author), `the sender is named "${author}", not by side`);
        assert((await host.locator('[data-testid=chat-input]').inputValue()) === '', 'the sent text stayed in the field');

        // A too-long message: the counter says so, and the server's refusal is shown in its words.
        host.allowNetworkErrors = true;
        await host.locator('[data-testid=chat-input]').fill('x'.repeat(201));
        assert((await host.locator('[data-testid=chat-counter]').textContent()) === '201/200', 'the counter does not count');
        await expect(host.locator('[data-testid=chat-counter].over'), 'the counter does not warn').toHaveCount(1);
        await host.locator('[data-testid=chat-send]').click();
        await expect(host.locator('[data-testid=chat-error]', { hasText: 'too long: 201 characters, at most 200 are allowed' })).toBeVisible({ timeout: 15000 });
        host.allowNetworkErrors = false;
        await host.locator('[data-testid=chat-input]').fill('');
        await shot(host, 'desktop-1280x800');

        // A signed-in spectator: the spectators' chat only.
        await watcher.goto(`${base()}/signup`);
        await watcher.locator('[data-testid=signup-form] input[name=name]').fill('railbird');
        await watcher.locator('[data-testid=signup-form] input[name=password]').fill('railbird-secret-1');
        await watcher.locator('[data-testid=signup-form] button[type=submit]').click();
        await watcher.waitForURL(/\/me$/, { timeout: 15000 });
        await watcher.goto(`${base()}/watch/${id}`);
        await expect(watcher.locator('[data-testid=chat-input]')).toBeVisible({ timeout: 15000 });
        await say(watcher, 'the crowd is watching');
        await sees(watcher, 'the crowd is watching');
        // A reload reads the history the server gives a spectator: its own channel, not the players'.
        await watcher.reload();
        await sees(watcher, 'the crowd is watching');
        const seen = await texts(watcher);
        assert(!seen.some((t) => t.includes('good luck') || t.includes('you too')), `the spectator reads the players' chat: ${seen}`);
        // The players do not get it: their next message arrives, the spectator's never does.
        await say(friend, 'your move');
        await sees(host, 'your move');
        const hostSees = await texts(host);
        assert(!hostSees.some((t) => t.includes('crowd')), `a player reads the spectators' chat during the game: ${hostSees}`);
        assert(!(await texts(watcher)).some((t) => t.includes('your move')), 'the spectator got a players\' message live');

        // Mute: the friend hides the chat; it stays muted after a reload, and unmuting shows what came.
        await friend.locator('[data-testid=chat-mute]').check();
        await expect(friend.locator('[data-testid=chat-list]')).toBeHidden({ timeout: 15000 });
        await say(host, 'are you there?');
        await sees(host, 'are you there?');
        await friend.setViewportSize({ width: 390, height: 844 });
        await friend.reload();
        await expect(friend.locator('[data-testid=chat]')).toBeVisible({ timeout: 15000 });
        assert(await friend.locator('[data-testid=chat-mute]').isChecked(), 'the mute did not survive a reload');
        assert(!(await friend.locator('[data-testid=chat-list]').isVisible()), 'a muted chat shows its messages');
        // On a phone the panel starts folded (its title says it is muted): unfolded, it can be unmuted.
        assert(!(await friend.locator('[data-testid=chat]').evaluate((d) => d.open)), 'the chat is not folded on a phone');
        await friend.locator('[data-testid=chat] summary', { hasText: 'muted' }).click();
        await friend.locator('[data-testid=chat-mute]').uncheck();
        await sees(friend, 'are you there?');
        await friend.locator('[data-testid=chat]').scrollIntoViewIfNeeded();
        await shot(friend, 'phone-390x844');
        await assertNoOverflow(friend, 390);

        // The game ends; its replay keeps the chat: a player reads both channels, a spectator only theirs.
        const resign = await fetch(`${base()}/api/games/${id}/resign`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ seat: 0, token: created.seats[0].token }),
        });
        assert(resign.status === 200, `the resignation was refused: ${await resign.text()}`);
        await watcher.goto(`${base()}/replay/${id}`);
        await sees(watcher, 'the crowd is watching');
        assert(!(await texts(watcher)).some((t) => t.includes('good luck')), 'the replay shows a spectator the players\' chat');
        await host.goto(`${base()}/replay/${id}`);
        await sees(host, 'good luck, have fun');
        await host.locator('[data-testid=chat-tab-spectators]').click();
        await sees(host, 'the crowd is watching');
        // Not signed in: the spectators' channel offers a sign-in instead of a field.
        await expect(host.locator('[data-testid=chat-sign-in]')).toBeVisible({ timeout: 15000 });
        assert(!(await host.locator('[data-testid=chat-form]').isVisible()), 'a player without an account is offered the spectators\' field');
        await host.locator('[data-testid=chat-tab-players]').click();
        assert(await host.locator('[data-testid=chat-form]').isVisible(), 'the players\' field is missing after the game');
        await host.locator('[data-testid=chat-tab-spectators]').click();
        await host.locator('[data-testid=chat]').scrollIntoViewIfNeeded();
        await shot(host, 'replay-1280x800');
        await noConsoleErrors(host, friend, watcher);
      } finally {
        for (const p of [host, friend, watcher]) await p.context().close();
      }
    });
  };
}

chatTests({ ...h, test })(GAMES);
