#!/usr/bin/env bash
# The server's memory per *played* game (issue 35, item 3): a fresh server on a throwaway SQLite data
# directory, GAMES Kyo games played by `tabula loadtest` (two WebSocket clients each, random legal
# actions) for SECONDS at RATE actions per second in all, then left alone. Prints the server's
# resident memory (RSS) before, at its peak while the games were played (sockets open), right after
# (sockets closed, the games still in memory), and once the games have left memory (finished games at
# the next minute's sweep, unfinished ones 5 minutes after their last action), each with the figure
# per game over the start.
# Usage: scripts/server-memory-played.sh [BIN] [GAMES] [RATE] [SECONDS]
#   e.g. scripts/server-memory-played.sh target/release/tabula 1000 1500 90
set -euo pipefail
BIN=${1:-target/release/tabula}
GAMES=${2:-1000}
RATE=${3:-1500}
SECONDS_PLAYED=${4:-90}
PORT=${PORT:-18556}
DIR=$(mktemp -d)
URL=http://127.0.0.1:$PORT
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$DIR"' EXIT

kib() { awk -v k="$1" '/^'"$1"':/ {print $2}' "/proc/$PID/status"; }
per_game() { awk -v a="$1" -v b="$2" -v n="$GAMES" 'BEGIN {printf "%.1f KiB per game", (a - b) / n}'; }

"$BIN" serve --addr 127.0.0.1:$PORT --data-dir "$DIR" --http-rate 100000 >"$DIR/serve.log" 2>&1 &
PID=$!
for _ in $(seq 600); do curl -sf "$URL/healthz" >/dev/null && break; sleep 0.1; done
curl -sf "$URL/healthz" >/dev/null || { echo "the server did not start" >&2; exit 1; }
start=$(kib VmRSS)
echo "after start: RSS $start KiB"
"$BIN" loadtest --addr 127.0.0.1:$PORT --games "$GAMES" --rate "$RATE" --duration "$SECONDS_PLAYED" \
  --server-pid "$PID" || echo "(the load test reported errors; figures below are still the server's)"
peak=$(kib VmHWM)
after=$(kib VmRSS)
echo "peak while playing (sockets open): RSS $peak KiB, $(per_game "$peak" "$start")"
echo "right after (sockets closed, games in memory): RSS $after KiB, $(per_game "$after" "$start")"
sleep 75
echo "75 s later (finished games left memory): RSS $(kib VmRSS) KiB, $(per_game "$(kib VmRSS)" "$start")"
sleep 300
echo "6 min later (every game left memory): RSS $(kib VmRSS) KiB, $(per_game "$(kib VmRSS)" "$start")"
