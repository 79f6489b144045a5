# Shared by the scripts that install what the tests need from Debian's packages.
# Source it after defining log().

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

apt_get() { as_root env DEBIAN_FRONTEND=noninteractive apt-get "$@" >&2; }

# `apt-get update` only when the package lists are missing or the install fails with
# the lists at hand (stale lists name versions the mirror no longer has).
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
