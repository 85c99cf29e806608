#!/usr/bin/env bash
# Browser end-to-end tests: Debian's chromium driven by playwright-core against a real `tabula serve`.
#   TABULA_BIN=target/debug/tabula bash web/scripts/e2e.sh
# Installs chromium if missing, starts the server on a free loopback port with a throwaway data dir
# (the test runner restarts it once to test reconnection), saves screenshots to test-artifacts/ at the
# repository root (emptied at the start of every run, so it holds this run's screenshots only), fails
# on any browser console error, always stops the server, and ends with "N passed, N failed".
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/.." && pwd)"

if [ -z "${TABULA_BIN:-}" ]; then
  echo "e2e: set TABULA_BIN to the tabula binary (e.g. TABULA_BIN=target/debug/tabula)" >&2
  exit 2
fi
case "$TABULA_BIN" in /*) ;; *) TABULA_BIN="$(pwd)/$TABULA_BIN" ;; esac
if [ ! -x "$TABULA_BIN" ]; then
  echo "e2e: $TABULA_BIN is not an executable" >&2
  exit 2
fi

if [ ! -x /usr/bin/chromium ]; then
  echo "e2e: installing Debian's chromium"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

data_dir="$(mktemp -d)"
# This run's screenshots only: empty the artifacts folder (that folder and nothing else).
artifacts="$root/test-artifacts"
rm -rf -- "$artifacts"
mkdir -p -- "$artifacts"
cleanup() { rm -rf "$data_dir"; }
trap cleanup EXIT

# The runner owns the server process (it must restart it mid-test) and always stops it.
TABULA_BIN="$TABULA_BIN" DATA_DIR="$data_dir" ARTIFACTS="$artifacts" \
  node "$here/e2e/run.mjs"
