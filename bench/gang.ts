// `npm run bench:gang [-- --quick]`: gang scheduling at scale through a real `drover server`
// (no agents, its own scheduler off) and an in-process scheduler, as bench:scheduler does.
// 1,000 nodes with 12 example.com/gpu each and 500 gangs of 8–64 one-GPU pods (minMember = all
// of them) submitted at once: demand (~18,000 GPUs) exceeds capacity (12,000), so gangs contend
// and some must wait whole. The same pods without gangs go through a scheduler of their own in
// the same run; the phases alternate (plain, gangs, plain, gangs, ... BENCH_ROUNDS rounds, 2 by
// default) on the same empty nodes (each phase's pods are deleted after it), because this
// machine is shared and one pair of phases can differ by 2x from noise alone.
// Prints bindings per second with and without gangs (first to last binding; informer sync
// excluded), time from submission to each gang fully bound (p50/p99; all gangs are submitted
// before the scheduler starts, so submission = scheduler start), the API writes of each phase,
// and the deadlock count: gangs partially bound (0 < bound < minMember) once binding settled,
// or at any time for longer than 2 s without progress (GangWatch), which must be 0.
// Prints figures; never fails on time.
import { readFileSync } from 'node:fs';
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
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? (QUICK ? 1 : 2));
const GPUS_PER_NODE = 12;
const SETTLE_MS = 2_000;
/** The API server's process id, for its CPU time. */
let serverPid: number | undefined;

interface Gang {
  name: string;
  size: number;
}

function gangs(): Gang[] {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: GANGS }, (_, i) => ({ name: `g${i}`, size: 8 + Math.floor(random() * 57) }));
}

async function create(client: BenchClient, total: number, path: string, make: (i: number) => unknown): Promise<void> {
  await runConcurrent(total, 50, async (i) => {
    const res = await client.call('POST', path, make(i));
    if (res.status !== 201) throw new Error(`create ${path} ${i}: ${res.status} ${res.body}`);
  });
}

