// The one Python program bench:gpu runs, in a pod and straight on the host alike, so the two
// figures differ only in where the process runs. It prints `key=value` lines, each flushed at
// once: when it started (the host's clock, which the bench shares), the GPU variables it was
// given, what PyTorch sees, and the time of 10 bf16 8192³ matrix multiplies after 3 warm-ups.
import { spawn } from 'node:child_process';

export const MATMUL_SIZE = 8192;

export const PROBE_PROGRAM = String.raw`
import json, os, sys, time
print(f"started_at={time.time():.6f}", flush=True)
print("env=" + json.dumps({k: os.environ.get(k) for k in ("CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES")}), flush=True)
import torch
count = torch.cuda.device_count()
print(f"device_count={count}", flush=True)
if count == 0:
    sys.exit(0)
print(f"device_name={torch.cuda.get_device_name(0)}", flush=True)
n = ${MATMUL_SIZE}
a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
for _ in range(3):
    a @ b
torch.cuda.synchronize()
start = time.perf_counter()
for _ in range(10):
    a @ b
torch.cuda.synchronize()
seconds = time.perf_counter() - start
print(f"matmul_seconds={seconds:.6f}", flush=True)
print(f"tflops={2 * n**3 * 10 / seconds / 1e12:.1f}", flush=True)
`;

/** What one run of the program printed. */
export interface ProbeOutput {
  /** Epoch milliseconds at its first line. */
  startedAtMs?: number;
  /** The variables as the process saw them; null when unset. */
  cudaVisibleDevices?: string | null;
  nvidiaVisibleDevices?: string | null;
  deviceCount?: number;
  deviceName?: string;
  tflops?: number;
}

export function parseProbe(text: string): ProbeOutput {
  const out: ProbeOutput = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at < 0) continue;
    const [key, value] = [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    if (key === 'started_at') out.startedAtMs = Number(value) * 1000;
    else if (key === 'device_count') out.deviceCount = Number(value);
    else if (key === 'device_name') out.deviceName = value;
    else if (key === 'tflops') out.tflops = Number(value);
    else if (key === 'env') {
      const env = JSON.parse(value) as Record<string, string | null>;
      out.cudaVisibleDevices = env['CUDA_VISIBLE_DEVICES'] ?? null;
      out.nvidiaVisibleDevices = env['NVIDIA_VISIBLE_DEVICES'] ?? null;
    }
  }
  return out;
}

/** The program run straight on the host, as a user of the node runs it: the peer of the pod. */
export async function runOnHost(env: NodeJS.ProcessEnv): Promise<{ spawnedAtMs: number; exitCode: number | null; output: string }> {
  const spawnedAtMs = Date.now();
  const child = spawn('python3', ['-c', PROBE_PROGRAM], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    // 'close', not 'exit': the output is complete only once the pipes are.
    child.once('close', (code) => resolve(code));
  });
  return { spawnedAtMs, exitCode, output };
}
