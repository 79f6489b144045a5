#!/usr/bin/env bash
# Runs bench:gpu ON a lent GPU machine (no npm, no internet, maybe no Node 20), from the bundle
# that scripts/device-bundle.sh built beside the working tree:
#
#   bash scripts/device-gpu-check.sh [BUNDLE_DIR]        (from the repository root; default .gpu-check)
#
# Everything it prints goes to $OUT/gpu.log as well, and the server's and the agent's logs to
# $OUT/logs/ (BENCH_LOG_DIR), so a run cut short still leaves what it saw.
# Exit status: bench:gpu's own (0 every check passed, 1 a check failed, 2 no nvidia-smi or no
# python3 on the PATH), or 3 when this machine lacks something the check needs before it can start.
set -uo pipefail

bundle="${1:-.gpu-check}"
out="${OUT:-/tmp/gpu-check-out}"
node_dir=/tmp/node/bin
mkdir -p "$out/logs"
log="$out/gpu.log"

say() { echo "device-gpu-check: $*" | tee -a "$log"; }
die() { say "$*"; exit 3; }

say "$(date -u '+%Y-%m-%dT%H:%M:%SZ') on $(uname -srm), bundle $bundle"
[[ -f "$bundle/node.xz" && -f "$bundle/dist/bench/gpu.js" && -d "$bundle/node_modules" ]] \
  || die "no bundle at $bundle (node.xz, dist/bench/gpu.js, node_modules): build it with 'bash scripts/device-bundle.sh $bundle' on a machine with Node 20 and npm"
# The process runtime runs every container under a small perl supervisor (src/agent/runtime/process/supervisor-perl.ts).
command -v perl >/dev/null || die "no perl on the PATH: the agent's process runtime supervises each container with perl (Debian: perl-base)"
perl -MPOSIX -MFcntl -e 1 2>/dev/null || die "perl lacks its core modules POSIX and Fcntl, which the process runtime's supervisor uses"

# The node binary of the machine that built the bundle (x86-64, glibc), unpacked with xz or,
# where xz is missing, Python's lzma (Python is what this check runs anyway).
mkdir -p "$node_dir"
if command -v xz >/dev/null; then
  xz -dc "$bundle/node.xz" > "$node_dir/node.part" || die "xz could not unpack $bundle/node.xz"
elif command -v python3 >/dev/null; then
  python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$bundle/node.xz" "$node_dir/node.part" \
    || die "python3's lzma could not unpack $bundle/node.xz"
else
  die "neither xz nor python3 on the PATH to unpack $bundle/node.xz"
fi
chmod +x "$node_dir/node.part" && mv "$node_dir/node.part" "$node_dir/node"
version="$("$node_dir/node" --version 2>&1)" || die "the bundled node does not run here (another CPU or an older glibc?): $version"
export PATH="$node_dir:$PATH"
say "node $version at $node_dir/node; glibc $(getconf GNU_LIBC_VERSION 2>/dev/null | cut -d' ' -f2); python3: $(command -v python3 || echo none); nvidia-smi: $(command -v nvidia-smi || echo none); perl: $(command -v perl)"
# The server's store is SQLite through better-sqlite3, whose addon was compiled where the bundle
# was built (it needs glibc 2.34 or later there): a clear word now rather than a server that dies.
sqlite="$(cd "$bundle" && "$node_dir/node" -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()' 2>&1)" \
  || die "the bundle's better-sqlite3 addon does not load here (the server's store needs it): $sqlite"

# No NODE_PATH is needed: the code lives inside the bundle, so its imports find the bundle's
# node_modules as Node's resolution climbs from dist/ (ES modules ignore NODE_PATH anyway).
# The drover command is started with this node and the flag of its #! line, so neither
# `env -S` nor a `node` found elsewhere on the PATH is relied on.
export DROVER_NODE_ARGS="--max-semi-space-size=4"
export BENCH_LOG_DIR="$out/logs"
"$node_dir/node" "$bundle/dist/bench/gpu.js" 2>&1 | tee -a "$log"
status="${PIPESTATUS[0]}"
say "bench:gpu exited $status"
exit "$status"
