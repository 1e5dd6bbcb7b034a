#!/usr/bin/env bash
# The README's test command: installs everything the tests need, then runs every suite.
# .ci/run calls this through `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s ===\n' "$1"; }

step "install dependencies (npm ci)"
npm ci --no-fund --no-audit

if [ ! -x /usr/bin/chromium ]; then
  step "install Debian's chromium for the browser tests"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
fi

step "type-check, lint, format"
npm run check

step "unit and API integration tests (PGlite always; PostgreSQL and Redis when reachable)"
npx vitest run

step "build the web app"
npm run build

step "browser end-to-end tests (Playwright in /usr/bin/chromium)"
npm run test:e2e

printf '\nAll suites passed.\n'
