#!/usr/bin/env bash
# Makes sure a Docker Engine answers on this machine: installs Debian's docker.io
# (and busybox-static, which the test images are built from, and iproute2) when missing, starts
# dockerd in the background when the socket does not answer, and waits for it.
# Idempotent: when `docker info` already works it returns at once.
set -euo pipefail

DOCKER_WAIT_SECONDS="${DOCKER_WAIT_SECONDS:-60}"
if [ -w /var/log ]; then DOCKERD_LOG="${DOCKERD_LOG:-/var/log/drover-dockerd.log}"; else DOCKERD_LOG="${DOCKERD_LOG:-/tmp/drover-dockerd.log}"; fi

log() { echo "ensure-docker: $*" >&2; }

# `docker version` fails when the server part cannot be reached.
docker_answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# shellcheck source=lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"

installed() { dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

# shellcheck source=lib/progress.sh
. "$(dirname "$0")/lib/progress.sh"
PROGRESS_NAME=ensure-docker

missing_packages() {
  missing=()
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
  # The static build specifically: the images have no libc for a dynamic busybox.
  installed busybox-static || missing+=(busybox-static)
  # `ip`: the Docker-restart test gives its own daemon a bridge of its own.
  command -v ip >/dev/null 2>&1 || missing+=(iproute2)
}

install_missing_packages() {
  if [ "${#missing[@]}" -eq 0 ]; then return 0; fi
  STEP_HINT="check that this machine reaches Debian's package mirror (\`apt-get update\` shows it), or install ${missing[*]} yourself and run this again; as a user other than root, \`sudo -n\` must work"
  step "installing ${missing[*]} (Debian packages)" apt_install "${missing[@]}"
}

# On this project's machines (Debian 12, kernel with iptables/nat, cgroup v1, ext4)
# a plain `dockerd` starts and works: no special flags are needed. Extra flags can be
# given through DOCKERD_EXTRA_FLAGS (word-split).
#
# Fallback for hosts whose kernel has no iptables NAT support: there dockerd exits at
# start with "failed to create NAT chain DOCKER". Ports published on 127.0.0.1 still
# work without iptables because docker-proxy (the userland proxy, on by default)
# listens on the host side, which is all Drover uses, so we retry once without it.
NO_IPTABLES_FLAGS="--iptables=false --ip6tables=false --ip-masq=false"

start_dockerd() {
  local cmd=()
  # shellcheck disable=SC2206 # word splitting is the point
  cmd=(setsid nohup dockerd ${DOCKERD_EXTRA_FLAGS:-} "$@")
  [ "$(id -u)" -eq 0 ] || cmd=(sudo -n "${cmd[@]}")
  log "starting ${cmd[*]} (log: $DOCKERD_LOG)"
  mkdir -p "$(dirname "$DOCKERD_LOG")"
  log_offset=$(stat -c %s "$DOCKERD_LOG" 2>/dev/null || echo 0)
  rm -f /var/run/docker.pid
  # A plain command, not a function, so the background job execs straight into
  # dockerd; setsid + nohup let it outlive the shell (and the test run) that started
  # it, and its output goes to the log so no caller's pipe is held open. fd 9 is
  # our lock: the daemon must not keep holding it.
  "${cmd[@]}" 9>&- >>"$DOCKERD_LOG" 2>&1 </dev/null &
  dockerd_pid=$!
}

# Succeeds once Docker answers; fails early if the dockerd we started has died.
wait_until_up() {
  local deadline=$((SECONDS + $1))
  until docker_answers; do
    if [ -n "${dockerd_pid:-}" ] && ! kill -0 "$dockerd_pid" 2>/dev/null; then return 2; fi
    if [ "$SECONDS" -ge "$deadline" ]; then return 1; fi
    sleep 0.5
  done
}

# What the daemon we started wrote (the log is shared with earlier runs).
new_log() { tail -c +$((${log_offset:-0} + 1)) "$DOCKERD_LOG" 2>/dev/null || true; }

fail() {
  log "last lines of $DOCKERD_LOG:"
  new_log | tail -n 30 >&2
  log "FAILED: $*"
  exit 1
}

# Starts dockerd (unless one is already starting) and waits until it answers; retries once
# without iptables when the kernel has no NAT support.
start_and_wait() {
  dockerd_pid=""
  # A client can fail for reasons other than a missing daemon; start one only when
  # no dockerd process exists yet, otherwise wait for the one that does.
  if pgrep -x dockerd >/dev/null 2>&1; then
    log "dockerd is already running; waiting for it to answer"
  else
    start_dockerd
  fi
  local rc=0
  wait_until_up "$DOCKER_WAIT_SECONDS" || rc=$?
  if [ "$rc" -eq 2 ] && new_log | grep -qi 'iptables\|NAT chain'; then
    log "dockerd exited on an iptables error; retrying with $NO_IPTABLES_FLAGS"
    # shellcheck disable=SC2086
    start_dockerd $NO_IPTABLES_FLAGS
    rc=0
    wait_until_up "$DOCKER_WAIT_SECONDS" || rc=$?
  fi
  case "$rc" in
    0) ;;
    2) fail "dockerd exited before answering" ;;
    *) fail "Docker did not answer within ${DOCKER_WAIT_SECONDS}s" ;;
  esac
}

main() {
  missing_packages
  if docker_answers; then
    # Docker may be up from an earlier run while the test tools are not.
    progress_total 1
    install_missing_packages
    return 0
  fi
  if [ "${#missing[@]}" -gt 0 ]; then progress_total 2; else progress_total 1; fi
  install_missing_packages
  STEP_HINT="read $DOCKERD_LOG; another container engine or a stale /var/run/docker.sock may be in the way; DOCKERD_EXTRA_FLAGS passes flags to dockerd (e.g. --storage-driver=vfs where overlayfs is not available); DOCKER_WAIT_SECONDS=$DOCKER_WAIT_SECONDS waits longer on a slow machine"
  step "starting Docker Engine and waiting for it to answer" start_and_wait
  log "Docker is ready ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo unknown))"
}

# Test files run in parallel and each calls this script: one at a time, so only
# one of them installs packages or starts the daemon.
exec 9>/tmp/drover-ensure-docker.lock
flock -w 900 9 || { log "FAILED: could not take /tmp/drover-ensure-docker.lock"; exit 1; }
main "$@"
