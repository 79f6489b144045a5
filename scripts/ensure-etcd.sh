#!/usr/bin/env bash
# Makes sure an etcd server binary is on this machine for the etcd store's tests: installs
# Debian's etcd-server (v3.4) and etcd-client (etcdctl) when `etcd` is missing. Tests start
# their own members on free 127.0.0.1 ports (test/support/storage/etcd-member.ts); nothing is
# started here. Idempotent: when `etcd` and `etcdctl` are present it returns at once.
set -euo pipefail

log() { echo "ensure-etcd: $*" >&2; }

# shellcheck source=lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"
# shellcheck source=lib/progress.sh
. "$(dirname "$0")/lib/progress.sh"
PROGRESS_NAME=ensure-etcd

main() {
  local missing=()
  command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
  command -v etcdctl >/dev/null 2>&1 || missing+=(etcd-client)
  if [ "${#missing[@]}" -gt 0 ]; then
    progress_total 1
    STEP_HINT="check that this machine reaches Debian's package mirror (\`apt-get update\` shows it), or install ${missing[*]} yourself and run this again"
    step "installing ${missing[*]} (Debian packages)" apt_install "${missing[@]}"
  fi
  # Debian's package enables an etcd service on port 2379; tests never use it (they pick free
  # ports), so it is left as the package set it up.
  log "etcd is ready ($(etcd --version 2>/dev/null | head -n 1 || echo unknown))"
}

# Test files run in parallel: one at a time, so only one of them runs apt-get.
exec 9>/tmp/drover-ensure-etcd.lock
flock -w 900 9 || { log "FAILED: could not take /tmp/drover-ensure-etcd.lock"; exit 1; }
main "$@"
