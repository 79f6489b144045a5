#!/usr/bin/env bash
# DRY RUN of scripts/device-gpu-check.sh on a machine WITHOUT a GPU, before a lent GPU machine's
# minutes are spent on it: the bundle, the server, the agent, the pods, their logs and the
# Pending pod all run for real; only the GPU is pretend. Its figures mean nothing.
#
#   bash scripts/device-gpu-dry-run.sh [BUNDLE_DIR]      (default .gpu-check, built beforehand)
#
# First on the PATH, in a temporary directory: the tests' stand-in nvidia-smi
# (test/fixtures/nvidia-smi) listing ONE H200 in NVIDIA's documented query format, and a
# stand-in `python3` that prints the lines of bench:gpu's probe, its device count following
# CUDA_VISIBLE_DEVICES as CUDA's does. Given the PyTorchJob's program instead, it meets the other
# replica over TCP at the MASTER_ADDR:MASTER_PORT the job controller set, and prints the replica's
# JSON line without a loss, saying it is a stand-in: check (d) then judges the job, its gang and
# the GPUs each replica was given, and says SKIP for the training itself. Then a second run with no nvidia-smi at all, which must
# end at once with exit 2. $OUT (default /tmp/gpu-dry-run) gets both runs' output.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-.gpu-check}"
out="${OUT:-/tmp/gpu-dry-run}"
fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT

cp "$root/test/fixtures/nvidia-smi/nvidia-smi" "$fake/nvidia-smi"
cat > "$fake/gpus.csv" <<'EOF'
index, uuid, name, memory.total, pci.bus_id, utilization.gpu, memory.used, temperature.gpu, power.draw
0, GPU-5e1f0c7a-93b2-4d8e-a6f1-2c4b8d9e0a13, NVIDIA H200, 143771, 00000000:1B:00.0, 0, 0, 29, 74.38
EOF
real_python="$(command -v python3)"
cat > "$fake/python3" <<EOF
#!$real_python
# DRY RUN ONLY: pretends to be python3 -c <bench:gpu's probe> with PyTorch on one H200.
import json, os, random, socket, sys, time
visible = os.environ.get("CUDA_VISIBLE_DEVICES")
count = 1 if visible is None else len([d for d in visible.split(",") if d.strip()])
if "init_process_group" in sys.argv[-1]:
    # A replica of bench:gpu's PyTorchJob: the rendezvous for real, the training not at all.
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
    if rank == 0:
        server = socket.create_server((addr, port))
        for _ in range(world - 1):
            peer = server.accept()[0]
            peer.recv(64)
            peer.sendall(b"ok")
    else:
        for _ in range(600):
            try:
                master = socket.create_connection((addr, port), timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit(f"could not reach the master at {addr}:{port}")
        master.sendall(f"rank {rank}".encode())
        master.recv(64)
    print(f"rank {rank} of {world} joined the rendezvous at {addr}:{port}", flush=True)
    print(json.dumps({"rank": rank, "world_size": world, "rendezvous": f"{addr}:{port}", "device": "cuda" if count else "cpu",
        "device_name": "NVIDIA H200" if count else None, "device_count": count, "cuda_visible_devices": visible,
        "nvidia_visible_devices": os.environ.get("NVIDIA_VISIBLE_DEVICES"),
        "stand_in": "the dry run's python3 has no PyTorch: it met the other rank over TCP but trained nothing"}), flush=True)
    sys.exit(0)
print(f"started_at={time.time():.6f}", flush=True)
print("env=" + json.dumps({k: os.environ.get(k) for k in ("CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES")}), flush=True)
time.sleep(1.0)  # import torch
print(f"device_count={count}", flush=True)
if count == 0:
    sys.exit(0)
print("device_name=NVIDIA H200", flush=True)
seconds = 2 * 8192**3 * 10 / (random.uniform(700, 800) * 1e12)
time.sleep(seconds)
print(f"matmul_seconds={seconds:.6f}", flush=True)
print(f"tflops={2 * 8192**3 * 10 / seconds / 1e12:.1f}", flush=True)
EOF
chmod +x "$fake/nvidia-smi" "$fake/python3"

cd "$root"
rm -rf "$out"
status=0
PATH="$fake:$PATH" OUT="$out/with-gpu" bash scripts/device-gpu-check.sh "$bundle" || status=$?
echo "dry run with the stand-in H200: exit $status (want 0)"
# Without the stand-in nvidia-smi: the python3 stand-in alone stays on the PATH.
rm "$fake/nvidia-smi"
if command -v nvidia-smi >/dev/null; then
  echo "this machine has a real nvidia-smi ($(command -v nvidia-smi)): the no-GPU run is skipped"
  exit "$status"
fi
none=0
PATH="$fake:$PATH" OUT="$out/no-gpu" bash scripts/device-gpu-check.sh "$bundle" || none=$?
echo "dry run without nvidia-smi: exit $none (want 2)"
[[ "$status" == 0 && "$none" == 2 ]]
