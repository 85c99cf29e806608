// The signed-in account of this browser (docs/protocol.md, Accounts): who it is, its CSRF token, and
// how many of its games await a move. The top bar and the pages listen to its changes.

import { api, ApiError, routes, setCsrf } from './api';
import { allSeats, loadSeats, saveSeat } from './store';
import type { Claim } from './wire/server/Claim';
import type { Credentials } from './wire/server/Credentials';
import type { Deletion } from './wire/server/Deletion';
import type { MyGame } from './wire/server/MyGame';
import type { MyGames } from './wire/server/MyGames';
import type { PasswordChange } from './wire/server/PasswordChange';
import type { SignedIn } from './wire/server/SignedIn';

export type { MyGame, MyGames };

/** Who is signed in and the session's CSRF token (`GET /api/session`, or signing in). */
export type SessionInfo = SignedIn;

type Listener = () => void;

let session: SessionInfo | null = null;
let awaiting = 0;
const listeners = new Set<Listener>();

function changed(): void {
  for (const l of listeners) l();
}

/** Calls `l` at every change of the session or of the count of games awaiting a move. */
export function onAccountChange(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function currentSession(): SessionInfo | null {
  return session;
}

export function awaitingCount(): number {
  return awaiting;
}

/** This browser's note that it signed in (the session cookie itself is out of the page's reach): a page
 * load asks the server for the session only then, so an anonymous visit makes no failing request. */
const HINT = 'tabula:signed-in';

function hinted(): boolean {
  try {
    return localStorage.getItem(HINT) !== null;
  } catch {
    return true; // storage disabled: ask the server
  }
}

function setSession(s: SessionInfo | null): void {
  session = s;
  setCsrf(s?.csrf ?? null);
  if (!s) awaiting = 0;
  try {
    if (s) localStorage.setItem(HINT, s.name);
    else localStorage.removeItem(HINT);
  } catch {
    /* storage disabled: every page load asks */
  }
  changed();
}

/** Asks the server who is signed in (after a page load, if this browser signed in; or always, with
 * `force`: a request was refused for want of the CSRF token, so a session cookie exists). */
export async function loadSession(force = false): Promise<SessionInfo | null> {
  if (!force && !hinted()) return null;
  try {
    setSession(await api.call(routes['GET /api/session']));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) setSession(null);
    else throw e;
  }
  return session;
}

/** Signs up (`create`) or in; then claims the anonymous seats this browser holds into the account. */
export async function signIn(name: string, password: string, create: boolean): Promise<SessionInfo> {
  const body: Credentials = { name, password };
  const s = create ? await api.call(routes['POST /api/account'], { body }) : await api.call(routes['POST /api/session'], { body });
  setSession(s);
  await claimSeats();
  await adoptTokens().catch(() => undefined);
  await refreshMyGames().catch(() => undefined);
  return s;
}

/** Renews the tokens this browser keeps for the account's seats from `GET /api/me/games`: a password
 * change replaces every seat token of the account (docs/protocol.md, Accounts), so the ones stored
 * here before it play no more. Only seats this browser already holds are touched. */
export async function adoptTokens(): Promise<number> {
  const mine = await api.call(routes['GET /api/me/games']);
  let n = 0;
  for (const g of [...mine.games, ...mine.finished]) {
    const held = loadSeats(g.id).find((c) => c.seat === g.seat);
    if (held && held.token !== g.token) {
      saveSeat(g.id, { seat: g.seat, token: g.token });
      n++;
    }
  }
  return n;
}

/** Binds every seat this browser holds anonymously to the signed-in account (`POST /api/me/seats`),
 * so that they show under My games on every device. A seat that cannot be claimed (a finished or
 * forgotten game, a rated game, a seat another account holds) is left as it is. Returns how many were
 * claimed. */
export async function claimSeats(): Promise<number> {
  // The seats the account holds already (taken while signed in, or claimed before) are skipped.
  const held = new Set<string>();
  try {
    const mine = await api.call(routes['GET /api/me/games']);
    for (const g of [...mine.games, ...mine.finished]) held.add(`${g.id}/${g.seat}`);
  } catch {
    /* claim them all */
  }
  let n = 0;
  for (const { id, seats } of allSeats()) {
    for (const c of seats) {
      if (held.has(`${id}/${c.seat}`)) continue;
      try {
        const claim: Claim = { game: id, seat: c.seat, token: c.token };
        await api.call(routes['POST /api/me/seats'], { body: claim });
        n++;
      } catch {
        /* not claimable: see above */
      }
    }
  }
  return n;
}

export async function signOut(): Promise<void> {
  await api.call(routes['DELETE /api/session']);
  setSession(null);
}

export async function changePassword(current: string, next: string): Promise<void> {
  const change: PasswordChange = { current, new: next };
  await api.call(routes['POST /api/account/password'], { body: change });
  // Every seat of the account has a new token now: keep this browser's seats playable.
  await adoptTokens().catch(() => undefined);
}

export async function deleteAccount(password: string): Promise<void> {
  const deletion: Deletion = { password };
  await api.call(routes['DELETE /api/account'], { body: deletion });
  setSession(null);
}

/** The signed-in player's games; updates the count of those awaiting a move. */
export async function refreshMyGames(): Promise<MyGames | null> {
  if (!session) return null;
  try {
    const g = await api.call(routes['GET /api/me/games']);
    if (g.awaiting !== awaiting) {
      awaiting = g.awaiting;
      changed();
    }
    return g;
  } catch (e) {
    // The session ended elsewhere (signed out, password changed, account deleted).
    if (e instanceof ApiError && e.status === 401) setSession(null);
    throw e;
  }
}

/** The tab title: the count of games awaiting a move first, as "(2) Tabula". */
export function titleWith(count: number, base = 'Tabula'): string {
  return count > 0 ? `(${count}) ${base}` : base;
}
