import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  test, expect, h, ARTIFACTS, MOVES, AI_LEVEL, GAMES, PHONE, base, newPage, assert, until, noConsoleErrors,
  status, state, moveCount, closeDialogs, waitMyTurnOrOver, playOneDecision, waitChange, assertNoOverflow,
  boardHtml, waitPly, catalog, withServer, theServer,
} from './harness.mjs';

/** Waits until one of these pages owes a decision or shows the game over; returns [page, state]. */
async function whoseTurn(...pages) {
  let found = null;
  await until(async () => {
    for (const p of pages) {
      const st = await state(p);
      if (st === 'yours' || st === 'over') {
        found = [p, st];
        return true;
      }
    }
    return false;
  }, 'a seat to owe a decision', 30000);
  return found;
}

/** Steps back through a live game on its game page (a seat or a spectator) and returns to the live position.
 * (Consecutive positions may look alike — Kyo's "end" moves nothing — so boards are compared with the start.) */
async function stepLiveGame(page, label) {
  const live = await boardHtml(page);
  const total = await moveCount(page);
  assert(total >= 2, 'too few moves to step through');
  await page.locator('[data-testid=moves] [data-testid=move-step]').first().click();
  await waitPly(page, 1);
  await expect(page.locator('[data-testid=actions]'), 'actions are offered while replaying').toHaveCount(0);
  await page.locator('[data-testid=review] [data-testid=replay-first]').click();
  await waitPly(page, 0);
  const start = await boardHtml(page);
  assert(start !== live, 'the start of the game looks like the live position');
  await page.locator('[data-testid=review] [data-testid=replay-next]').click();
  await waitPly(page, 1);
  await page.locator('[data-testid=review] [data-testid=replay-next]').click();
  await waitPly(page, 2);
  await page.screenshot({ path: join(ARTIFACTS, `live-replay-${label}.png`), fullPage: true });
  await page.locator('[data-testid=review] [data-testid=replay-first]').click();
  await waitPly(page, 0);
  assert((await boardHtml(page)) === start, 'the start looks different the second time');
  await page.locator('[data-testid=replay-leave]').click();
  await expect(page.locator('[data-testid=review]')).toHaveCount(0, { timeout: 15000 });
  assert((await boardHtml(page)) === live, 'leaving the replay did not return to the live position');
}


