// Browser tests of learning to play (/learn): the index with every game's lesson count, the guide
// pages' diagrams (drawn, not empty, at desktop and phone sizes, screenshots saved), every lesson of
// every game walked through its listed solution by clicking the board and the buttons as a person
// would, and a wrong move answered with the engine's explanation. Its helpers come from harness.mjs.

import { h, test, expect, GAMES } from './harness.mjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const LESSONS_DIR = new URL('../../lessons/', import.meta.url);

function lessonFile(game) {
  return JSON.parse(readFileSync(new URL(`${game}.json`, LESSONS_DIR), 'utf8'));
}

/** The cell names of the board, in the order a notation names them (longest names first, a name
 * neither continuing nor continued by a letter or digit), as a player reads a notation. */
function cellsOf(notation, names) {
  const sorted = [...new Set(names)].sort((a, b) => b.length - a.length);
  const out = [];
  let i = 0;
  while (i < notation.length) {
    const before = i > 0 ? notation[i - 1] : '';
    const after = (n) => notation[i + n.length] ?? '';
    // Coordinates (`h5`, `1,1`) must not continue a number; words (`kaul`) must stand alone.
    const fits = (n) => /[0-9]$/.test(n)
      ? !/[0-9]/.test(after(n)) && !(/^[0-9]/.test(n) && /[0-9]/.test(before))
      : !/[A-Za-z0-9]/.test(after(n)) && !/[A-Za-z0-9]/.test(before);
    const hit = sorted.find((n) => notation.startsWith(n, i) && fits(n));
    if (hit) {
      out.push(hit);
      i += hit.length;
    } else {
      i += 1;
    }
  }
  return out;
}

