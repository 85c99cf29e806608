// The browser tests (e2e/*.spec.mjs) on @playwright/test, run by scripts/e2e.sh against `tabula serve`
// ($TABULA_BIN) in Debian's Chromium: no browser is downloaded. Retries are off so that flakiness shows;
// a failed test keeps its trace and screenshots under test-artifacts/results/.
import { defineConfig } from '@playwright/test';
import { ARTIFACTS, DESKTOP, launchOptions } from './e2e/env.mjs';

export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.mjs',
  outputDir: `${ARTIFACTS}/results`,
  globalSetup: './e2e/global-setup.mjs',
  // Two workers (each with its own server and browser) on a 2-core machine; E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  // Some scenarios play whole games against the AI or wait for the engine's analysis (a debug build).
  timeout: 10 * 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['./e2e/summary-reporter.mjs']],
  use: {
    viewport: DESKTOP,
    launchOptions,
    headless: true,
    acceptDownloads: true,
    // A failed test's trace (DOM snapshots and screenshots of every step). Recording it costs: on this
    // machine the slowest tests took 1.5-1.8x as long as with E2E_TRACE=off (see web/README.md).
    trace: process.env.E2E_TRACE ?? 'retain-on-failure',
  },
  projects: [{ name: 'chromium' }],
});
