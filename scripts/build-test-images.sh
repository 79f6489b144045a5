#!/usr/bin/env bash
# Builds the local images the tests and the agent use, without any registry, from
# Debian's busybox-static:
#   drover-test/busybox:1, drover-test/busybox:2  two tags with different content
#                                                (/VERSION), for rolling updates
#   drover/pause:1                               the pod network infra container
# Idempotent: an image whose recipe label matches is left alone, so a changed recipe
# (or a different busybox binary) rebuilds it.
set -euo pipefail

# Bump when the content below changes, so existing images are rebuilt.
RECIPE=3
BUSYBOX="${BUSYBOX:-/bin/busybox}"
IMAGE_PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# The pause command: PID 1 ignores signals it has no handler for, so a plain
# `sleep` would only die by SIGKILL after the whole grace period. The trap exits at
# once on TERM/INT; `wait` is interruptible, a foreground `sleep` is not. Keep this
# in step with src/agent/runtime/docker/pause-image.ts.
PAUSE_SCRIPT='trap "exit 0" TERM INT HUP; while :; do sleep 3600 & wait $!; done'

log() { echo "build-test-images: $*" >&2; }

# shellcheck source=lib/progress.sh
. "$(dirname "$0")/lib/progress.sh"
PROGRESS_NAME=build-test-images

if [ ! -x "$BUSYBOX" ]; then
  echo "build-test-images: $BUSYBOX not found; run scripts/ensure-docker.sh first (it installs busybox-static)" >&2
  exit 1
fi

busybox_sum="$(sha256sum "$BUSYBOX" | cut -c1-16)"
recipe_id="r${RECIPE}-${busybox_sum}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A root filesystem with busybox and every applet at its usual path.
make_rootfs() {
  local dir="$1" version="$2"
  mkdir -p "$dir"/{bin,sbin,usr/bin,usr/sbin,etc,tmp,root,home,var/tmp,proc,sys,dev}
  chmod 1777 "$dir/tmp" "$dir/var/tmp"
  cp "$BUSYBOX" "$dir/bin/busybox"
  local applet
  while read -r applet; do
    [ -n "$applet" ] || continue
    [ -e "$dir/$applet" ] || ln -s /bin/busybox "$dir/$applet"
  done < <("$dir/bin/busybox" --list-full)
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n' >"$dir/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$dir/etc/group"
  echo "$version" >"$dir/VERSION"
}

current_recipe() {
  docker image inspect --format '{{ index .Config.Labels "drover.dev/recipe" }}' "$1" 2>/dev/null || true
}

# import TAG VERSION CMD-JSON
build_image() {
  local tag="$1" version="$2" cmd="$3"
  local dir="$work/${tag//[\/:]/_}"
  make_rootfs "$dir" "$version"
  tar --numeric-owner --owner=0 --group=0 -C "$dir" -c . | docker import \
    --change "ENV PATH=$IMAGE_PATH" \
    --change "LABEL drover.dev/recipe=$recipe_id" \
    --change "CMD $cmd" \
    - "$tag" >/dev/null
}

# Parallel test files call this script at once; build each image only once.
exec 9>/tmp/drover-build-test-images.lock
flock -w 300 9

pause_cmd="$(printf '["/bin/sh","-c","%s"]' "${PAUSE_SCRIPT//\"/\\\"}")"

# TAG VERSION CMD-JSON per image; those whose recipe label matches are left alone.
images=(
  "drover-test/busybox:1|1|[\"sh\"]"
  "drover-test/busybox:2|2|[\"sh\"]"
  "drover/pause:1|pause|$pause_cmd"
)
outdated=()
for image in "${images[@]}"; do
  tag="${image%%|*}"
  if [ "$(current_recipe "$tag")" = "$recipe_id" ]; then log "$tag is up to date"; else outdated+=("$image"); fi
done
progress_total "${#outdated[@]}"
for image in "${outdated[@]}"; do
  IFS='|' read -r tag version cmd <<<"$image"
  STEP_HINT="Docker must answer (bash scripts/ensure-docker.sh) and $work must have room for a busybox root filesystem"
  step "building $tag from $BUSYBOX" build_image "$tag" "$version" "$cmd"
done
