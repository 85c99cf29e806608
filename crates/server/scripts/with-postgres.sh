#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on loopback, and TABULA_TEST_POSTGRES_URL set:
#   crates/server/scripts/with-postgres.sh cargo test -p tabula-server
# Installs Debian's `postgresql` package if its binaries are missing (needs root for apt-get), starts a
# cluster under a temporary directory (as the `postgres` user when run as root: initdb refuses root),
# runs the command, then stops the cluster and removes it. The command's exit status is returned.
# It also sets TABULA_TEST_REQUIRE_POSTGRES=1: the PostgreSQL tests then fail, never skip, without a server.
# If PostgreSQL cannot be installed or started, the command is NOT run: the script says why and exits
# with status 3 (there is no silent fallback to a run without PostgreSQL).
set -u

find_bindir() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; fi
  done | sort -V | tail -n 1
}

fail() { echo "with-postgres: $*; not running the command" >&2; exit 3; }

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

BINDIR="$(find_bindir)"
if [ -z "$BINDIR" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "with-postgres: installing Debian's postgresql package..." >&2
    (apt-get install -y -q postgresql >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q postgresql >/dev/null 2>&1; }) \
      || echo "with-postgres: apt-get install postgresql failed" >&2
    BINDIR="$(find_bindir)"
  fi
fi
if [ -z "$BINDIR" ]; then
  fail "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; install Debian's postgresql package)"
fi

TMP="$(mktemp -d /tmp/tabula-pg.XXXXXX)"
chmod 755 "$TMP"
PGDATA="$TMP/data"
PORT=$(( 20000 + RANDOM % 20000 ))
AS=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres >/dev/null 2>&1
  chown postgres "$TMP"
  AS=(runuser -u postgres --)
fi

cleanup() {
  "${AS[@]}" "$BINDIR/pg_ctl" -D "$PGDATA" -m immediate stop >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT

if ! "${AS[@]}" "$BINDIR/initdb" -D "$PGDATA" -U tabula --auth=trust -E UTF8 >"$TMP/initdb.log" 2>&1; then
  cat "$TMP/initdb.log" >&2
  fail "initdb failed (its output is above)"
fi
if ! "${AS[@]}" "$BINDIR/pg_ctl" -D "$PGDATA" -l "$TMP/server.log" -w -t 60 \
     -o "-c listen_addresses=127.0.0.1 -p $PORT -k $TMP -c fsync=on -c max_connections=200" start >/dev/null 2>&1; then
  cat "$TMP/server.log" >&2
  fail "the PostgreSQL server did not start (its log is above)"
fi
"$BINDIR/createdb" -h 127.0.0.1 -p "$PORT" -U tabula tabula_test >/dev/null 2>&1 \
  || "${AS[@]}" "$BINDIR/createdb" -h 127.0.0.1 -p "$PORT" -U tabula tabula_test \
  || fail "createdb tabula_test failed"
export TABULA_TEST_POSTGRES_URL="postgres://tabula@127.0.0.1:$PORT/tabula_test"
export TABULA_TEST_REQUIRE_POSTGRES=1
echo "with-postgres: PostgreSQL running at $TABULA_TEST_POSTGRES_URL" >&2
"$@"
STATUS=$?
exit $STATUS
