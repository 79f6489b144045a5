// `npm run bench:gang [-- --quick]`: gang scheduling at scale through a real `drover server`
// (no agents, its own scheduler off) and an in-process scheduler, as bench:scheduler does.
// 1,000 nodes with 12 example.com/gpu each and 500 gangs of 8–64 one-GPU pods submitted at once:
// demand (~18,000 GPUs) exceeds capacity (12,000), so gangs contend and some must wait whole.
// The same pods without gangs go through the same scheduler first, asking for a twin resource
// (example.com/gpu-plain, 12 per node too) so both phases see the same empty capacity.
// Prints bindings per second with and without gangs (first to last binding, informer sync
// excluded), time from submission to each gang fully bound (p50/p99; all gangs are submitted
// before the scheduler starts, so submission = scheduler start), and the deadlock count:
// gangs partially bound (0 < bound < minMember) after binding settled, which must be 0.
// Prints figures; never fails on time.
import { ApiClient } from '../src/client/index.js';
import { startScheduler, type RunningScheduler } from '../src/scheduler/scheduler.js';
import { startServerProcess } from '../test/support/server-process.js';
import { GangWatch } from '../test/support/gang-watch.js';
import { readyNode } from '../test/fixtures/nodes.js';
import { GPU, memberPod, podGroup, PODGROUPS } from '../test/fixtures/gangs.js';
import { BenchClient, runConcurrent, summarize } from './http-client.js';

const QUICK = process.argv.includes('--quick');
const NODES = Number(process.env['BENCH_NODES'] ?? (QUICK ? 100 : 1_000));
const GANGS = Number(process.env['BENCH_GANGS'] ?? (QUICK ? 50 : 500));
const GPUS_PER_NODE = 12;
const PLAIN_GPU = 'example.com/gpu-plain';
const SETTLE_MS = 2_000;

interface Gang {
  name: string;
  size: number;
}

function gangs(): Gang[] {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: GANGS }, (_, i) => ({ name: `g${i}`, size: 8 + Math.floor(random() * 57) }));
}

async function create(client: BenchClient, what: string, total: number, path: (i: number) => string, make: (i: number) => unknown): Promise<void> {
  const { seconds } = await runConcurrent(total, 50, async (i) => {
    const res = await client.call('POST', path(i), make(i));
    if (res.status !== 201) throw new Error(`create ${what} ${i}: ${res.status} ${res.body}`);
  });
  console.log(`created ${total} ${what} in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)}/s)`);
}

interface PhaseResult {
  bound: number;
  rate: number;
  syncSeconds: number;
}

/** Starts a scheduler for `schedulerName` and waits until it has bound nothing new for SETTLE_MS. */
async function runScheduler(api: ApiClient, schedulerName: string): Promise<PhaseResult & { scheduler: RunningScheduler }> {
  const started = performance.now();
  const scheduler = await startScheduler({ api, schedulerName });
  const syncSeconds = (performance.now() - started) / 1000;
  let last = 0;
  let firstAt = 0;
  let lastAt = performance.now();
  while (performance.now() - lastAt < SETTLE_MS) {
    await new Promise((r) => setTimeout(r, 20));
    if (scheduler.bound !== last) {
      if (last === 0) firstAt = performance.now();
      last = scheduler.bound;
      lastAt = performance.now();
    }
    if (performance.now() - started > 900_000) throw new Error('binding did not settle within 15 min');
  }
  const rate = last > 1 ? (last - 1) / ((lastAt - firstAt) / 1000) : 0;
  return { scheduler, bound: last, rate, syncSeconds };
}

