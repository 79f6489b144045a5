#!/usr/bin/env bash
# Makes sure an etcd server binary is on this machine for the etcd store's tests: installs
# Debian's etcd-server (v3.4) and etcd-client (etcdctl) when `etcd` is missing. Tests start
# their own members on free 127.0.0.1 ports (src/storage/etcd/test-support.ts); nothing is
# started here. Idempotent: when `etcd` and `etcdctl` are present it returns at once.
set -euo pipefail

log() { echo "ensure-etcd: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

apt_get() { as_root env DEBIAN_FRONTEND=noninteractive apt-get "$@" >&2; }

# `apt-get update` only when the package lists are missing or the install fails with the lists
# at hand (stale lists name versions the mirror no longer has).
apt_install() {
  if compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
    log "apt-get install -y $*"
    if apt_get install -y -qq "$@"; then return 0; fi
  fi
  log "apt-get update"
  apt_get update -qq
  log "apt-get install -y $*"
  apt_get install -y -qq "$@"
}

main() {
  local missing=()
  command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
  command -v etcdctl >/dev/null 2>&1 || missing+=(etcd-client)
  if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
  # Debian's package enables an etcd service on port 2379; tests never use it (they pick free
  # ports), so it is left as the package set it up.
  log "etcd is ready ($(etcd --version 2>/dev/null | head -n 1 || echo unknown))"
}

# Test files run in parallel: one at a time, so only one of them runs apt-get.
exec 9>/tmp/drover-ensure-etcd.lock
flock -w 900 9 || { log "FAILED: could not take /tmp/drover-ensure-etcd.lock"; exit 1; }
main "$@"
