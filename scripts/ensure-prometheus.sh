#!/usr/bin/env bash
# Makes sure a Prometheus server binary is on this machine for the scrape test: installs
# Debian's prometheus when `prometheus` is missing. The test starts its own Prometheus on a free
# 127.0.0.1 port with its own configuration and storage; nothing is started here (Debian's
# package enables a service of its own, which the tests never use). Idempotent.
set -euo pipefail

log() { echo "ensure-prometheus: $*" >&2; }

# shellcheck source=lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"
# shellcheck source=lib/progress.sh
. "$(dirname "$0")/lib/progress.sh"
PROGRESS_NAME=ensure-prometheus

main() {
  if ! command -v prometheus >/dev/null 2>&1; then
    progress_total 1
    STEP_HINT="check that this machine reaches Debian's package mirror (\`apt-get update\` shows it), or install prometheus yourself and run this again"
    step "installing prometheus (Debian package)" apt_install prometheus
  fi
  log "prometheus is ready ($(prometheus --version 2>&1 | head -n 1 || echo unknown))"
}

# Test files run in parallel: one at a time, so only one of them runs apt-get.
exec 9>/tmp/drover-ensure-prometheus.lock
flock -w 900 9 || { log "FAILED: could not take /tmp/drover-ensure-prometheus.lock"; exit 1; }
main "$@"
