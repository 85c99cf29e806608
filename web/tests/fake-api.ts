// A fake of the HTTP API for controller tests: every call is recorded with its method, its address
// (the route's path with the parameters and query filled in, as the real client sends it), body and
// headers; an answer comes from `answer` when given, else the test settles the call itself.
import { routePath, type Call } from '../src/api';

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string> | undefined;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** `answer(call)`: the answer of a call (a value, or a promise), or undefined to leave it pending. */
export function fakeApi(answer?: (c: FakeCall) => unknown): { call: Call; calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  const call = ((route: { method: string; path: string }, req?: { params?: object; query?: object; body?: unknown; headers?: Record<string, string> }) =>
    new Promise<unknown>((resolve, reject) => {
      const c: FakeCall = { method: route.method, path: routePath(route, req?.params, req?.query), body: req?.body, headers: req?.headers, resolve, reject };
      calls.push(c);
      if (!answer) return;
      try {
        const got = answer(c);
        if (got !== undefined) Promise.resolve(got).then(resolve, reject);
      } catch (e) {
        reject(e);
      }
    })) as Call;
  return { call, calls };
}
