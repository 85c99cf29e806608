import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  test, expect, h, ALL_GAMES, ARTIFACTS, MOVES, AI_LEVEL, GAMES, PHONE, base, newPage, assert, until, noConsoleErrors,
  status, state, moveCount, closeDialogs, waitMyTurnOrOver, playOneDecision, waitChange, assertNoOverflow,
  boardHtml, waitPly, catalog, withServer, theServer,
} from './harness.mjs';

async function lobbyJoinAndWatch(game) {
  const host = await newPage('lobby-host');
  const guest = await newPage('lobby-guest');
  const viewer = await newPage('lobby-viewer');
  await host.goto(`${base()}/`);
  const card = host.locator(`[data-game="${game.id}"]`);
  await card.locator('button', { hasText: 'Options & friends' }).click();
  await card.locator('select[data-seat="1"]').selectOption('open');
  await card.locator('button', { hasText: 'Create game' }).click();
  await host.waitForURL(/\/game\//, { timeout: 15000 });
  const id = host.url().split('/game/')[1];
  assert((await state(host)) === 'waiting', 'the game started before the open seat was taken');
  assert((await status(host)).startsWith('Waiting for your opponent to join'), `the waiting host reads "${await status(host)}"`);
  await expect(host.locator('[data-seat] b', { hasText: 'to act' }), 'a seat is marked "to act" before the game started').toHaveCount(0);
  // Someone else claims the open seat from the lobby's list.
  await guest.goto(`${base()}/`);
  await guest.locator(`li[data-id="${id}"] button`, { hasText: 'Join as' }).click({ timeout: 15000 });
  await guest.waitForURL(new RegExp(`/game/${id}$`), { timeout: 15000 });
  for (const p of [host, guest]) {
    await expect(p.locator('[data-testid=status]').first(), 'the game starts when the open seat is taken').not.toHaveAttribute('data-state', 'waiting');
  }
  await expect(guest.locator('[data-seat="1"]', { hasText: '(you)' }), 'the guest does not hold the claimed seat').toHaveCount(1);
  // A third browser finds it among the live games and watches.
  await viewer.goto(`${base()}/`);
  await viewer.locator(`li[data-id="${id}"] a`, { hasText: 'Watch' }).click({ timeout: 15000 });
  await viewer.waitForURL(new RegExp(`/watch/${id}$`), { timeout: 15000 });
  await expect(viewer.locator('[data-testid=status]')).toBeVisible({ timeout: 15000 });
  await expect(viewer.locator('[data-testid=actions]'), 'a spectator was offered actions').toHaveCount(0);
  await noConsoleErrors(host, guest, viewer);
}

async function rulesPages(games) {
  const page = await newPage('rules');
  // The top bar's "Rules" opens the index of every game, each linking to its rules.
  await page.goto(`${base()}/`);
  await page.locator('header.top a', { hasText: 'Rules' }).click();
  await expect(page.locator('[data-testid=rules-index]')).toBeVisible({ timeout: 10000 });
  for (const g of games) {
    await expect(page.locator(`[data-testid=rules-index] li[data-game="${g.id}"] a[href="/rules/${g.id}"]`), `the rules index does not list ${g.id}`).toHaveCount(1);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'rules-index.png'), fullPage: true });
  // The two Cyvasse rule families share docs/rules/cyvasse.md: each page shows only its own family.
  const family = {
    'cyvasse-trump': { own: 'Board and armies', other: 'Hex Cyvasse' },
    'cyvasse-caird': { own: 'Hex Cyvasse', other: 'Board and armies' },
  };
  for (const g of games) {
    await page.goto(`${base()}/rules/${g.id}`);
    await expect(page.locator(`[data-testid=rules][data-game="${g.id}"]`)).toBeVisible({ timeout: 10000 });
    const text = await page.locator('[data-testid=rules]').textContent({ timeout: 10000 });
    assert(text && text.length > 500, `the rules page of ${g.id} is empty`);
    const f = family[g.id];
    if (f) {
      const headings = await page.locator('[data-testid=rules] h3').allTextContents();
      assert(headings.some((h) => h.startsWith(f.own)), `the rules page of ${g.id} lacks "${f.own}"`);
      assert(!headings.some((h) => h.startsWith(f.other)), `the rules page of ${g.id} shows the other family's "${f.other}"`);
      await expect(page.locator('[data-testid=rules-family] a'), `the rules page of ${g.id} does not link the other family`).toHaveCount(1);
    }
  }
  await noConsoleErrors(page);
}

