#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the dashboard's browser tests
# (test/dashboard.test.ts drives it with playwright-core; no browser is ever downloaded).
# Quiet and quick when it is there already.
set -euo pipefail

log() { echo "ensure-chromium: $*" >&2; }

# shellcheck source=lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"

main() {
  [ -x /usr/bin/chromium ] && return 0
  apt_install chromium
  [ -x /usr/bin/chromium ] || { log "FAILED: /usr/bin/chromium is still missing after apt-get install chromium"; exit 1; }
  log "chromium is ready ($(/usr/bin/chromium --version 2>/dev/null || echo unknown))"
}

# Several test runs may start at once: one apt-get at a time.
exec 9>/tmp/drover-ensure-chromium.lock
flock -w 900 9 || { log "FAILED: could not take /tmp/drover-ensure-chromium.lock"; exit 1; }
main "$@"