async function onlineGame(game) {
  const host = await newPage('host');
  const friend = await newPage('friend');
  const watcher = await newPage('spectator');
  await host.goto(`${base()}/`);
  const card = host.locator(`[data-game="${game.id}"]`);
  await card.locator('button', { hasText: 'Options & friends' }).click();
  await card.locator('select[data-seat="1"]').selectOption('friend');
  await card.locator('button', { hasText: 'Create game' }).click();
  await host.waitForURL(/\/game\//);
  const id = host.url().split('/game/')[1];
  // The waiting page keeps the friend's full link with a Copy button, also after a reload.
  await host.reload();
  const link = await host.locator('[data-testid=invites] input[data-join-seat="1"]').inputValue({ timeout: 15000 });
  assert(link.startsWith(`${base()}/join/${id}/1#`) && /#[0-9a-f]{64}$/.test(link), `the invite link is not a whole join link: ${link}`);
  await host.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await host.locator('[data-testid=copy-invite-1]').click();
  await expect(host.locator('[data-testid=copy-invite-1]', { hasText: 'Copied' })).toBeVisible({ timeout: 5000 });
  assert((await host.evaluate(() => navigator.clipboard.readText())) === link, 'Copy did not put the link on the clipboard');
  await host.screenshot({ path: join(ARTIFACTS, `invite-${game.id}.png`), fullPage: true });
  // Listed in the lobby, the friend's seat cannot be taken from there by a stranger.
  await watcher.goto(`${base()}/`);
  await expect(watcher.locator(`li[data-id="${id}"]`)).toBeVisible({ timeout: 15000 });
  await expect(watcher.locator(`li[data-id="${id}"] button`, { hasText: 'Join as' }), 'a seat kept for a friend by link is offered in the lobby').toHaveCount(0);
  await friend.goto(link);
  await friend.waitForURL(/\/game\//);
  await watcher.goto(`${base()}/watch/${id}`);
  await expect(watcher.locator('[data-testid=status]')).toBeVisible();
  // Once the friend joined, the link is no longer offered.
  await expect(host.locator('[data-testid=invites]')).toHaveCount(0, { timeout: 15000 });
  // The spectator flips the board: the first seat's side goes to the top, and back.
  if (game.id === 'kyo') {
    const rowOf = async () => (await watcher.locator('[data-testid=board] [data-cell="A0"]').first().boundingBox()).y;
    const before = await rowOf();
    await watcher.locator('[data-testid=flip]').click();
    await expect(watcher.locator('[data-testid=flip][aria-pressed=true]')).toBeVisible({ timeout: 5000 });
    const after = await rowOf();
    assert(after < before, `Flip board did not move A0 to the top (y ${before} → ${after})`);
    await watcher.screenshot({ path: join(ARTIFACTS, `flipped-${game.id}.png`), fullPage: true });
    await watcher.locator('[data-testid=flip]').click();
    assert((await rowOf()) === before, 'flipping twice does not restore the board');
  }
  // Alternate: whoever owes a decision clicks.
  let made = 0;
  while (made < 8) {
    const [p, st] = await whoseTurn(host, friend);
    if (st === 'over') break;
    await playOneDecision(p);
    made++;
  }
  assert(made >= 4, `only ${made} decisions were made in the online game`);
  // The spectator sees the same moves as both seats, and has no actions.
  await until(async () => {
    const n = await moveCount(host);
    return n === (await moveCount(friend)) && n === (await moveCount(watcher));
  }, 'the seats and the spectator to show the same moves');
  await expect(watcher.locator('[data-testid=actions]'), 'a spectator was offered actions').toHaveCount(0);
  await watcher.screenshot({ path: join(ARTIFACTS, `online-${game.id}-spectator.png`), fullPage: true });
  // Step through the live game: as the spectator and as a seat (positions from the server).
  await stepLiveGame(watcher, 'spectator');
  await stepLiveGame(host, 'seat');
  // The replay page of the running game (as a spectator): it reaches the latest position, steps back,
  // and links back to the live game.
  const liveReplay = await newPage('live-replay');
  try {
    await liveReplay.goto(`${base()}/replay/${id}`);
    const n = await moveCount(host);
    await waitPly(liveReplay, n);
    const latest = await boardHtml(liveReplay, 'replay-board');
    await liveReplay.locator('[data-testid=replay-prev]').click();
    await waitPly(liveReplay, n - 1); // (an action such as Kyo's "end" may leave the board as it was)
    await liveReplay.locator('[data-testid=replay-first]').click();
    await waitPly(liveReplay, 0);
    assert((await boardHtml(liveReplay, 'replay-board')) !== latest, 'the start of the live replay looks like its latest position');
    await liveReplay.locator('a', { hasText: 'Back to the live game' }).click();
    await liveReplay.waitForURL(/\/watch\//, { timeout: 15000 });
    await expect(liveReplay.locator('[data-testid=status]')).toBeVisible({ timeout: 15000 });
    await noConsoleErrors(liveReplay);
  } finally {
    await liveReplay.context().close();
  }

  // A network drop: the browser of the seat that is not to move goes offline; its page says so at once,
  // the other seat moves meanwhile, and when the network is back the page reconnects with its seat and
  // gets the missed move.
  const mover = (await state(host)) === 'yours' ? host : friend;
  const dropped = mover === host ? friend : host;
  dropped.allowNetworkErrors = true;
  await dropped.context().setOffline(true);
  await expect(dropped.locator('[data-testid=conn].down')).toBeVisible({ timeout: 10000 });
  if ((await state(mover)) === 'yours') await playOneDecision(mover);
  const movedTo = await moveCount(mover);
  await dropped.context().setOffline(false);
  await expect(dropped.locator('[data-testid=conn]:not(.down)')).toBeVisible({ timeout: 20000 });
  dropped.allowNetworkErrors = false;
  await expect.poll(() => moveCount(dropped), { message: 'the move made during the network drop reaches the reconnected page' }).toBe(movedTo);
  await expect(dropped.locator('[data-seat]', { hasText: '(you)' }), 'the reconnected page lost its seat').toHaveCount(1);

  // Reconnect after a server restart, keeping the seat.
  const beforeRestart = await moveCount(host);
  host.allowNetworkErrors = friend.allowNetworkErrors = watcher.allowNetworkErrors = true;
  await theServer().stop();
  await expect(host.locator('[data-testid=conn].down')).toBeVisible({ timeout: 15000 });
  await theServer().start();
  await expect(host.locator('[data-testid=conn]:not(.down)')).toBeVisible({ timeout: 30000 });
  await expect(friend.locator('[data-testid=conn]:not(.down)')).toBeVisible({ timeout: 30000 });
  host.allowNetworkErrors = friend.allowNetworkErrors = watcher.allowNetworkErrors = false;
  assert((await moveCount(host)) === beforeRestart, 'moves were lost over the restart');
  // Still seated: whoever owes a decision can still act after the restart.
  const [next, st] = await whoseTurn(host, friend);
  assert(st === 'yours', 'the game ended over the server restart');
  await playOneDecision(next);

  // Fair chance: the game's details show the seed's commitment from the start, never the seed while
  // the game runs.
  await host.locator('[data-testid=fairness] summary').click();
  const commitment = (await host.locator('[data-testid=seed-commitment]').textContent()).trim();
  assert(/^[0-9a-f]{64}$/.test(commitment), `no seed commitment in the game's details: ${commitment}`);
  await expect(host.locator('[data-testid=seed]'), 'the seed shows while the game runs').toHaveCount(0);
  // Resign: both see the game-over dialog; then export, import and replay the record.
  await host.locator('button', { hasText: 'Resign' }).click();
  await host.locator('dialog button[data-value=yes]').click();
  await expect(host.locator('dialog [data-testid=result]')).toBeVisible({ timeout: 15000 });
  await expect(friend.locator('dialog [data-testid=result]')).toBeVisible({ timeout: 15000 });
  assert((await friend.locator('dialog h2').textContent()) === 'You win!', 'the friend did not win by resignation');
  await host.locator('dialog button[data-value=close]').click();
  // The finished game's replay (not imported): first, a clicked move, last.
  const finished = await newPage('replay');
  try {
    await finished.goto(`${base()}/replay/${id}`);
    await expect(finished.locator('[data-testid=replay-ply]')).toBeVisible({ timeout: 15000 }); // drawn with its move list
    const n = await finished.locator('[data-testid=moves] li').count();
    assert(n >= 4, `the finished game's replay lists ${n} moves`);
    await waitPly(finished, n);
    const end = await boardHtml(finished, 'replay-board');
    await finished.locator('[data-testid=replay-first]').click();
    await waitPly(finished, 0);
    const start = await boardHtml(finished, 'replay-board');
    assert(start !== end, 'the first and last positions of the finished game look the same');
    await finished.locator('[data-testid=moves] li').nth(2).click();
    await waitPly(finished, 3);
    assert((await boardHtml(finished, 'replay-board')) !== start, 'jumping to a move did not change the board');
    await finished.locator('[data-testid=replay-last]').click();
    await waitPly(finished, n);
    assert((await boardHtml(finished, 'replay-board')) === end, 'the last position changed on the way back');
    await finished.keyboard.press('ArrowLeft');
    await waitPly(finished, n - 1);
    await finished.keyboard.press('Home');
    await waitPly(finished, 0);
    assert((await boardHtml(finished, 'replay-board')) === start, 'Home did not show the start');
    await finished.screenshot({ path: join(ARTIFACTS, `replay-finished-${game.id}.png`), fullPage: true });
    await noConsoleErrors(finished);
  } finally {
    await finished.context().close();
  }
  const dl = host.waitForEvent('download');
  await host.locator('[data-testid=export]').click();
  const file = await (await dl).path();
  const record = JSON.parse(readFileSync(file, 'utf8'));
  assert(record.game === game.id && Array.isArray(record.actions), 'the downloaded record is not a record');
  // Once over, the details show the seed; the downloaded record carries it exactly (a string) with the
  // commitment, and passes the command-line audit.
  const seedText = (await host.locator('[data-testid=seed]').textContent({ timeout: 15000 })).trim();
  await host.screenshot({ path: join(ARTIFACTS, `fair-chance-${game.id}.png`), fullPage: true });
  assert(record.seed === seedText, `the record's seed ${record.seed} is not the page's ${seedText}`);
  assert(record.seed_commitment === commitment, 'the record carries another commitment');
  const audit = spawnSync(theServer().bin, ['replay', file, '--audit-seed'], { encoding: 'utf8' });
  assert(audit.status === 0 && audit.stdout.includes('matches its commitment'),
    `tabula replay --audit-seed refused the downloaded record: ${audit.stderr}${audit.stdout.slice(-300)}`);
  // Rematch: the friend asks from the game-over dialog, the host accepts from the banner. Both keep their
  // tokens and the sides swap (docs/protocol.md); the new game starts and its first player can move.
  await friend.locator('dialog button[data-value=rematch]').click();
  await friend.waitForURL((u) => /\/game\//.test(u.pathname) && !u.pathname.endsWith(id), { timeout: 15000 });
  const rematchId = friend.url().split('/game/')[1];
  await host.locator('button', { hasText: 'Play it' }).click({ timeout: 15000 });
  await host.waitForURL((u) => u.pathname.endsWith(`/game/${rematchId}`), { timeout: 15000 });
  for (const p of [host, friend]) {
    await expect(p.locator('[data-testid=status]').first(), 'the rematch starts').not.toHaveAttribute('data-state', 'waiting');
  }
  assert((await host.locator('[data-seat="1"]').textContent()).includes('(you)'), 'the host does not play the other side in the rematch');
  assert((await friend.locator('[data-seat="0"]').textContent()).includes('(you)'), 'the friend does not play the other side in the rematch');
  const firstToMove = (await state(friend)) === 'yours' ? friend : host;
  assert((await state(firstToMove)) === 'yours', `nobody can move in the rematch: ${await status(host)} / ${await status(friend)}`);
  await playOneDecision(firstToMove);
  await host.goto(`${base()}/`);
  await host.locator('[data-testid=import-file]').setInputFiles(file);
  await host.waitForURL(/\/replay\//, { timeout: 15000 });
  await expect(host.locator('[data-testid=replay-ply]')).toBeVisible();
  const total = record.actions.length;
  assert((await host.locator('[data-testid=replay-ply]').textContent()) === `Action ${total} of ${total}`, 'the replay does not start at the end');
  await host.locator('[data-testid=replay-prev]').click();
  await expect(host.locator('[data-testid=replay-ply]', { hasText: `Action ${total - 1} of` })).toBeVisible({ timeout: 15000 });
  await host.screenshot({ path: join(ARTIFACTS, `replay-${game.id}.png`), fullPage: true });
  await noConsoleErrors(host, friend, watcher);
}


/** The seat a hot-seat page shows now (the header marks it "this device, shown"), or null. */
async function shownSeat(page) {
  const el = page.locator('[data-testid=status]').locator('xpath=..').locator('[data-seat]', { hasText: 'this device, shown' });
  if (!(await el.count())) return null;
  return Number(await el.first().getAttribute('data-seat'));
}

/** Hot-seat: both seats of a game played from ONE page, by clicking. `cover` says whether the game hides
 * something between the seats (true: the page must ask to pass the device before showing the other seat
 * every time), only while their views differ ('some': the Cyvasse hidden setups; Syba once the starting
 * cities are dealt face down; at least once), or never (false). A reload keeps both seats; the seat to act resigns; a rematch from the
 * game-over dialog seats both players on this device again. */
async function hotSeat(game, cover, decisionsWanted, others = []) {
  const page = await newPage(`hotseat-${game.id}`);
  await page.goto(`${base()}/`);
  const card = page.locator(`[data-game="${game.id}"]`);
  await card.locator('button', { hasText: 'Options & friends' }).click();
  await card.locator('select[data-seat="0"]').selectOption('me');
  await card.locator('select[data-seat="1"]').selectOption('me');
  // Further seats (Syba: the AI), from seat 2 on.
  for (const [i, choice] of others.entries()) await card.locator(`select[data-seat="${i + 2}"]`).selectOption(choice);
  await card.locator('button', { hasText: 'Create game' }).click();
  await page.waitForURL(/\/game\//, { timeout: 20000 });
  const id = page.url().split('/game/')[1];
  await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
  const seen = new Set();
  let covers = 0;
  let switches = 0;
  let decisions = 0;
  let last = null;
  let reloaded = false;
  let coverShot = false;
  const deadline = Date.now() + 120000;
  while (decisions < decisionsWanted && Date.now() < deadline) {
    const coverBox = page.locator('[data-testid=pass-cover]');
    if (await coverBox.count()) {
      assert(cover !== false, `${game.id} covered the board although both seats see the same`);
      const to = Number(await coverBox.getAttribute('data-seat'));
      // Nothing of the next seat shows under the cover: no board, no actions, no hand.
      await expect(page.locator('[data-testid=board] svg'), 'the board shows under the cover').toHaveCount(0);
      await expect(page.locator('[data-testid=actions]'), 'actions show under the cover').toHaveCount(0);
      if (!coverShot) {
        coverShot = true;
        await page.screenshot({ path: join(ARTIFACTS, `hotseat-${game.id}-cover.png`), fullPage: true });
      }
      covers++;
      await page.locator('[data-testid=pass-show]').click();
      assert((await shownSeat(page)) === to, 'the cover named another seat than the one shown after it');
      continue;
    }
    const st = await state(page);
    if (st === 'over') break;
    const seat = await shownSeat(page);
    if (st !== 'yours') {
      // Chance, or the page between two updates: wait for this page's decision, the end or the cover.
      await page.waitForFunction(() => {
        const s = document.querySelector('[data-testid=status]')?.getAttribute('data-state');
        return s === 'yours' || s === 'over' || document.querySelector('[data-testid=pass-cover]') !== null;
      }, null, { timeout: 60000, polling: 'raf' });
      continue;
    }
    assert(seat !== null, 'no seat shown in a hot-seat game');
    // `null`: the page switched seats (and covered the board) first; the cover is handled above.
    if ((await playOneDecision(page)) === null) continue;
    if (last !== null && seat !== last) {
      switches++;
    }
    last = seat;
    seen.add(seat);
    decisions++;
    if (!reloaded && decisions === Math.floor(decisionsWanted / 2)) {
      // A reload keeps both seats of this device (localStorage); a game with hidden information asks
      // to be passed on first (someone else may be looking).
      reloaded = true;
      await page.reload();
      await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
      await expect(page.locator('[data-testid=pass-cover], [data-testid=board] svg, [data-testid=board] .no-board').first()).toBeVisible({ timeout: 20000 });
      assert((await page.locator('[data-seat]', { hasText: '(this device' }).count()) >= 2, 'the reload lost a seat of this device');
      if (cover === true) await expect(page.locator('[data-testid=pass-cover]'), 'a reloaded hot-seat page showed hidden information at once').toHaveCount(1);
    }
  }
  console.log(`     ${game.id} hot-seat: ${decisions} decisions, ${switches} seat changes, ${covers} covers`);
  assert(decisions >= decisionsWanted || (await state(page)) === 'over', `only ${decisions} decisions were made`);
  assert(seen.size === 2, `only seat(s) ${[...seen].join(', ')} played`);
  if (cover === true) assert(covers >= switches && covers >= 2, `${switches} seat changes, only ${covers} covers`);
  else if (cover === 'some') assert(covers >= 1, 'the hidden information was never covered');
  else assert(covers === 0, 'a cover appeared');
  await page.screenshot({ path: join(ARTIFACTS, `hotseat-${game.id}.png`), fullPage: true });
  if ((await state(page)) !== 'over') {
    if (await page.locator('[data-testid=pass-cover]').count()) await page.locator('[data-testid=pass-show]').click();
    const who = await shownSeat(page);
    const name = (await page.locator(`[data-seat="${who}"]`).first().textContent()) ?? '';
    await page.locator('button', { hasText: 'Resign' }).click();
    const dlg = page.locator('dialog[open]');
    const title = (await dlg.locator('h2').textContent()) ?? '';
    assert(title.startsWith('Resign as ') && name.startsWith(title.slice('Resign as '.length, -1)), `the resign dialog names "${title}", the shown seat is "${name}"`);
    await dlg.locator('button[data-value=yes]').click();
  }
  const over = page.locator('dialog[open]', { hasText: 'Game over' });
  await expect(over).toBeVisible({ timeout: 20000 });
  await over.locator('button[data-value=rematch]').click();
  await page.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.endsWith(id), { timeout: 20000 });
  await expect(page.locator('[data-testid=status]')).toBeVisible({ timeout: 20000 });
  await expect(page.locator('[data-testid=status]').first(), 'the hot-seat rematch does not wait for a player').not.toHaveAttribute('data-state', 'waiting');
  assert((await page.locator('[data-seat]', { hasText: '(this device' }).count()) >= 2, 'the rematch is not played on this device by both seats');
  await noConsoleErrors(page);
}

const duo = GAMES.find((g) => g.id === 'kyo') ?? GAMES[0];
// This test stops and restarts its server: it has one of its own.
if (duo) test(`${duo.id}: two browsers online with a spectator, restart, resign, export, import, replay`, ({ privateServer }) => withServer(privateServer, () => onlineGame(duo)));

for (const [gid, cover, others] of [['territories', true, []], ['kyo', false, []], ['cyvasse-trump', 'some', []], ['syba', 'some', ['ai1', 'ai1']]]) {
  const g = GAMES.find((x) => x.id === gid);
  if (!g) continue;
  const how = (cover === true ? ', the board covered between them' : cover ? ', the board covered while their views differ' : '') + (others.length ? `, ${others.length} AI seats` : '');
  test(`${gid}: hot-seat, two seats on one page${how}, reload, resign, rematch`, () => hotSeat(g, cover, 12, others));
}