function learnTests({ test, newPage, base, assert, until, noConsoleErrors, ARTIFACTS }) {
  const moves = async (page) => Number(await page.locator('[data-testid=lesson]').getAttribute('data-moves'));
  const idle = async (page) => {
    // Not busy, and no piece still sliding into place (it is clicked where it stands).
    await page.waitForFunction(() => document.querySelector('[data-testid=lesson]')?.getAttribute('data-busy') !== '1'
      && !document.querySelector('[data-testid=board] svg .moving'), null, { timeout: 20000, polling: 'raf' })
      .catch(() => { throw new Error('the lesson page stayed busy for 20 s'); });
  };

  async function openLesson(page, game, n) {
    await page.goto(`${base()}/learn/${game}/${n}`);
    await expect(page.locator(`[data-testid=lesson][data-n="${n}"]`)).toBeVisible({ timeout: 20000 });
    await expect(page.locator('[data-testid=lesson-goal]')).toBeVisible({ timeout: 20000 });
  }

  /** Plays one action of the solution by clicking: the cells its notation names, in order, on the
   * board, then the button of exactly this action when the page asks to choose (or names no cell). */
  async function playStep(page, notation) {
    const before = await moves(page);
    const names = await page.$$eval('[data-testid=board] [data-cell]', (els) => els.map((e) => e.getAttribute('data-cell')));
    const cells = cellsOf(notation, names);
    const done = async () => (await moves(page)) > before;
    const button = async () => {
      const b = page.locator('[data-testid=lesson-actions] button[data-notation]').filter({ hasText: notation }).and(page.locator(`[data-notation="${notation.replace(/"/g, '\\"')}"]`));
      if (await b.count()) {
        await b.first().click();
        await idle(page);
        return true;
      }
      return false;
    };
    if (!cells.length) {
      assert(await button(), `no button for "${notation}"`);
    } else {
      for (const c of cells) {
        if (await done()) break;
        if (await button()) break;
        await page.locator(`[data-testid=board] [data-cell="${c}"]`).first().click({ force: true });
        await idle(page);
      }
      if (!(await done())) await button();
    }
    const refusal = page.locator('[data-testid=lesson-refusal]');
    if (await refusal.count()) throw new Error(`"${notation}" was refused: ${await refusal.textContent()}`);
    assert(await done(), `"${notation}" could not be played by clicking (cells ${cells.join(', ')})`);
  }

  return async function run(games) {
    const present = games.map((g) => g.id);

    test('learn: /learn lists the five games with their lesson counts', async () => {
      const page = await newPage('learn');
      try {
        await page.goto(`${base()}/learn`);
        await expect(page.locator('[data-testid=learn-game]').first()).toBeVisible({ timeout: 20000 });
        for (const g of present) {
          const want = lessonFile(g).lessons.length;
          const card = page.locator(`[data-testid=learn-game][data-game="${g}"]`);
          await expect(card.locator('[data-testid=lesson-count]'), `${g}: the index counts the file's lessons`).toHaveText(`${want} lessons`);
        }
        // Every game the server offers is listed.
        const offered = (await (await fetch(`${base()}/api/catalog`)).json()).games.length;
        await expect(page.locator('[data-testid=learn-game]'), 'every game is listed').toHaveCount(offered);
        // The lobby's game cards link to the guides.
        await page.goto(`${base()}/`);
        await page.locator(`[data-testid=how-to-play-${present[0]}]`).click();
        await expect(page.locator(`[data-testid=guide][data-game="${present[0]}"]`)).toBeVisible({ timeout: 20000 });
        await noConsoleErrors(page);
      } finally {
        await page.context().close();
      }
    });

    for (const [label, width, height] of [['desktop', 1280, 800], ['phone', 390, 844]]) {
      test(`learn: every guide diagram is drawn (${label} ${width}x${height})`, async () => {
        const page = await newPage(`guide-${label}`);
        await page.setViewportSize({ width, height });
        try {
          for (const g of present) {
            await page.goto(`${base()}/learn/${g}`);
            await expect(page.locator(`[data-testid=guide][data-game="${g}"]`)).toBeVisible({ timeout: 20000 });
            const total = await page.locator('[data-testid=diagram]').count();
            assert(total > 0, `${g}: the guide has no diagram`);
            // Every diagram drawn, or one failed (then say why).
            await page.waitForFunction((n) => document.querySelectorAll('[data-testid=diagram][data-state=drawn]').length >= n
              || document.querySelector('[data-testid=diagram][data-state=error]') !== null, total, { timeout: 30000, polling: 'raf' });
            if (await page.locator('[data-testid=diagram][data-state=error]').count()) {
              throw new Error(`${g}: a diagram failed: ${await page.locator('[data-testid=diagram][data-state=error]').first().textContent()}`);
            }
            for (const d of await page.locator('[data-testid=diagram]').all()) {
              const lesson = await d.getAttribute('data-lesson');
              assert((await d.getAttribute('data-state')) === 'drawn', `${g}: the diagram of lesson ${lesson} was not drawn`);
              const svg = d.locator('svg').first();
              assert(await svg.count(), `${g}: the diagram of lesson ${lesson} has no SVG`);
              const shapes = await svg.locator('rect, polygon, circle, path, text').count();
              assert(shapes > 10, `${g}: the diagram of lesson ${lesson} is an empty SVG (${shapes} shapes)`);
              const box = await svg.boundingBox();
              assert(box && box.width > 100 && box.height > 80 && box.width <= width, `${g}: the diagram of lesson ${lesson} is ${box?.width}x${box?.height} on a ${width} px screen`);
            }
            await page.screenshot({ path: join(ARTIFACTS, `learn-guide-${g}-${label}.png`), fullPage: true });
          }
          await noConsoleErrors(page);
        } finally {
          await page.context().close();
        }
      });
    }

    if (present.includes('kyo')) {
      test('learn: a newcomer\'s "Play vs AI" is against the gentlest AI and says so; the first finished game suggests a lesson', async () => {
        const page = await newPage('learn-newcomer');
        try {
          await page.goto(`${base()}/`);
          await page.locator('[data-testid=play-ai-kyo]').click();
          await page.waitForURL((u) => u.pathname.startsWith('/game/'), { timeout: 20000 });
          const banner = page.locator('[data-testid=gentle-ai]');
          await expect(banner).toBeVisible({ timeout: 20000 });
          assert(/level 1/.test((await banner.textContent()) ?? ''), 'the banner does not name level 1');
          assert(await page.locator('[data-seat]', { hasText: 'AI level 1' }).count(), 'the AI seat is not level 1');
          await expect(page.locator('[data-testid=how-to-play]')).toBeVisible({ timeout: 20000 });
          // The first finished game of a kind suggests the next lesson not solved on this device.
          await page.locator('button', { hasText: 'Resign' }).click();
          await page.locator('dialog[open] button[data-value=yes]').click();
          const over = page.locator('dialog[open]', { has: page.locator('[data-testid=result]') });
          await expect(over).toBeVisible({ timeout: 20000 });
          const suggestion = (await over.locator('[data-testid=suggest-lesson]').textContent({ timeout: 20000 })) ?? '';
          assert(/lesson 1\b/.test(suggestion), `the game-over dialog suggests "${suggestion}"`);
          await over.locator('button[data-value=learn]').click();
          await expect(page.locator('[data-testid=lesson][data-game=kyo][data-n="1"]')).toBeVisible({ timeout: 20000 });
          await expect(page.locator('[data-testid=lesson-goal]')).toBeVisible({ timeout: 20000 });
          await noConsoleErrors(page);
        } finally {
          await page.context().close();
        }
      });
    }

    test('learn: a wrong move gets the engine\'s explanation, then the hint leads on', async () => {
      const page = await newPage('learn-wrong');
      // The refusal is an HTTP 422, which the browser logs as a failed resource: expected here.
      page.allowNetworkErrors = true;
      try {
        await openLesson(page, 'kyo', 1);
        // The Heavy on D3 steps one square: a click on D6 is not a legal move.
        await page.locator('[data-testid=board] [data-cell="D3"]').first().click({ force: true });
        await page.locator('[data-testid=board] [data-cell="D6"]').first().click({ force: true });
        const refusal = page.locator('[data-testid=lesson-refusal]');
        await expect(refusal).toBeVisible({ timeout: 20000 });
        const text = (await refusal.textContent()) ?? '';
        assert(/step/i.test(text), `the refusal does not explain the rule: "${text}"`);
        assert((await moves(page)) === 0, 'the refused move was counted');
        await page.locator('[data-testid=lesson-hint]').click();
        const hint = (await page.locator('[data-testid=lesson-hint-move]').textContent()) ?? '';
        assert(hint === lessonFile('kyo').lessons[0].solution[0], `the hint shows "${hint}"`);
        await playStep(page, hint);
        await expect(page.locator('[data-testid=lesson-solved]')).toBeVisible({ timeout: 20000 });
        await page.screenshot({ path: join(ARTIFACTS, 'learn-lesson-kyo-1-solved.png'), fullPage: true });
        await noConsoleErrors(page);
      } finally {
        await page.context().close();
      }
    });

    test('learn: every lesson is solved by clicking its listed solution, and remembered', async () => {
      const page = await newPage('learn-walk');
      try {
        for (const g of present) {
          const file = lessonFile(g);
          for (const [i, lesson] of file.lessons.entries()) {
            const n = i + 1;
            await openLesson(page, g, n);
            for (const step of lesson.solution) {
              assert(typeof step === 'string', `${g} lesson ${n}: a solution step is not written in notation`);
              try {
                await playStep(page, step);
              } catch (e) {
                await page.screenshot({ path: join(ARTIFACTS, `learn-failure-${g}-${n}.png`), fullPage: true });
                throw new Error(`${g} lesson ${n} (${lesson.title}): ${e instanceof Error ? e.message : e}`);
              }
            }
            await expect(page.locator('[data-testid=lesson-solved]')).toBeVisible({ timeout: 20000 });
            if (n === 1) await page.screenshot({ path: join(ARTIFACTS, `learn-lesson-${g}-1-solved.png`), fullPage: true });
          }
          await page.goto(`${base()}/learn/${g}`);
          await expect(page.locator('[data-testid=lesson-list]')).toBeVisible({ timeout: 20000 });
          const done = await page.locator('[data-testid=lesson-done]').count();
          assert(done === file.lessons.length, `${g}: ${done} of ${file.lessons.length} lessons remembered as solved`);
        }
        await noConsoleErrors(page);
      } finally {
        await page.context().close();
      }
    });
  };
}

learnTests({ ...h, test })(GAMES);
