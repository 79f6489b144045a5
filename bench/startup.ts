// `npm run bench:startup`: time from "start" to Running for 1 container and for 50, side by side
// in one run: raw `docker run -d` (one container, the floor of a task), Docker Swarm (`docker
// service create`), the pod floor (a pod's two containers straight through the Engine API, see
// pod-floor.ts), and Drover (`kubectl apply` against `drover up`). Prints figures; never fails
// on time.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, resources } from '../src/client/index.js';
import { KUBECTL } from '../test/support/kubectl.js';
import { PodFloor } from './pod-floor.js';
import { docker, droverUp, inSwarm, median, prepareDocker, run, runningTaskImages, sleep, timed, untilNoContainers } from './peers.js';

const IMAGE = 'drover-test/busybox:1';
const COUNT = Number(process.env['BENCH_STARTUP_PODS'] ?? 50);
const ROUNDS = Number(process.env['BENCH_STARTUP_ROUNDS'] ?? 5);
/** Rounds of the many-pod start: each takes a minute, Swarm's teardown most of it. */
const MANY_ROUNDS = Number(process.env['BENCH_STARTUP_MANY_ROUNDS'] ?? 3);
const LABEL = 'drover-bench=startup';

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
  return inSwarm(async () => {
    const ms = await timed(async () => {
      await docker('service', 'create', '--detach', '--no-resolve-image', '--name', 'drover-bench', '--replicas', String(count), IMAGE, 'sleep', '3600');
      while ((await runningTaskImages('drover-bench')).length < count) await sleep(20);
    });
    await docker('service', 'rm', 'drover-bench');
    return ms;
  });
}

async function podFloor(count: number): Promise<number> {
  const floor = new PodFloor();
  const ms = await timed(() => floor.start(count, IMAGE, ['sleep', '3600']));
  await floor.removeAll();
  return ms;
}

function podsManifest(count: number, round: number): string {
  return Array.from(
    { length: count },
    (_, i) => `apiVersion: v1
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
`,
  ).join('---\n');
}

type Pods = ReturnType<ApiClient['resource']>;

/**
 * Resolves once `count` pods of the round run, as a watch reports them: the moment the status
 * is written, without the load of listing every pod every few milliseconds on a server that
 * shares two cores with the pods it starts. BENCH_STARTUP_WAIT=poll lists instead.
 */
async function allRunning(pods: Pods, round: number, count: number): Promise<() => Promise<void>> {
  const prefix = `bench-${round}-`;
  const poll = async () => {
    for (;;) {
      const { items } = await pods.list({ labelSelector: 'bench=startup', fieldSelector: 'status.phase=Running' });
      if (items.filter((p) => p.metadata.name!.startsWith(prefix)).length >= count) return;
      await sleep(10);
    }
  };
  if (process.env['BENCH_STARTUP_WAIT'] === 'poll') return poll;
  const running = new Set<string>();
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const { metadata } = await pods.list({ labelSelector: 'bench=startup' });
  const watch = pods.watch({ labelSelector: 'bench=startup', resourceVersion: metadata.resourceVersion! }, (event) => {
    if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
    const name = event.object.metadata.name!;
    const phase = (event.object as { status?: { phase?: string } }).status?.phase;
    if (name.startsWith(prefix) && phase === 'Running') running.add(name);
    if (running.size >= count) done();
  });
  await watch.ready;
  return async () => {
    // A stream the server ends early leaves the rest to polling.
    await Promise.race([all, watch.done.then(() => (running.size >= count ? undefined : poll()))]);
    watch.stop();
  };
}

/** kubectl applies the pods; Running is seen through the API (kubectl's own start-up would blur it). */
async function drover(kubeconfig: string, count: number, round: number): Promise<number> {
  const file = join(tmpdir(), `drover-bench-${round}.yaml`);
  await writeFile(file, podsManifest(count, round));
  const kubectl = (...args: string[]) => run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const api = await ApiClient.load({ kubeconfig });
  const pods = api.resource(resources.pods, 'default');
  const waitRunning = await allRunning(pods, round, count);
  const ms = await timed(async () => {
    await kubectl('apply', '-f', file);
    await waitRunning();
  });
  api.close();
  await kubectl('delete', 'pods', '-l', 'bench=startup', '--wait=true', '--timeout=120s');
  await untilNoContainers('label=drover.dev/pod-namespace=default');
  return ms;
}

async function main(): Promise<void> {
  await prepareDocker();
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-bench-up-'));
  const cluster = await droverUp(dataDir);
  try {
    for (const count of [1, COUNT]) {
      const rounds = count === 1 ? ROUNDS : MANY_ROUNDS;
      const results: number[][] = [[], [], [], []];
      for (let round = 0; round < rounds; round++) {
        results[0]!.push(await rawDocker(count));
        results[1]!.push(await swarm(count));
        results[2]!.push(await podFloor(count));
        results[3]!.push(await drover(cluster.kubeconfig, count, round + count * 100));
      }
      const [raw, sw, floor, dr] = results.map(median) as [number, number, number, number];
      console.log(`\n${count} container(s), median of ${rounds} round(s):`);
      const each = (i: number) => (rounds > 1 ? `   (rounds: ${results[i]!.map((ms) => ms.toFixed(0)).join(', ')})` : '');
      console.log(`  docker run -d          ${raw.toFixed(0).padStart(7)} ms${each(0)}`);
      console.log(`  docker swarm           ${sw.toFixed(0).padStart(7)} ms${each(1)}`);
      console.log(
        `  pod floor (Engine API) ${floor.toFixed(0).padStart(7)} ms   = ${(floor / raw).toFixed(2)}x raw docker, ${(floor / sw).toFixed(2)}x swarm${each(2)}`,
      );
      console.log(
        `  drover (kubectl apply) ${dr.toFixed(0).padStart(7)} ms   = ${(dr / raw).toFixed(2)}x raw docker (target <= 1.3x), ${(dr / sw).toFixed(2)}x swarm (target <= 0.5x)` +
          (count === 1 ? `, raw + ${(dr - raw).toFixed(0)} ms (target <= 200 ms)` : '') +
          `, ${(dr / floor).toFixed(2)}x the pod floor` +
          each(3),
      );
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
