// Helpers of the gesture browser tests (gesture.spec.mjs, followup.spec.mjs): the server's HTTP API
// as a test drives the other seats with it, and a record of the actions a page sends over its socket.

/** The helpers, bound to the running test's server (`base`) and the harness's `until` and `assert`. */
export function gestureApi({ base, until, assert }) {
  /** An HTTP call; a `429` (the address spent its request budget: a test playing a long game over
   * HTTP) is asked again until the budget lets it through. */
  async function api(method, path, body) {
    let r = null;
    await until(async () => {
      r = await fetch(`${base()}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return r.status !== 429;
    }, `the server to take ${method} ${path} (rate limit)`, 60000);
    const data = await r.json().catch(() => null);
    return { status: r.status, data };
  }

  /** A game of `game` for two people on this device's seats; returns its id and both seats' tokens
   * and links. */
  async function forTwo(game, options = {}) {
    const r = await api('POST', '/api/games', { game, options, seats: [{ kind: 'human' }, { kind: 'human' }], host_seats: [0, 1], public: false });
    assert(r.status === 201, `the game was not created: ${r.status} ${JSON.stringify(r.data)}`);
    return r.data;
  }

  /** The seat's snapshot over HTTP. */
  async function snapOf(id, seat) {
    const r = await api('GET', `/api/games/${id}?seat=${seat.seat}&token=${seat.token}`);
    assert(r.status === 200, `no snapshot: ${r.status}`);
    return r.data;
  }

  async function act(id, seat, notation) {
    const r = await api('POST', `/api/games/${id}/action`, { seat: seat.seat, token: seat.token, notation });
    assert(r.status === 200, `${notation} was refused: ${r.status} ${JSON.stringify(r.data)}`);
  }

  /** Records every action the page sends over its socket. */
  function recordSent(page) {
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => {
      try {
        const msg = JSON.parse(String(payload));
        if (msg.type === 'action') sent.push(msg);
      } catch { /* not JSON */ }
    }));
    return sent;
  }

  return { api, forTwo, snapOf, act, recordSent };
}