async function plainPhase(client: BenchClient, api: ApiClient, all: Gang[]): Promise<PhaseResult> {
  const pods = all.flatMap((g) => Array.from({ length: g.size }, (_, i) => `${g.name}-${i}`));
  await create(client, 'plain pods', pods.length, () => '/api/v1/namespaces/plain/pods', (i) => {
    const pod = memberPod(pods[i]!, '', { plain: true, schedulerName: 'bench-plain' });
    (pod.spec['containers'] as Array<{ resources: unknown }>)[0]!.resources = { requests: { [PLAIN_GPU]: '1' }, limits: { [PLAIN_GPU]: '1' } };
    return pod;
  });
  const run = await runScheduler(api, 'bench-plain');
  await run.scheduler.stop();
  return run;
}

async function gangPhase(client: BenchClient, api: ApiClient, all: Gang[]): Promise<PhaseResult & { p50: number; p99: number; whole: number; deadlocked: number }> {
  await create(client, 'PodGroups', all.length, () => PODGROUPS('gangs'), (i) => podGroup(all[i]!.name, { minMember: all[i]!.size }));
  const pods = all.flatMap((g) => Array.from({ length: g.size }, (_, i) => ({ name: `${g.name}-${i}`, group: g.name })));
  await create(client, 'gang pods', pods.length, () => '/api/v1/namespaces/gangs/pods', (i) => memberPod(pods[i]!.name, pods[i]!.group, { gpus: 1, schedulerName: 'bench-gang' }));
  const watch = new GangWatch(api, 'gangs', SETTLE_MS);
  for (const g of all) watch.expect(g.name, g.size);
  await watch.start();
  const submitted = Date.now();
  const run = await runScheduler(api, 'bench-gang');
  await new Promise((r) => setTimeout(r, 500));
  const latencies = all.map((g) => watch.fullyBound(g.name)).filter((t): t is number => t !== undefined).map((t) => t - submitted);
  const partial = watch.partialNow();
  await watch.stop();
  await run.scheduler.stop();
  const { p50, p99 } = summarize(latencies);
  return { ...run, p50, p99, whole: latencies.length, deadlocked: new Set([...partial, ...watch.deadlocked.keys()]).size };
}

async function main(): Promise<void> {
  const server = await startServerProcess({ extraArgs: ['--no-control-plane'] });
  const client = new BenchClient(server.url);
  const api = new ApiClient({ server: server.url, namespace: 'default' }, { userAgent: 'drover-bench-gang' });
  try {
    const all = gangs();
    const demand = all.reduce((n, g) => n + g.size, 0);
    console.log(`drover gang benchmark${QUICK ? ' (--quick)' : ''}: ${NODES} nodes x ${GPUS_PER_NODE} GPUs = ${NODES * GPUS_PER_NODE} GPUs, ${GANGS} gangs of 8-64 one-GPU pods = ${demand} pods\n`);
    for (const ns of ['plain', 'gangs']) await client.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await create(client, 'nodes', NODES, () => '/api/v1/nodes', (i) => readyNode(`node-${i}`, { cpu: '64', memory: '256Gi', pods: '250', extended: { [GPU]: String(GPUS_PER_NODE), [PLAIN_GPU]: String(GPUS_PER_NODE) } }));
    const plain = await plainPhase(client, api, all);
    const gang = await gangPhase(client, api, all);
    console.log(`\nwithout gangs: ${plain.bound} of ${demand} pods bound at ${plain.rate.toFixed(0)} bindings/s (informer sync ${plain.syncSeconds.toFixed(1)} s)`);
    console.log(`with gangs:    ${gang.bound} of ${demand} pods bound at ${gang.rate.toFixed(0)} bindings/s (informer sync ${gang.syncSeconds.toFixed(1)} s) = ${(gang.rate / plain.rate).toFixed(2)}x the plain rate (target >= 0.8x)`);
    console.log(`gangs bound whole: ${gang.whole} of ${GANGS}; submission -> gang fully bound p50 ${(gang.p50 / 1000).toFixed(2)} s, p99 ${(gang.p99 / 1000).toFixed(2)} s`);
    console.log(`deadlocks (gangs partially bound after binding settled for ${SETTLE_MS / 1000} s): ${gang.deadlocked}`);
  } finally {
    api.close();
    await client.close();
    await server.stop();
    await server.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
