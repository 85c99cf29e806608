#!/usr/bin/env bash
# Installs what building and testing Tabula needs beyond Rust and Node: Debian's chromium (browser tests),
# postgresql (PostgreSQL tests), nginx (the multi-node test runs nodes behind it), and the web client's
# npm packages. Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# nginx-light: the proxy and upstream modules the tests use, without the system service's extras.
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || need+=(nginx-light)
if [ ${#need[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ -f web/package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
