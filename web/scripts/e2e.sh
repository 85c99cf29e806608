#!/usr/bin/env bash
# Browser end-to-end tests: @playwright/test driving Debian's chromium against a real `tabula serve`.
#   TABULA_BIN=target/debug/tabula bash web/scripts/e2e.sh [playwright test arguments, e.g. -g accounts]
# Installs chromium if missing (no browser is ever downloaded by Playwright), runs web/e2e/*.spec.mjs
# with web/playwright.config.mjs: each worker starts its own server on a free loopback port with a
# throwaway data dir (the reconnection test has a server of its own, which it restarts), and always
# stops it. Screenshots go to test-artifacts/ at the repository root (emptied at the start of every run,
# so it holds this run's files only), a failed test's trace to test-artifacts/results/. A browser console
# error fails its test. Ends with "N passed, N failed"; exits non-zero on any failure.
# E2E_TESTS=text runs only the tests whose names contain that text; E2E_WORKERS=1 runs them one by one.
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

if [ ! -d "$here/node_modules/@playwright/test" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

# This run's screenshots only: empty the artifacts folder (that folder and nothing else).
artifacts="$root/test-artifacts"
rm -rf -- "$artifacts"
mkdir -p -- "$artifacts"

args=("$@")
if [ -n "${E2E_TESTS:-}" ]; then
  # A literal part of the test names, as a regular expression for --grep.
  args+=(--grep "$(printf '%s' "$E2E_TESTS" | sed 's/[][\\.*^$+?(){}|/]/\\&/g')")
fi

cd "$here"
TABULA_BIN="$TABULA_BIN" ARTIFACTS="$artifacts" exec npx --no-install playwright test "${args[@]}"
