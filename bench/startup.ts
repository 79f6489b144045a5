// `npm run bench:startup`: time from "start" to Running for 1 container and for 50, side by side
// in one run: raw `docker run -d` (the floor), Docker Swarm (`docker service create`), and
// Drover (`kubectl apply` against `drover up`). Prints figures; never fails on time.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ApiClient, resources } from '../src/client/index.js';
import { KUBECTL } from '../test/support/kubectl.js';

const run = promisify(execFile);
const IMAGE = 'drover-test/busybox:1';
const COUNT = Number(process.env['BENCH_STARTUP_PODS'] ?? 50);
const ROUNDS = Number(process.env['BENCH_STARTUP_ROUNDS'] ?? 5);
const ROOT = resolve(import.meta.dirname, '../..');
const LABEL = 'drover-bench=startup';

const docker = (...args: string[]) => run('docker', args, { maxBuffer: 16 * 1024 * 1024 });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timed(task: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

async function removeBenchContainers(): Promise<void> {
  const { stdout } = await docker('ps', '-aq', '--filter', `label=${LABEL}`);
  const ids = stdout.split('\n').filter(Boolean);
  if (ids.length) await docker('rm', '-f', ...ids);
}

/** `docker run -d` (default bridge network, like a pod's) returns once the container runs: the floor. */
async function rawDocker(count: number): Promise<number> {
  await removeBenchContainers();
  const ms = await timed(async () => {
    await Promise.all(Array.from({ length: count }, () => docker('run', '-d', '--label', LABEL, IMAGE, 'sleep', '3600')));
  });
  await removeBenchContainers();
  return ms;
}

async function swarm(count: number): Promise<number> {
  await docker('swarm', 'init', '--advertise-addr', '127.0.0.1').catch(() => undefined);
  try {
    const ms = await timed(async () => {
      await docker('service', 'create', '--detach', '--no-resolve-image', '--name', 'drover-bench', '--replicas', String(count), IMAGE, 'sleep', '3600');
      for (;;) {
        const { stdout } = await docker('service', 'ps', 'drover-bench', '--filter', 'desired-state=running', '--format', '{{.CurrentState}}');
        if (stdout.split('\n').filter((line) => line.startsWith('Running')).length >= count) return;
        await sleep(20);
      }
    });
    await docker('service', 'rm', 'drover-bench');
    return ms;
  } finally {
    await docker('swarm', 'leave', '--force').catch(() => undefined);
  }
}

function podsManifest(count: number, round: number): string {
  return Array.from({ length: count }, (_, i) => `apiVersion: v1
kind: Pod
metadata:
  name: bench-${round}-${i}
  labels: {bench: startup}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${IMAGE}
    command: ["sleep", "3600"]
`).join('---\n');
}

async function droverUp(dataDir: string): Promise<{ kubeconfig: string; stop: () => Promise<void> }> {
  const child = spawn(join(ROOT, 'bin/drover.js'), ['up', '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 60_000;
  while (!/node .* ready/i.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`drover up did not become ready:\n${output}`);
    await sleep(50);
  }
  return {
    kubeconfig: join(dataDir, 'kubeconfig'),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** kubectl applies the pods; Running is polled through the API (kubectl's own start-up would blur it). */
async function drover(kubeconfig: string, count: number, round: number): Promise<number> {
  const file = join(tmpdir(), `drover-bench-${round}.yaml`);
  await writeFile(file, podsManifest(count, round));
  const kubectl = (...args: string[]) => run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const api = await ApiClient.load({ kubeconfig });
  const pods = api.resource(resources.pods, 'default');
  const ms = await timed(async () => {
    await kubectl('apply', '-f', file);
    for (;;) {
      const { items } = await pods.list({ labelSelector: 'bench=startup', fieldSelector: 'status.phase=Running' });
      if (items.filter((p) => p.metadata.name!.startsWith(`bench-${round}-`)).length >= count) return;
      await sleep(10);
    }
  });
  api.close();
  await kubectl('delete', 'pods', '-l', 'bench=startup', '--wait=true', '--timeout=120s');
  return ms;
}

async function main(): Promise<void> {
  await run('bash', [join(ROOT, 'scripts/ensure-docker.sh')]);
  await run('bash', [join(ROOT, 'scripts/build-test-images.sh')]);
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-bench-up-'));
  const cluster = await droverUp(dataDir);
  try {
    for (const count of [1, COUNT]) {
      const rounds = count === 1 ? ROUNDS : 1;
      const results: number[][] = [[], [], []];
      for (let round = 0; round < rounds; round++) {
        results[0]!.push(await rawDocker(count));
        results[1]!.push(await swarm(count));
        results[2]!.push(await drover(cluster.kubeconfig, count, round + count * 100));
      }
      const [raw, sw, dr] = results.map(median) as [number, number, number];
      console.log(`\n${count} container(s), median of ${rounds} round(s):`);
      console.log(`  docker run -d          ${raw.toFixed(0).padStart(7)} ms`);
      console.log(`  docker swarm           ${sw.toFixed(0).padStart(7)} ms`);
      console.log(`  drover (kubectl apply) ${dr.toFixed(0).padStart(7)} ms   = ${(dr / raw).toFixed(2)}x raw docker (target <= 1.3x), ${(dr / sw).toFixed(2)}x swarm (target <= 0.5x)` +
        (count === 1 ? `, raw + ${(dr - raw).toFixed(0)} ms (target <= 200 ms)` : ''));
    }
  } finally {
    await cluster.stop();
    await removeBenchContainers();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
