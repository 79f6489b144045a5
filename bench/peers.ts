// What the side-by-side benchmarks share: the docker CLI, a `drover up` child process, and a
// Docker Swarm that is joined for one measurement and left again.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { spawnDrover } from '../test/support/server-process.js';

export const run = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, '../..');

export const docker = (...args: string[]) => run('docker', args, { maxBuffer: 16 * 1024 * 1024 });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The middle value; of an even number of values, the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The value below which `q` (0–1) of `values` lie (nearest rank); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** "median [min–max]" of some milliseconds, rounded. */
export function medianWithRange(values: readonly number[]): string {
  if (values.length === 0) return 'n/a';
  const f = (ms: number) => ms.toFixed(0);
  return `${f(median(values))} [${f(Math.min(...values))}–${f(Math.max(...values))}]`;
}

export async function timed(task: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

/** Runs task(0) … task(count - 1), at most `limit` at a time. */
export async function concurrently(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
}

/** Polls `check` every `everyMs` until it is true; fails after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 600_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Docker and the test images, as the test suite prepares them. */
export async function prepareDocker(): Promise<void> {
  await run('bash', [join(ROOT, 'scripts/ensure-docker.sh')]);
  await run('bash', [join(ROOT, 'scripts/build-test-images.sh')]);
}

export async function droverUp(dataDir: string, extraArgs: string[] = []): Promise<{ kubeconfig: string; stop: () => Promise<void> }> {
  const child = spawnDrover(['up', '--data-dir', dataDir, '--port', '0', ...extraArgs]);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
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

/** Runs `task` in a single-node swarm on 127.0.0.1, leaving the swarm afterwards. */
export async function inSwarm<T>(task: () => Promise<T>): Promise<T> {
  await docker('swarm', 'init', '--advertise-addr', '127.0.0.1').catch(() => undefined);
  try {
    return await task();
  } finally {
    await docker('swarm', 'leave', '--force').catch(() => undefined);
    // Leaving returns while dockerd still removes the tasks' containers; the next measurement
    // must not share the daemon with that cleanup.
    await untilNoContainers('label=com.docker.swarm.task.id');
    // The ingress network and docker_gwbridge go last, and their teardown keeps dockerd busy.
    await until(
      'swarm networks removed',
      async () => !(await docker('network', 'ls', '--format', '{{.Name}}')).stdout.split('\n').includes('ingress'),
      60_000,
      100,
    );
    await sleep(1000);
  }
}

/** Waits until Docker holds no container (running or not) that matches `filter`. */
export async function untilNoContainers(filter: string): Promise<void> {
  await until(`no containers with ${filter}`, async () => (await docker('ps', '-aq', '--filter', filter)).stdout.trim() === '', 120_000, 100);
}

/** The images of a swarm service's tasks that run now (desired and actual state Running). */
export async function runningTaskImages(service: string): Promise<string[]> {
  const { stdout } = await docker('service', 'ps', service, '--filter', 'desired-state=running', '--format', '{{.Image}}|{{.CurrentState}}');
  return stdout
    .split('\n')
    .filter((line) => line.includes('|Running'))
    .map((line) => line.split('|')[0]!);
}
