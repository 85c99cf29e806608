#!/usr/bin/env bash
# Runs a throwaway multi-node site on loopback: N `tabula serve` nodes on one PostgreSQL database and
# nginx in front (deploy/nginx/tabula-proxy.conf), for trying the multi-node setup without Docker and
# for measuring it (BENCHMARKS.md):
#
#   crates/server/scripts/with-postgres.sh deploy/local-cluster.sh 3 -- \
#       target/release/tabula loadtest --addr 127.0.0.1:8090 --games 200 --rate 0
#
# Arguments: the number of nodes (default 3), then optionally `--` and a command to run against the
# site; without one it serves until Ctrl-C. The database: $DATABASE_URL, else
# $TABULA_TEST_POSTGRES_URL (set by with-postgres.sh). Environment: TABULA_BIN (default
# target/release/tabula), PROXY_PORT (nginx, default 8090), NODE_PORT (the first node's port, default
# 18081; the others follow), NODE_ARGS (more `tabula serve` flags). Logs and nginx's files go to a
# temporary directory that is printed (kept when a node failed to start). The command's exit status
# is returned.
set -euo pipefail
cd "$(dirname "$0")/.."

NODES="${1:-3}"
[ $# -gt 0 ] && shift
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
case "$NODES" in ''|*[!0-9]*) echo "local-cluster: the number of nodes must be a number, not '$NODES'" >&2; exit 2;; esac
[ "$NODES" -ge 1 ] || { echo "local-cluster: at least one node" >&2; exit 2; }

DB="${DATABASE_URL:-${TABULA_TEST_POSTGRES_URL:-}}"
[ -n "$DB" ] || { echo "local-cluster: no database: set DATABASE_URL or run under crates/server/scripts/with-postgres.sh" >&2; exit 2; }
BIN="${TABULA_BIN:-target/release/tabula}"
[ -x "$BIN" ] || { echo "local-cluster: no executable $BIN (cargo build --release -p tabula, or set TABULA_BIN)" >&2; exit 2; }
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$NGINX" ] || { echo "local-cluster: nginx is not installed (bash scripts/install-deps.sh)" >&2; exit 2; }
PROXY_PORT="${PROXY_PORT:-8090}"
NODE_PORT="${NODE_PORT:-18081}"

DIR="$(mktemp -d /tmp/tabula-cluster.XXXXXX)"
mkdir -p "$DIR/logs"
PIDS=()
cleanup() {
  [ -f "$DIR/nginx.pid" ] && "$NGINX" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/logs/error.log" -s quit 2>/dev/null || true
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The nodes' shared secret for the requests they forward to each other (a fresh one per run).
CLUSTER_SECRET="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
servers=""
for i in $(seq 0 $((NODES - 1))); do
  port=$((NODE_PORT + i))
  servers+="        server 127.0.0.1:$port max_fails=2 fail_timeout=5s;"$'\n'
  # shellcheck disable=SC2086
  "$BIN" serve --addr "127.0.0.1:$port" --database "$DB" --trusted-proxy 127.0.0.1 \
    --advertise "http://127.0.0.1:$port" --cluster-secret "$CLUSTER_SECRET" ${NODE_ARGS:-} \
    > "$DIR/logs/node$((i + 1)).log" 2>&1 &
  PIDS+=($!)
done

cp deploy/nginx/tabula-proxy.conf "$DIR/"
cat > "$DIR/nginx.conf" <<CONF
worker_processes 1;
pid $DIR/nginx.pid;
events { worker_connections 8192; }
http {
    map \$http_upgrade \$connection_upgrade { default upgrade; '' ''; }
    limit_conn_zone \$binary_remote_addr zone=tabula_per_ip:10m;
    access_log off;
    error_log $DIR/logs/error.log warn;
    upstream tabula {
        least_conn;
$servers        keepalive 64;
    }
    server {
        listen 127.0.0.1:$PROXY_PORT;
        client_max_body_size 5m;
        location / { include $DIR/tabula-proxy.conf; }
    }
}
CONF
# The load test's clients all come from 127.0.0.1: lift nginx's per-client cap for them.
sed -i 's/limit_conn tabula_per_ip 256;/limit_conn tabula_per_ip 20000;/' "$DIR/tabula-proxy.conf"
"$NGINX" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/logs/error.log"

for i in $(seq 0 $((NODES - 1))); do
  port=$((NODE_PORT + i)); ok=""
  for _ in $(seq 1 300); do
    if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then ok=1; break; fi
    if ! kill -0 "${PIDS[$i]}" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if [ -z "$ok" ]; then
    echo "local-cluster: node $((i + 1)) did not start; its log:" >&2
    tail -n 20 "$DIR/logs/node$((i + 1)).log" >&2
    trap - EXIT; cleanup; exit 1
  fi
done
echo "local-cluster: $NODES node(s) on 127.0.0.1:$NODE_PORT.., nginx on http://127.0.0.1:$PROXY_PORT (logs: $DIR/logs)" >&2
echo "local-cluster: node pids: ${PIDS[*]}" >&2

if [ $# -gt 0 ]; then
  set +e
  "$@"
  rc=$?
  set -e
  exit $rc
fi
wait
