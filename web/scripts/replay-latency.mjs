// Measures the replay endpoint as the web client uses it: an AI-vs-AI game is created on a running
// `tabula serve`, played to 300 actions (or its end), then 30 positions spread over it are fetched one at
// a time (spaced to stay under the per-IP rate limit) and the request times are summarised.
//   tabula serve --addr 127.0.0.1:18933 --data-dir "$(mktemp -d)" &
//   BASE=http://127.0.0.1:18933 GAME=kyo node web/scripts/replay-latency.mjs
const base = process.env.BASE ?? 'http://127.0.0.1:8080';
const game = process.env.GAME ?? 'kyo';
const r = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game, seats: [{ kind: 'ai', level: 1 }, { kind: 'ai', level: 1 }], seed: 7 }) });
const g = await r.json();
let snap;
for (let i = 0; i < 600; i++) {
  snap = await (await fetch(`${base}/api/games/${g.id}`)).json();
  if (snap.status === 'over' || snap.events.filter((e) => e.kind === 'action').length >= 300) break;
  await new Promise((r) => setTimeout(r, 100));
}
const total = snap.events.filter((e) => e.kind === 'action').length;
console.log(game, 'status', snap.status, 'actions', total);
const times = [];
for (let n = total; n >= 0 && times.length < 30; n -= Math.max(1, Math.floor(total / 30))) {
  const t = performance.now();
  const res = await fetch(`${base}/api/games/${g.id}/view/${n}`);
  await res.text();
  times.push(performance.now() - t);
  if (!res.ok) console.log('status', res.status);
  await new Promise((r) => setTimeout(r, 60)); // stay under the per-IP rate limit
}
times.sort((a, b) => a - b);
console.log(`view/{n}: ${times.length} requests, median ${times[Math.floor(times.length / 2)].toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
