// The browser tests' settings, shared by playwright.config.mjs and the harness (no test API here: the
// configuration loads this file too).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** Where screenshots go: the repository's `test-artifacts/` (scripts/e2e.sh empties it first). */
export const ARTIFACTS = process.env.ARTIFACTS ?? resolve(here, '../../test-artifacts');
/** Moves played per game against the AI. */
export const MOVES = Number(process.env.E2E_MOVES ?? 30);
export const AI_LEVEL = process.env.E2E_AI_LEVEL ?? 1;
export const DESKTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };
/** The games the tests cover, in the catalog's order; a test checks that the server offers exactly these. */
export const ALL_GAMES = ['cyvasse-trump', 'cyvasse-caird', 'kyo', 'territories', 'syba'].map((id) => ({ id }));
/** The games tested this run: E2E_ONLY=kyo,syba narrows them. */
export const GAMES = ALL_GAMES.filter((g) => !process.env.E2E_ONLY || process.env.E2E_ONLY.split(',').includes(g.id));

const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
export const launchOptions = { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS };
