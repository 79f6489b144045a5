// `npm run bench:workloads`, two parts. Prints figures; never fails on time.
//
// 1. Side by side with Docker Swarm on this machine, in one run: a 50-replica Deployment vs
//    `docker service create --replicas 50` (time until all run); a rolling update of all 50 to
//    a new image (maxSurge 25 %, maxUnavailable 25 % vs Swarm's --update-parallelism 13, a
//    quarter of 50); scaling 50 → 100 → 10. Target: Drover ≤ 0.5× Swarm on each. Beside them
//    the floor of each step: the least any orchestrator of this pod model must wait for here
//    (see floorSteps).
// 2. Controller throughput on nodes registered without agents: 1,000 Deployments × 10 replicas
//    reconciled until every pod is bound. Target ≥ 1,000 pods created per second. Run twice:
//    everything in one `drover server` process, and split as Kubernetes deploys it (the API
//    server alone, `drover controller-manager` and `drover scheduler` beside it).
// 3. `-- attach`: part 1's Drover steps with sandboxes joined to the pod network directly (the
//    default) and through Docker's endpoint (`--pod-network-attach engine`), alternating for
//    BENCH_WORKLOAD_ROUNDS rounds (default 3): medians and spread of each step in each mode, to
//    see which steps the direct join slows (issue 21's item 3). Not run by default.
// BENCH_AGENT_ARGS passes flags to part 1's agent, as for bench:startup (`--pod-network-attach engine`).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { microTime, type KubeObject } from '../src/api/meta.js';
import { ApiClient, Informer, resources } from '../src/client/index.js';
import type { Pod } from '../src/api/core/index.js';
import { readyNode } from '../test/fixtures/nodes.js';
import { startDroverProcess, type DroverProcess } from '../test/support/drover-process.js';
import { startServerProcess } from '../test/support/server-process.js';
import { KUBECTL } from '../test/support/kubectl.js';
import { BenchClient, runConcurrent } from './http-client.js';
import { PodFloor } from './pod-floor.js';
import { AGENT_ARGS } from './startup-agents.js';
import { docker, droverUp, inSwarm, median, medianWithRange, prepareDocker, run, runningTaskImages, timed, until, untilNoContainers } from './peers.js';

const REPLICAS = Number(process.env['BENCH_WORKLOAD_REPLICAS'] ?? 50);
const ROUNDS = Number(process.env['BENCH_WORKLOAD_ROUNDS'] ?? 3);
const DEPLOYMENTS = Number(process.env['BENCH_DEPLOYMENTS'] ?? 1000);
const NODES = Number(process.env['BENCH_WORKLOAD_NODES'] ?? 100);
const IMAGE_1 = 'drover-test/busybox:1';
const IMAGE_2 = 'drover-test/busybox:2';
const SERVICE = 'drover-bench-workloads';

interface Step {
  name: string;
  swarm: number;
  drover: number;
  floor: number;
}

async function swarmSteps(): Promise<Pick<Step, 'name' | 'swarm'>[]> {
  return inSwarm(async () => {
    const service = (...args: string[]) => docker('service', ...args);
    const running = (image: string, count: number) => async () => {
      const images = await runningTaskImages(SERVICE);
      return images.length === count && images.every((i) => i.startsWith(image));
    };
    const steps: Pick<Step, 'name' | 'swarm'>[] = [];
    steps.push({
      name: `create ${REPLICAS} replicas`,
      swarm: await timed(async () => {
        await service(
          'create',
          '--detach',
          '--no-resolve-image',
          '--name',
          SERVICE,
          '--replicas',
          String(REPLICAS),
          '--stop-grace-period',
          '1s',
          IMAGE_1,
          'sleep',
          '3600',
        );
        await until('swarm create', running(IMAGE_1, REPLICAS));
      }),
    });
    steps.push({
      name: `rolling update of ${REPLICAS}`,
      swarm: await timed(async () => {
        const parallelism = String(Math.ceil(REPLICAS / 4));
        await service('update', '--detach', '--no-resolve-image', '--image', IMAGE_2, '--update-parallelism', parallelism, '--update-delay', '0s', SERVICE);
        await until('swarm update', running(IMAGE_2, REPLICAS));
      }),
    });
    for (const count of [REPLICAS * 2, Math.max(1, REPLICAS / 5)]) {
      steps.push({
        name: `scale to ${count}`,
        swarm: await timed(async () => {
          await service('scale', '--detach', `${SERVICE}=${count}`);
          await until(`swarm scale ${count}`, running(IMAGE_2, count));
        }),
      });
    }
    await service('rm', SERVICE);
    return steps;
  });
}

function deploymentManifest(image: string, replicas: number): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bench' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'bench' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'bench' } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image, command: ['sleep', '3600'] }] },
      },
    },
  });
}

/**
 * The same steps on `drover up`: done when the Deployment's status says all replicas are updated
 * and available, and no others remain. Then, on the same daemon once Drover's containers are
 * gone, the floor of each step.
 */
async function droverSteps(agentArgs: readonly string[] = AGENT_ARGS, withFloor = true): Promise<{ drover: number[]; floor: number[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-bench-workloads-'));
  // BENCH_AGENT_ARGS, as for bench:startup: e.g. `--pod-network-attach engine` beside the default.
  const cluster = await droverUp(dataDir, [...agentArgs]);
  const api = await ApiClient.load({ kubeconfig: cluster.kubeconfig });
  const kubectl = (args: string[], input?: string) => {
    const child = run(KUBECTL, ['--kubeconfig', cluster.kubeconfig, ...args], { maxBuffer: 16 * 1024 * 1024 });
    if (input !== undefined) child.child.stdin!.end(input);
    return child;
  };
  const settled = (count: number) => async () => {
    const deploy = await api.resource(resources.deployments, 'default').get('bench');
    const status = (deploy['status'] ?? {}) as Record<string, number>;
    const observed = status['observedGeneration'] === deploy.metadata.generation;
    return observed && status['replicas'] === count && status['updatedReplicas'] === count && status['availableReplicas'] === count;
  };
  try {
    const times: number[] = [];
    times.push(
      await timed(async () => {
        await kubectl(['apply', '-f', '-'], deploymentManifest(IMAGE_1, REPLICAS));
        await until('drover create', settled(REPLICAS));
      }),
    );
    times.push(
      await timed(async () => {
        await kubectl(['set', 'image', 'deploy/bench', `main=${IMAGE_2}`]);
        await until('drover update', settled(REPLICAS));
      }),
    );
    for (const count of [REPLICAS * 2, Math.max(1, REPLICAS / 5)]) {
      times.push(
        await timed(async () => {
          await kubectl(['scale', 'deploy/bench', `--replicas=${count}`]);
          await until(`drover scale ${count}`, settled(count));
        }),
      );
    }
    await kubectl(['delete', 'deploy', 'bench', '--wait=false']);
    await until('drover cleanup', async () => (await api.resource(resources.pods, 'default').list()).items.length === 0, 120_000, 200);
    await untilNoContainers('label=drover.dev/pod-namespace=default');
    return { drover: times, floor: withFloor ? await floorSteps(cluster.kubeconfig) : [] };
  } finally {
    api.close();
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The floor of each step, from the pod floor (pod-floor.ts): create and scale-up start their new
 * pods at once; the rolling update must at least start its 50 new pods beside the 50 old ones
 * still running, so the floor is that alone, with nothing stopped. Scaling down waits for no
 * container: its floor is the one kubectl command every Drover step starts with.
 */
async function floorSteps(kubeconfig: string): Promise<number[]> {
  const floor = new PodFloor();
  const command = ['sleep', '3600'];
  try {
    const times: number[] = [];
    times.push(await timed(() => floor.start(REPLICAS, IMAGE_1, command)));
    times.push(await timed(() => floor.start(REPLICAS, IMAGE_2, command)));
    await floor.removeAll();
    await floor.start(REPLICAS, IMAGE_2, command);
    times.push(await timed(() => floor.start(REPLICAS, IMAGE_2, command)));
    times.push(await timed(async () => void (await run(KUBECTL, ['--kubeconfig', kubeconfig, 'get', 'nodes', '-o', 'name']))));
    return times;
  } finally {
    await floor.removeAll();
  }
}

async function sideBySide(): Promise<void> {
  await prepareDocker();
  const swarm = await swarmSteps();
  const { drover, floor } = await droverSteps();
  console.log(`\nDeployment vs docker service (${REPLICAS} replicas, one machine):`);
  console.log(`  ${'step'.padEnd(26)} ${'swarm'.padStart(9)} ${'drover'.padStart(9)}   ratio (target <= 0.5)   ${'floor'.padStart(9)}  floor/swarm`);
  swarm.forEach((step, i) => {
    const ms = drover[i]!;
    const least = floor[i]!;
    console.log(
      `  ${step.name.padEnd(26)} ${step.swarm.toFixed(0).padStart(7)}ms ${ms.toFixed(0).padStart(7)}ms   ${(ms / step.swarm).toFixed(2).padStart(5)}x${' '.repeat(17)}${least.toFixed(0).padStart(7)}ms  ${(least / step.swarm).toFixed(2)}x`,
    );
  });
}

/** Part 3: the steps with each way of joining the pod network, alternating which goes first. */
async function attachModes(): Promise<void> {
  await prepareDocker();
  const modes: Array<[string, string[]]> = [
    ['direct', []],
    ['engine', ['--pod-network-attach', 'engine']],
  ];
  const times = new Map<string, number[][]>(modes.map(([mode]) => [mode, []]));
  console.log(`Drover's steps (${REPLICAS} replicas) by how sandboxes join the pod network, ${ROUNDS} rounds:`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [mode, args] of round % 2 === 0 ? modes : [...modes].reverse()) {
      const { drover } = await droverSteps([...AGENT_ARGS, ...args], false);
      times.get(mode)!.push(drover);
      console.log(`  round ${round + 1}, ${mode}: ${drover.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
    }
  }
  const names = [`create ${REPLICAS} replicas`, `rolling update of ${REPLICAS}`, `scale to ${REPLICAS * 2}`, `scale to ${Math.max(1, REPLICAS / 5)}`];
  console.log(`\n  ${'step'.padEnd(26)} ${'direct (median [min–max])'.padEnd(28)} ${'engine'.padEnd(28)} direct/engine`);
  names.forEach((name, step) => {
    const [direct, engine] = modes.map(([mode]) => times.get(mode)!.map((round) => round[step]!));
    console.log(
      `  ${name.padEnd(26)} ${`${medianWithRange(direct!)} ms`.padEnd(28)} ${`${medianWithRange(engine!)} ms`.padEnd(28)} ${(median(direct!) / median(engine!)).toFixed(2)}x`,
    );
  });
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Watches the pods: when `total` exist, and when `total` are bound (performance.now() times). */
function countPods(api: ApiClient, total: number): { informer: Informer<Pod>; allCreated: Promise<number>; allBound: Promise<number> } {
  const informer = new Informer<Pod>(api, resources.pods, { namespace: 'default' });
  const live = new Set<string>();
  const bound = new Set<string>();
  let created!: (at: number) => void;
  let allBound!: (at: number) => void;
  const result = { informer, allCreated: new Promise<number>((r) => (created = r)), allBound: new Promise<number>((r) => (allBound = r)) };
  const track = (pod: Readonly<Pod>) => {
    const uid = pod.metadata.uid!;
    if (pod.metadata.deletionTimestamp) return;
    live.add(uid);
    if (pod.spec?.nodeName) bound.add(uid);
    if (live.size === total) created(performance.now());
    if (bound.size === total) allBound(performance.now());
  };
  informer.addEventHandler({ onAdd: track, onUpdate: (_old, pod) => track(pod) });
  return result;
}

/** The server's requests (but watches, and the bench's own lease renewals) per pod, by verb and resource, most first. */
async function requestsPerPod(client: BenchClient, pods: number): Promise<string> {
  const metrics = (await client.call('GET', '/metrics')).body;
  const counts = new Map<string, number>();
  for (const [, labels, value] of metrics.matchAll(/^apiserver_request_total\{([^}]*)\} (\S+)$/gm)) {
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(labels!)?.[1] ?? '';
    const verb = label('verb');
    if (verb === 'WATCH' || label('resource') === 'leases' || label('resource') === 'nodes') continue;
    const key = `${verb} ${label('resource')}${label('subresource') ? `/${label('subresource')}` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(value));
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const top = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([key, n]) => `${key} ${(n / pods).toFixed(2)}`);
  return `${(total / pods).toFixed(2)} in all (${top.join(', ')})`;
}

/** 1,000 Deployments × 10 replicas against a server whose nodes have no agents: pods are created and bound, never run. */
async function controllerThroughput(split: boolean): Promise<void> {
  const server = await startServerProcess(split ? { extraArgs: ['--no-control-plane'] } : {});
  const beside: DroverProcess[] = [];
  if (split) {
    beside.push(await startDroverProcess(['controller-manager', '--kubeconfig', server.kubeconfig, '--identity', 'bench'], 'running'));
    beside.push(await startDroverProcess(['scheduler', '--kubeconfig', server.kubeconfig], 'running'));
  }
  const client = new BenchClient(server.url, server.tls);
  const api = new ApiClient({ server: server.url, namespace: 'default', tls: server.tls });
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    await runConcurrent(NODES, 20, async (i) => {
      const res = await client.call('POST', '/api/v1/nodes', readyNode(`bench-node-${i}`, { cpu: '1000', memory: '4000Gi', pods: '1000' }));
      if (res.status !== 201) throw new Error(`node ${i}: ${res.status} ${res.body}`);
    });
    // Nodes without agents: the benchmark renews their Leases, or node lifecycle would evict.
    const renew = () =>
      runConcurrent(NODES, 20, async (i) => {
        const name = `bench-node-${i}`;
        await api.resource(resources.leases, 'kube-node-lease').patch(
          name,
          'apply',
          {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name, namespace: 'kube-node-lease' },
            spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(new Date()) },
          },
          { fieldManager: 'bench', force: true },
        );
      });
    await renew();
    heartbeat = setInterval(() => void renew().catch(() => undefined), 10_000);
    const total = DEPLOYMENTS * 10;
    // Counted from a watch: listing 10,000 pods every second would load the server it measures.
    const progress = countPods(api, total);
    await progress.informer.start();
    await progress.informer.waitForSync();
    const started = performance.now();
    const created = await runConcurrent(DEPLOYMENTS, 20, async (i) => {
      const body = JSON.parse(deploymentManifest(IMAGE_1, 10)) as KubeObject;
      body.metadata.name = `bench-${i}`;
      (body['spec'] as { selector: unknown }).selector = { matchLabels: { app: `bench-${i}` } };
      ((body['spec'] as { template: KubeObject }).template.metadata.labels as Record<string, string>)['app'] = `bench-${i}`;
      const res = await client.call('POST', '/apis/apps/v1/namespaces/default/deployments', body);
      if (res.status !== 201) throw new Error(`deployment ${i}: ${res.status} ${res.body}`);
    });
    const allCreatedAt = await within(progress.allCreated, 600_000, 'every pod created');
    await within(progress.allBound, 600_000, 'every pod bound');
    const boundAt = performance.now();
    const createSeconds = (allCreatedAt - started) / 1000;
    const seen = progress.informer.list().length;
    await progress.informer.stop();
    const layout = split ? 'API server, controller-manager and scheduler in three processes' : 'all in one drover server process';
    console.log(`\nController throughput: ${DEPLOYMENTS} Deployments x 10 replicas on ${NODES} nodes without agents (${layout})`);
    console.log(`  Deployments posted in ${created.seconds.toFixed(1)} s`);
    console.log(`  ${total} pods created in ${createSeconds.toFixed(1)} s: ${(total / createSeconds).toFixed(0)} pods/s through the API (target >= 1,000/s)`);
    console.log(`  all bound after ${((boundAt - started) / 1000).toFixed(1)} s (pods in the store: ${seen}, of which ${seen - total} extra)`);
    console.log(`  API requests per pod: ${await requestsPerPod(client, total)}`);
  } finally {
    clearInterval(heartbeat);
    api.close();
    await client.close();
    for (const component of beside) await component.stop();
    await server.stop();
    await server.cleanup();
  }
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (only === 'attach') return attachModes();
  if (only === undefined || only === 'swarm') await sideBySide();
  if (only !== 'swarm') {
    if (only !== 'split') await controllerThroughput(false);
    if (only !== 'one-process') await controllerThroughput(true);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