/** Deletes every pod and PodGroup of the namespace, at once, and waits until they are gone. */
async function clear(client: BenchClient, namespace: string): Promise<void> {
  await client.call('DELETE', `/api/v1/namespaces/${namespace}/pods?gracePeriodSeconds=0`);
  await client.call('DELETE', `${PODGROUPS(namespace)}`);
  for (;;) {
    const list = JSON.parse((await client.call('GET', `/api/v1/namespaces/${namespace}/pods?limit=1`)).body) as { items: unknown[] };
    if (list.items.length === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The API server's successful writes (apiserver_request_total) by verb and resource. */
async function writeCounts(client: BenchClient): Promise<Map<string, number>> {
  const text = (await client.call('GET', '/metrics')).body;
  const out = new Map<string, number>();
  for (const [, labelText, value] of text.matchAll(/^apiserver_request_total\{([^}]*)\} (\d+)/gm)) {
    const labels = Object.fromEntries([...labelText!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (!['POST', 'PATCH', 'APPLY', 'PUT'].includes(labels['verb'] ?? '') || !labels['code']?.startsWith('2')) continue;
    const key = `${labels['verb']} ${labels['resource']}${labels['subresource'] ? `/${labels['subresource']}` : ''}`;
    out.set(key, (out.get(key) ?? 0) + Number(value));
  }
  return out;
}

function writesSince(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([key, n]) => [key, n - (before.get(key) ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ');
}

/** CPU seconds used so far by this process (scheduler, watch, clients) and by the API server process. */
function cpuSeconds(): { bench: number; server: number } {
  const usage = process.cpuUsage();
  // /proc/<pid>/stat fields 14 and 15: utime and stime in clock ticks (100 per second on Linux).
  const fields = serverPid === undefined ? [] : readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  return { bench: (usage.user + usage.system) / 1e6, server: ticks / 100 };
}

interface PhaseResult {
  bound: number;
  /** CPU microseconds per binding in this process (the scheduler) and in the API server. */
  cpuPerBinding: { bench: number; server: number };
  rate: number;
  syncSeconds: number;
  /** Seconds from the first binding until 50%, 90% and 100% of the final count were bound. */
  marks: string;
  writes: string;
}

/** Starts a scheduler for `schedulerName` and waits until it has bound nothing new for SETTLE_MS. */
async function runScheduler(api: ApiClient, schedulerName: string): Promise<Omit<PhaseResult, 'writes'> & { scheduler: RunningScheduler }> {
  const started = performance.now();
  const cpuBefore = cpuSeconds();
  const scheduler = await startScheduler({ api, schedulerName });
  const syncSeconds = (performance.now() - started) / 1000;
  let last = 0;
  let firstAt = 0;
  let lastAt = performance.now();
  const samples: Array<[number, number]> = [];
  while (performance.now() - lastAt < SETTLE_MS) {
    await new Promise((r) => setTimeout(r, 20));
    if (scheduler.bound !== last) {
      if (last === 0) firstAt = performance.now();
      last = scheduler.bound;
      lastAt = performance.now();
      samples.push([lastAt, last]);
    }
    if (performance.now() - started > 900_000) throw new Error('binding did not settle within 15 min');
  }
  const rate = last > 1 ? (last - 1) / ((lastAt - firstAt) / 1000) : 0;
  const mark = (share: number) => ((samples.find(([, n]) => n >= share * last)?.[0] ?? lastAt) - firstAt) / 1000;
  const marks = `50% ${mark(0.5).toFixed(1)} s, 90% ${mark(0.9).toFixed(1)} s, 100% ${mark(1).toFixed(1)} s`;
  const cpuAfter = cpuSeconds();
  const cpuPerBinding = {
    bench: ((cpuAfter.bench - cpuBefore.bench) * 1e6) / Math.max(1, last),
    server: ((cpuAfter.server - cpuBefore.server) * 1e6) / Math.max(1, last),
  };
  return { scheduler, bound: last, rate, syncSeconds, marks, cpuPerBinding };
}

async function plainPhase(client: BenchClient, api: ApiClient, all: Gang[], namespace: string): Promise<PhaseResult> {
  const pods = all.flatMap((g) => Array.from({ length: g.size }, (_, i) => `${g.name}-${i}`));
  await create(client, pods.length, `/api/v1/namespaces/${namespace}/pods`, (i) => {
    const pod = memberPod(pods[i]!, '', { plain: true, gpus: 1, schedulerName: `${namespace}-scheduler` });
    return { ...pod, metadata: { ...pod.metadata, labels: { bench: 'plain' } } };
  });
  // The same watch as the gang phase runs, so both phases carry its cost in this process.
  const watch = new GangWatch(api, namespace, SETTLE_MS, 'bench=plain');
  await watch.start();
  const before = await writeCounts(client);
  const run = await runScheduler(api, `${namespace}-scheduler`);
  const writes = writesSince(before, await writeCounts(client));
  await watch.stop();
  await run.scheduler.stop();
  return { ...run, writes };
}

interface GangPhaseResult extends PhaseResult {
  latencies: number[];
  whole: number;
  deadlocked: number;
}

async function gangPhase(client: BenchClient, api: ApiClient, all: Gang[], namespace: string): Promise<GangPhaseResult> {
  await create(client, all.length, PODGROUPS(namespace), (i) => podGroup(all[i]!.name, { minMember: all[i]!.size }));
  const pods = all.flatMap((g) => Array.from({ length: g.size }, (_, i) => ({ name: `${g.name}-${i}`, group: g.name })));
  await create(client, pods.length, `/api/v1/namespaces/${namespace}/pods`, (i) =>
    memberPod(pods[i]!.name, pods[i]!.group, { gpus: 1, schedulerName: `${namespace}-scheduler` }),
  );
  const watch = new GangWatch(api, namespace, SETTLE_MS);
  for (const g of all) watch.expect(g.name, g.size);
  await watch.start();
  const before = await writeCounts(client);
  const submitted = Date.now();
  const run = await runScheduler(api, `${namespace}-scheduler`);
  const writes = writesSince(before, await writeCounts(client));
  await new Promise((r) => setTimeout(r, 500));
  const latencies = all
    .map((g) => watch.fullyBound(g.name))
    .filter((t): t is number => t !== undefined)
    .map((t) => t - submitted);
  const partial = watch.partialNow();
  await watch.stop();
  await run.scheduler.stop();
  return { ...run, writes, latencies, whole: latencies.length, deadlocked: new Set([...partial, ...watch.deadlocked.keys()]).size };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

async function main(): Promise<void> {
  const server = await startServerProcess({ extraArgs: ['--no-control-plane'] });
  serverPid = server.child.pid;
  const client = new BenchClient(server.url, server.tls);
  const api = new ApiClient({ server: server.url, namespace: 'default', tls: server.tls }, { userAgent: 'drover-bench-gang' });
  try {
    const all = gangs();
    const demand = all.reduce((n, g) => n + g.size, 0);
    console.log(
      `drover gang benchmark${QUICK ? ' (--quick)' : ''}: ${NODES} nodes x ${GPUS_PER_NODE} GPUs = ${NODES * GPUS_PER_NODE} GPUs, ` +
        `${GANGS} gangs of 8-64 one-GPU pods = ${demand} pods, ${ROUNDS} round(s) of plain then gangs\n`,
    );
    await create(client, NODES, '/api/v1/nodes', (i) =>
      readyNode(`node-${i}`, { cpu: '64', memory: '256Gi', pods: '250', extended: { [GPU]: String(GPUS_PER_NODE) } }),
    );
    const plainRuns: PhaseResult[] = [];
    const gangRuns: GangPhaseResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ['plain', 'gangs'] as const) {
        const namespace = `${kind}-${round}`;
        await client.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
        const result = kind === 'plain' ? await plainPhase(client, api, all, namespace) : await gangPhase(client, api, all, namespace);
        if (kind === 'plain') plainRuns.push(result);
        else gangRuns.push(result as GangPhaseResult);
        console.log(
          `round ${round} ${kind.padEnd(6)} ${result.bound} of ${demand} pods bound at ${result.rate.toFixed(0)} bindings/s ` +
            `(informer sync ${result.syncSeconds.toFixed(1)} s; after the first binding: ${result.marks}); CPU per binding: ` +
            `scheduler process ${result.cpuPerBinding.bench.toFixed(0)} µs, API server ${result.cpuPerBinding.server.toFixed(0)} µs`,
        );
        console.log(`  API writes: ${result.writes}`);
        await clear(client, namespace);
      }
    }
    const plainRate = median(plainRuns.map((r) => r.rate));
    const gangRate = median(gangRuns.map((r) => r.rate));
    const { p50, p99 } = summarize(gangRuns.flatMap((r) => r.latencies));
    console.log(`\nwithout gangs: ${plainRate.toFixed(0)} bindings/s (median of ${ROUNDS})`);
    console.log(
      `with gangs:    ${gangRate.toFixed(0)} bindings/s (median of ${ROUNDS}) = ${(gangRate / plainRate).toFixed(2)}x the plain rate (target >= 0.8x)`,
    );
    const cpu = (runs: PhaseResult[], side: 'bench' | 'server') => median(runs.map((r) => r.cpuPerBinding[side]));
    console.log(
      `CPU per binding (median; steadier than wall time on a shared machine): scheduler process ${cpu(plainRuns, 'bench').toFixed(0)} -> ${cpu(gangRuns, 'bench').toFixed(0)} µs, ` +
        `API server ${cpu(plainRuns, 'server').toFixed(0)} -> ${cpu(gangRuns, 'server').toFixed(0)} µs (without -> with gangs)`,
    );
    console.log(
      `gangs bound whole: ${gangRuns.map((r) => r.whole).join(', ')} of ${GANGS}; submission -> gang fully bound p50 ${(p50 / 1000).toFixed(2)} s, p99 ${(p99 / 1000).toFixed(2)} s`,
    );
    console.log(`deadlocks (gangs partially bound once binding settled, or for 2 s without progress): ${gangRuns.reduce((n, r) => n + r.deadlocked, 0)}`);
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