/** The AI's level is chosen beside "Play vs AI", the game says which level plays, and the choice is kept. */
async function chooseAiLevel(game) {
  const page = await newPage('ai-level');
  await page.goto(`${base()}/`);
  await page.locator(`[data-testid=ai-level-${game.id}]`).selectOption('2');
  await page.locator(`[data-testid=play-ai-${game.id}]`).click();
  await page.waitForURL(/\/game\//, { timeout: 20000 });
  await expect(page.locator('[data-seat="1"]', { hasText: 'AI level 2' })).toBeVisible({ timeout: 15000 });
  await page.goto(`${base()}/`);
  assert((await page.locator(`[data-testid=ai-level-${game.id}]`).inputValue()) === '2', 'the chosen AI level is not kept');
  await noConsoleErrors(page);
}

/** An address that names no game says so and links back, instead of reconnecting forever. */
async function unknownGame() {
  const page = await newPage('unknown-game');
  page.allowNetworkErrors = true; // the refused WebSocket upgrade (404) is logged by the browser
  {
    await page.goto(`${base()}/game/no-such-game-here`);
    await expect(page.locator('[data-testid=not-found]')).toBeVisible({ timeout: 20000 });
    assert((await page.locator('[data-testid=not-found] h2').textContent()) === 'Nothing here', 'the page does not say "Nothing here"');
    await page.locator('[data-testid=not-found] a', { hasText: 'Go to the lobby' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10000 });
    await noConsoleErrors(page);
  }
}

async function lobbyOnPhone(games) {
  const page = await newPage('lobby');
  await page.goto(`${base()}/`);
  for (const g of games) await expect(page.locator(`[data-testid=play-ai-${g.id}]`)).toBeVisible({ timeout: 10000 });
  await page.screenshot({ path: join(ARTIFACTS, 'lobby.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The options form of a game open, as a player would see it on a phone.
  const card = page.locator(`[data-game="${games[0].id}"]`);
  await card.locator('button', { hasText: 'Options & friends' }).click();
  await expect(card.locator('button', { hasText: 'Create game' })).toBeVisible();
  await page.screenshot({ path: join(ARTIFACTS, 'lobby-phone.png'), fullPage: true });
  await assertNoOverflow(page, 390);
  await noConsoleErrors(page);
}

/** On a phone, a game opened from the lobby (scrolled down to its last game's "Play vs AI") opens at the
 * top of the page, not at the lobby's scroll position. */
async function phoneOpensAtTop(games) {
  const page = await newPage('phone-top');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base()}/?ai=1`);
  const last = games[games.length - 1];
  const button = page.locator(`[data-testid=play-ai-${last.id}]`);
  await expect(button).toBeVisible({ timeout: 10000 });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const lobbyY = await page.evaluate(() => window.scrollY);
  assert(lobbyY > 0, 'the lobby does not scroll on a phone');
  await button.click();
  await page.waitForURL(/\/game\//, { timeout: 20000 });
  await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
  await expect(page.locator('[data-testid=board] svg').first()).toBeVisible({ timeout: 20000 });
  const y = await page.evaluate(() => window.scrollY);
  assert(y === 0, `the game opens scrolled down by ${y}px on a phone (the lobby was at ${lobbyY}px)`);
  await page.screenshot({ path: join(ARTIFACTS, 'phone-opens-at-top.png') });
  await noConsoleErrors(page);
}

test('the server offers the games these tests cover', async () => {
  expect((await catalog()).map((g) => g.id)).toEqual(ALL_GAMES.map((g) => g.id));
});
test('rules pages render for every game', () => rulesPages(GAMES));
test('an unknown game address shows the not-found page', () => unknownGame());
if (GAMES.length) {
  test(`${GAMES[0].id}: the AI level is chosen beside "Play vs AI"`, () => chooseAiLevel(GAMES[0]));
  test('the lobby fits a phone screen', () => lobbyOnPhone(GAMES));
  test('a game opened from the lobby on a phone starts at the top of the page', () => phoneOpensAtTop(GAMES));
  const duo = GAMES.find((g) => g.id === 'kyo') ?? GAMES[0];
  test(`${duo.id}: an open seat claimed from the lobby, the game watched from the lobby`, () => lobbyJoinAndWatch(duo));
}

// scripts/e2e.sh empties the artifacts folder first: it holds this run's screenshots only.
test('the artifacts folder holds this run\'s files only', () => {
  const started = Number(process.env.E2E_RUN_STARTED);
  assert(started > 0, 'the run\'s start was not noted (global-setup.mjs)');
  const older = readdirSync(ARTIFACTS).filter((f) => statSync(join(ARTIFACTS, f)).mtimeMs < started - 1000);
  expect(older, `files in ${ARTIFACTS} older than this run`).toEqual([]);
});
