// A move tried while the connection is down: the page says so in words, holds the move, and sends it
// on the seat's connection once that is back (the server then plays it, or refuses it plainly if the
// position changed meanwhile). No DOM; the controller owns one (ctrl.ts).

import type { JsonValue } from '../../wire/serde_json/JsonValue';
import { routes, type Call } from '../../api';
import type { SeatCredential } from '../../store';

/** What the page says of a move tried while the connection is down. */
export const OFFLINE_MOVE = 'You are offline — your move will be sent when the connection returns';

/** An action as the page sends it: the JSON the server listed, or notation alone. */
export type ActionBody = { notation: string } | { action: JsonValue };

export class HeldMove {
  private held: { key: number; body: ActionBody } | null = null;

  /** Whether a move waits for its connection (the board offers nothing meanwhile). */
  get waiting(): boolean {
    return this.held !== null;
  }

  /** Holds `body` for connection `key` when `e` is no answer at all — fetch's TypeError, the
   * network being down — rather than a refusal; says whether it did. */
  holdIfOffline(e: unknown, key: number, body: ActionBody): boolean {
    if (!(e instanceof TypeError)) return false;
    this.held = { key, body };
    return true;
  }

  /** Connection `key` is back: the move held for it (no longer held), or null. */
  release(key: number): ActionBody | null {
    const h = this.held;
    if (!h || h.key !== key) return null;
    this.held = null;
    return h.body;
  }
}

/** Sends `body` over HTTP, the seat's socket being down (so the move is not lost). Resolves to null
 * when the server took it, OFFLINE_MOVE when the network is down too (the move is then held for
 * connection `key`), or the server's refusal. */
export async function postAction(call: Call, id: string, cred: SeatCredential, body: ActionBody, key: number, held: HeldMove): Promise<string | null> {
  try {
    await call(routes['POST /api/games/{id}/action'], { params: { id }, body: { seat: cred.seat, token: cred.token, ...body } });
    return null;
  } catch (e) {
    if (held.holdIfOffline(e, key, body)) return OFFLINE_MOVE;
    return e instanceof Error ? e.message : String(e);
  }
}
