// The HTTP side of the server protocol (docs/protocol.md). Every call rejects with an Error whose message
// is the server's own error text, so the UI can show it as is.

import { viewRequest, type Position, type ViewCredential } from './logic/replay';
import { routes, type NoParams, type Route } from './wire/routes';

export { routes };

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

/** What a call of `route` sends: its path parameters, query, body and extra headers; the parameters
 * and body may be left out only where the route has none. */
export type Request<P, Q, B> = ([keyof P] extends [never] ? { params?: NoParams } : { params: P })
  & ([B] extends [undefined] ? { body?: undefined } : { body: B })
  & { query?: Q; headers?: Record<string, string> };

/** The address of `route` with its path parameters (each URI-encoded) and its query's defined values. */
export function routePath(route: { path: string }, params?: unknown, query?: unknown): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
  const q = Object.entries(query ?? {}).filter(([, v]) => v !== undefined && v !== null);
  return q.length ? `${path}?${new URLSearchParams(q.map(([k, v]) => [k, String(v)])).toString()}` : path;
}

/** The arguments after the route: the request, which may be left out when nothing in it is required. */
export type RequestArgs<P, Q, B> = Record<never, never> extends Request<P, Q, B> ? [req?: Request<P, Q, B>] : [req: Request<P, Q, B>];

/** A call of a route of the API (`routes` in `web/src/wire/routes.ts`, generated from the server's
 * OpenAPI document): the checker ties its parameters, body and answer to the wire's types. */
export type Call = <P, Q, B, R>(route: Route<P, Q, B, R>, ...req: NoInfer<RequestArgs<P, Q, B>>) => Promise<R>;

export const api: { call: Call } = {
  call: <P, Q, B, R>(route: Route<P, Q, B, R>, ...[req]: NoInfer<RequestArgs<P, Q, B>>): Promise<R> => {
    const path = routePath(route, req?.params, req?.query);
    // The server takes a JSON body with every POST and DELETE (an empty object when there is nothing to say).
    const body = route.method === 'GET' ? undefined : req?.body ?? {};
    return call<R>(route.method, path, body, req?.headers);
  },
};

/** The fetcher of replay positions (`GET /api/games/{id}/view/{n}`) for a seat or a spectator. */
export function positionFetcher(id: string, cred: ViewCredential | null): (n: number) => Promise<Position> {
  return async (n) => {
    const { query, headers } = viewRequest(cred);
    return api.call(routes['GET /api/games/{id}/view/{n}'], { params: { id, n }, query, headers });
  };
}
