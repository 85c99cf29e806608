#!/usr/bin/env bash
# Tabula's one test command. On a fresh Debian machine with Rust and Node it installs what the tests need
# (Debian's chromium and postgresql, the web client's npm packages), then runs, in order:
#   1. cargo fmt --check            2. cargo clippy --all-targets -D warnings, cargo doc -D warnings
#   3. every Rust test of the workspace (unit, property, integration, server over real sockets), with a
#      throwaway PostgreSQL cluster on loopback so the PostgreSQL tests run too
#   4. the web client's unit tests (vitest)
#   5. the browser end-to-end tests (@playwright/test driving Debian's chromium against `tabula serve`)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# The test run builds each crate once: incremental compilation's caches would only take disk (3 GB of a
# clean run's 6.5 GB target directory).
export CARGO_INCREMENTAL=0

# Each step names itself and the disk left where the build goes, so a run that fills the disk says so.
step() {
  printf '\n==> %s\n' "$*"
  df -h "$root" 2>/dev/null | awk 'NR == 2 { print "    (disk: " $4 " free of " $2 ")" }' || true
}

step "installing test dependencies"
bash scripts/install-deps.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy --all-targets -- -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc (workspace, broken links and other doc warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

step "cargo test (workspace, with PostgreSQL)"
bash crates/server/scripts/with-postgres.sh cargo test --workspace --locked

step "web unit tests"
(cd web && npm test)

step "browser end-to-end tests"
cargo build --locked -p tabula
TABULA_BIN="$root/target/debug/tabula" bash web/scripts/e2e.sh
step "done"
