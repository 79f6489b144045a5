// The peers bench:startup measures Drover beside, each starting `count` containers at once (at
// most BENCH_STARTUP_PEER_CONCURRENCY in the making at a time) and timed until all run: raw
// `docker run -d` (one container, the floor of a task), Docker Swarm (`docker service create`),
// and the pod floor (a pod's two containers straight through the Engine API, see pod-floor.ts).
// Each removes what it made afterwards, untimed.
import { PodFloor } from './pod-floor.js';
import { concurrently, docker, inSwarm, runningTaskImages, sleep, timed } from './peers.js';
import { IMAGE } from './startup-drover.js';

/**
 * The most containers a peer has in the making at once. More gain nothing on a small machine
 * (the Engine makes a few a second whatever it is asked), and 200 at once, right after a swarm
 * of 200 tasks was left, once wedged this machine's dockerd for good (every create, inspect and
 * network list hung). Drover's agent makes at most as many pods at a time as it has workers.
 */
const PEER_CONCURRENCY = Number(process.env['BENCH_STARTUP_PEER_CONCURRENCY'] ?? 50);

/** This run's: a bench or test running beside it on the same Docker keeps its containers. */
const LABEL = `drover-bench=startup-${process.pid}`;

export async function removeBenchContainers(): Promise<void> {
  const { stdout } = await docker('ps', '-aq', '--filter', `label=${LABEL}`);
  const ids = stdout.split('\n').filter(Boolean);
  if (ids.length) await docker('rm', '-f', ...ids);
}

/** `docker run -d` (default bridge network, like a pod's) returns once the container runs: the floor. */
export async function rawDocker(count: number): Promise<number> {
  await removeBenchContainers();
  const ms = await timed(async () => {
    await concurrently(count, PEER_CONCURRENCY, async () => {
      await docker('run', '-d', '--label', LABEL, IMAGE, 'sleep', '3600');
    });
  });
  await removeBenchContainers();
  return ms;
}

/** A service of `count` replicas, until every task runs; the swarm is joined and left around it. */
export async function swarm(count: number): Promise<number> {
  return inSwarm(async () => {
    const ms = await timed(async () => {
      await docker('service', 'create', '--detach', '--no-resolve-image', '--name', 'drover-bench', '--replicas', String(count), IMAGE, 'sleep', '3600');
      while ((await runningTaskImages('drover-bench')).length < count) await sleep(20);
    });
    await docker('service', 'rm', 'drover-bench');
    return ms;
  });
}

export async function podFloor(count: number): Promise<number> {
  const floor = new PodFloor();
  const ms = await timed(() => floor.start(count, IMAGE, ['sleep', '3600'], PEER_CONCURRENCY));
  await floor.removeAll(PEER_CONCURRENCY);
  return ms;
}
