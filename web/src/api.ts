// The HTTP side of the server protocol (docs/protocol.md). Every call rejects with an Error whose message
// is the server's own error text, so the UI can show it as is.

import { viewRequest, type Position, type ViewCredential } from './logic/replay';

/** The message of an error response: `{"error": {"code", "message"}}` (docs/protocol.md), or its text. */
export function errorMessage(data: unknown, status: number, statusText: string): string {
  if (typeof data === 'object' && data !== null && 'error' in data) {
    const e = (data as { error: unknown }).error;
    if (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string') {
      return (e as { message: string }).message;
    }
    if (typeof e === 'string') return e;
  }
  if (typeof data === 'string' && data) return data;
  return `${status} ${statusText}`.trim();
}

/** The signed-in session's CSRF token (docs/protocol.md, Accounts), sent with every state-changing
 * request: the server refuses a request that its session cookie authorises without it. */
let csrf: string | null = null;

export function setCsrf(token: string | null): void {
  csrf = token;
}

/** Called when a request was refused for want of the CSRF token (this page did not know the session,
 * e.g. signed in from another tab): learns the session's token; true if there is one. */
let csrfRecovery: (() => Promise<boolean>) | null = null;

export function onCsrfRefused(f: () => Promise<boolean>): void {
  csrfRecovery = f;
}

/** An error with the server's error code (`{"error": {"code"}}`), when it gave one. */
export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly code: string | null) {
    super(message);
  }
}

/** The code of an error response, or null. */
export function errorCode(data: unknown): string | null {
  if (typeof data === 'object' && data !== null && 'error' in data) {
    const e = (data as { error: unknown }).error;
    if (typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string') return (e as { code: string }).code;
  }
  return null;
}

async function call<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}, retry = true): Promise<T> {
  const headers: Record<string, string> = body === undefined ? { ...extra } : { 'content-type': 'application/json', ...extra };
  if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok && retry && errorCode(data) === 'csrf' && csrfRecovery && (await csrfRecovery())) {
    return call<T>(method, path, body, extra, false);
  }
  if (!res.ok) throw new ApiError(errorMessage(data, res.status, res.statusText), res.status, errorCode(data));
  return data as T;
}

export const api = {
  get: <T>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  // The server takes a JSON body with every DELETE (an empty object when there is nothing to say).
  delete: <T>(path: string, body?: unknown) => call<T>('DELETE', path, body ?? {}),
};

/** The fetcher of replay positions (`GET /api/games/{id}/view/{n}`) for a seat or a spectator. */
export function positionFetcher(id: string, cred: ViewCredential | null): (n: number) => Promise<Position> {
  return async (n) => {
    const { path, headers } = viewRequest(id, n, cred);
    return api.get<Position>(path, headers);
  };
}
