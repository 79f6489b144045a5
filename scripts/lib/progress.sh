# Progress for the scripts that install and build (source it after defining log()):
#   progress_total N        how many steps this run will take
#   step "what" cmd args…   runs one step: "[i/N] what…" and, when it ends, its elapsed time.
#                           On a terminal the line counts the seconds while the step runs; in a
#                           pipe or a log (CI) it is one line when it starts and one when it ends.
#                           The command's own output goes to a log file, shown when it fails.
#   STEP_HINT="…"           set before `step`: what to do when that step fails (then cleared).
# A failed step prints the command's last lines and the hint, and exits with the command's status.

PROGRESS_TOTAL=0
PROGRESS_STEP=0

progress_total() { PROGRESS_TOTAL="$1"; PROGRESS_STEP=0; }

progress_is_tty() { [ -t 2 ] && [ "${TERM:-dumb}" != dumb ]; }

step() {
  local what="$1"; shift
  local hint="${STEP_HINT:-}"
  STEP_HINT=""
  PROGRESS_STEP=$((PROGRESS_STEP + 1))
  local label="[$PROGRESS_STEP/$PROGRESS_TOTAL] $what"
  local output started=$SECONDS rc=0
  output="$(mktemp)"
  if progress_is_tty; then
    "$@" >"$output" 2>&1 &
    local pid=$!
    # The elapsed seconds, rewritten in place until the step ends.
    while kill -0 "$pid" 2>/dev/null; do
      printf '\r\033[K%s: %s… %ss' "${PROGRESS_NAME:-progress}" "$label" "$((SECONDS - started))" >&2
      sleep 0.2
    done
    wait "$pid" || rc=$?
    printf '\r\033[K' >&2
  else
    log "$label…"
    # A subshell, as on a terminal: a step that exits ends itself, not the script before the report.
    ("$@") >"$output" 2>&1 || rc=$?
  fi
  local elapsed=$((SECONDS - started))
  if [ "$rc" -eq 0 ]; then
    log "$label: done in ${elapsed}s"
    rm -f "$output"
    return 0
  fi
  log "$label: FAILED after ${elapsed}s (exit $rc); its last lines:"
  tail -n 20 "$output" | sed 's/^/    /' >&2
  rm -f "$output"
  if [ -n "$hint" ]; then log "what to do: $hint"; fi
  exit "$rc"
}
