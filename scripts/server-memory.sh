#!/usr/bin/env bash
# The server's memory and lobby latency with many stored games (issue 20, item 4): a fresh SQLite data
# directory gets LIVE running Kyo games (created over HTTP, both seats joined) and STORED - LIVE finished
# ones (one finished game played over HTTP, then copied in SQL under fresh ids); the server is restarted
# on it, and the script prints its resident memory after start-up and the lobby's answer times.
# Usage: scripts/server-memory.sh [BIN] [STORED] [LIVE]   (needs curl and sqlite3)
set -euo pipefail
BIN=${1:-target/release/tabula}
STORED=${2:-100000}
LIVE=${3:-1000}
PORT=${PORT:-18555}
DIR=$(mktemp -d)
URL=http://127.0.0.1:$PORT
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$DIR"' EXIT

start() {
  "$BIN" serve --addr 127.0.0.1:$PORT --data-dir "$DIR" --http-rate 100000 >/dev/null 2>&1 &
  PID=$!
  for _ in $(seq 600); do curl -sf "$URL/healthz" >/dev/null && return; sleep 0.1; done
  echo "the server did not start" >&2; exit 1
}
post() { curl -sf -X POST -H 'content-type: application/json' -d "$2" "$URL$1"; }

start
for _ in $(seq "$LIVE"); do
  post /api/games '{"game":"kyo","seats":[{"kind":"human"},{"kind":"human"}],"host_seats":[0,1]}' >/dev/null
done
done_game=$(post /api/games '{"game":"kyo","seats":[{"kind":"human"},{"kind":"human"}],"host_seats":[0,1]}')
id=$(sed 's/.*"id":"\([^"]*\)".*/\1/' <<<"$done_game")
token=$(sed 's/.*"token":"\([^"]*\)".*/\1/' <<<"$done_game")  # the last seat's (1)
post "/api/games/$id/resign" "{\"seat\":1,\"token\":\"$token\"}" >/dev/null
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=

copies=$((STORED - LIVE - 1))
sqlite3 "$DIR/tabula.sqlite3" <<SQL
CREATE TEMP TABLE ids AS
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $copies)
  SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
         substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' ||
         lower(hex(randomblob(6))) AS id FROM n;
INSERT INTO games (id, game, status, created_at, updated_at)
  SELECT ids.id, g.game, g.status, g.created_at, g.updated_at FROM ids, games g WHERE g.id = '$id';
INSERT INTO events (game_id, seq, at_ms, kind, data, node_id, epoch)
  SELECT ids.id, e.seq, e.at_ms, e.kind, e.data, e.node_id, e.epoch FROM ids, events e WHERE e.game_id = '$id';
SQL
echo "stored games: $(sqlite3 "$DIR/tabula.sqlite3" 'SELECT count(*) FROM games'), running: $(sqlite3 "$DIR/tabula.sqlite3" "SELECT count(*) FROM games WHERE status = 'running'")"

start
grep VmRSS /proc/$PID/status
for _ in $(seq 20); do curl -s -o /dev/null -w '%{time_total}\n' "$URL/api/lobby"; done | sort -n |
  awk '{t[NR] = $1} END {printf "lobby: min %.1f ms, median %.1f ms, max %.1f ms (%d requests)\n", t[1] * 1000, t[int((NR + 1) / 2)] * 1000, t[NR] * 1000, NR}'
grep VmRSS /proc/$PID/status
