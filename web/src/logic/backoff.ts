// Reconnect delays: quick at first, then exponential up to a cap, with jitter so that many clients
// reconnecting after a server restart do not all arrive at once.

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8000, 250 * 2 ** Math.max(0, attempt));
  const jitter = 0.5 + random() * 0.5;
  return Math.round(base * jitter);
}
