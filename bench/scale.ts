// `npm run bench:scale`: a cluster at Kubernetes' published limits on one machine — 5,000
// hollow nodes (`drover simulate`, its own process) and 150,000 pods created as Deployments of
// 100 replicas, reconciled by the real controllers and bound by the real scheduler of a
// `drover server` — once on SQLite and once on a fresh etcd member (Debian's etcd-server, on
// loopback), in one run. Prints pods bound per second; the latency of mutating calls, gets and
// cluster-wide lists during the load as a share of Kubernetes' SLOs (1 s, 1 s, 30 s), both as
// the benchmark's own probes saw it and as the server's histogram of every request shows it;
// watch delivery; the RSS of the server, the simulation and etcd; and the store's size.
// Then the same latencies once the cluster is full (Kubernetes' SLOs are for a cluster under a
// sustainable load, which "everything at once" is not): a steady phase of BENCH_SCALE_STEADY_S
// seconds (default 60) with the probes running while the hollow nodes keep their Leases and
// status and a Deployment grows at a paced BENCH_SCALE_PACED_PODS pods a second (default 10, for
// 30 s: the pod startup SLO, 5 s at p99, is defined for such a paced load).
//
// `--split` runs the control plane as Kubernetes deploys it: the API server alone
// (`--no-control-plane`), with `drover controller-manager` and `drover scheduler` as processes
// of their own beside it; by default all three share one `drover server` process (one core).
//
// Size: `--nodes N --pods P` (after `--`), or BENCH_SCALE=quick (500 nodes, 5,000 pods);
// `--store sqlite|etcd|both` (default both); `--limit-minutes M` (default 30) stops waiting on a
// store after M minutes and prints the figures of what was reached. Never fails on time.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '../src/client/index.js';
import { startEtcd, type EtcdMember } from '../test/support/storage/etcd-member.js';
import { startDroverProcess, type DroverProcess } from '../test/support/drover-process.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';
import { BenchClient, runConcurrent, summarize } from './http-client.js';
import { memoryOf } from './process-memory.js';
import { bucketQuantile, difference, etcdFigures, requestHistograms, type VerbGroup } from './scale-metrics.js';
import { PROBE_NAMESPACE, PROBE_PODS, Probes, probePod, type ProbeResults } from './scale-probes.js';
import { PodTracker } from './scale-tracker.js';

interface Size {
  nodes: number;
  pods: number;
  replicas: number;
  name: string;
  limitMs: number;
}
type StoreName = 'sqlite' | 'etcd';

const PODS_PER_NAMESPACE = 5_000;
/** Giving up on a run whose pods stop making progress for this long (a run never fails on time). */
const STALL_MS = 180_000;
const ETCD_QUOTA_BYTES = 8 * 2 ** 30;
const SLO_MS: Record<VerbGroup, number> = { mutating: 1_000, get: 1_000, list: 30_000 };
const STEADY_MS = Number(process.env['BENCH_SCALE_STEADY_S'] ?? 60) * 1000;
const PACED_PODS_PER_S = Number(process.env['BENCH_SCALE_PACED_PODS'] ?? 10);
const PACED_SECONDS = 30;
const STEADY_NAMESPACE = 'scale-steady';
/** Kubernetes' pod startup SLO: p99 of created → Running (image pulls aside) within 5 s, under a paced load. */
const POD_STARTUP_SLO_MS = 5_000;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}

function sizeOf(): Size {
  const quick = process.env['BENCH_SCALE'] === 'quick';
  const nodes = Number(option('nodes') ?? (quick ? 500 : 5_000));
  const pods = Number(option('pods') ?? (quick ? 5_000 : 150_000));
  const name = option('nodes') || option('pods') ? 'chosen with --nodes/--pods' : quick ? 'BENCH_SCALE=quick' : "full: Kubernetes' published limits";
  const limitMs = Number(option('limit-minutes') ?? 30) * 60_000;
  return { nodes, pods, replicas: Math.min(100, pods), name, limitMs };
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : digits) : 'n/a');
const count = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${fmt(ms / 1000)} s`;

function deployment(name: string, namespace: string, replicas: number): Record<string, unknown> {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '3600'], resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
        },
      },
    },
  };
}

async function post(client: BenchClient, path: string, body: unknown): Promise<void> {
  const res = await client.call('POST', path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.body.slice(0, 300)}`);
}

/** Creates the namespaces and Deployments of the load; resolves when all are created. */
async function createLoad(client: BenchClient, size: Size): Promise<number> {
  const deployments = Math.ceil(size.pods / size.replicas);
  const perNamespace = Math.max(1, Math.floor(PODS_PER_NAMESPACE / size.replicas));
  for (let ns = 0; ns * perNamespace < deployments; ns++)
    await post(client, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `scale-${ns}` } });
  const { seconds: took } = await runConcurrent(deployments, 8, async (i) => {
    const replicas = Math.min(size.replicas, size.pods - i * size.replicas);
    const namespace = `scale-${Math.floor(i / perNamespace)}`;
    await post(client, `/apis/apps/v1/namespaces/${namespace}/deployments`, deployment(`load-${i}`, namespace, replicas));
  });
  console.log(`created ${count(deployments)} Deployments (${size.replicas} replicas each) in ${fmt(took)} s`);
  return deployments;
}

/** Waits until every pod runs, printing progress; stops early when nothing moves for STALL_MS or at the time limit. */
async function untilRunning(tracker: PodTracker, size: Size, started: number, sample: () => Promise<void>): Promise<void> {
  let last = { bound: -1, running: -1 };
  let movedAt = performance.now();
  let printedAt = 0;
  for (;;) {
    const now = tracker.counts();
    if (now.bound !== last.bound || now.running !== last.running) movedAt = performance.now();
    last = now;
    await sample();
    if (performance.now() - printedAt >= 15_000 || now.running >= size.pods) {
      printedAt = performance.now();
      console.log(`  ${seconds(printedAt - started).padStart(8)}: ${count(now.seen)} pods created, ${count(now.bound)} bound, ${count(now.running)} Running`);
    }
    if (now.running >= size.pods) return;
    if (performance.now() - movedAt > STALL_MS) {
      console.log(`  no progress for ${STALL_MS / 1000} s: stopping with ${count(now.running)} of ${count(size.pods)} Running`);
      return;
    }
    if (performance.now() - started > size.limitMs) {
      console.log(
        `  time limit (--limit-minutes ${size.limitMs / 60_000}) reached: figures below are for the ${count(now.running)} of ${count(size.pods)} pods Running by then`,
      );
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function latencyLine(name: string, latencies: number[], sloMs: number): string {
  const { p50, p99 } = summarize(latencies);
  return `  ${name.padEnd(34)} ${String(latencies.length).padStart(7)} calls  p50 ${fmt(p50).padStart(8)} ms  p99 ${fmt(p99).padStart(8)} ms  = ${fmt((p99 / sloMs) * 100)} % of the ${sloMs / 1000} s SLO`;
}

function reportProbes(results: ProbeResults, size: Size, when = 'during the load'): void {
  console.log(`API call latency ${when}, the benchmark's own calls (client side):`);
  console.log(latencyLine('mutating (patch, create, delete)', results.mutating, SLO_MS.mutating));
  console.log(latencyLine('get (pod, node)', results.get, SLO_MS.get));
  console.log(latencyLine(`list all ${count(size.nodes)} nodes`, results.listNodes, SLO_MS.list));
  console.log(latencyLine('list pods, all namespaces', results.listPods, SLO_MS.list));
  const watch = summarize(results.watch);
  console.log(
    `  watch delivery (pod watch, all namespaces): ${results.watch.length} events  p50 ${fmt(watch.p50)} ms  p99 ${fmt(watch.p99)} ms  (from PATCH sent to event received)`,
  );
  if (results.errors > 0) console.log(`  ${results.errors} probe calls failed, the first saying: ${results.errorSamples.join(' | ')}`);
}

function reportServerHistogram(before: string, after: string, when = 'during the load'): void {
  console.log(`every request the server answered ${when} (its histogram: bucket bounds, so "<="):`);
  const [b, a] = [requestHistograms(before), requestHistograms(after)];
  for (const group of ['mutating', 'get', 'list'] as const) {
    const buckets = difference(a.get(group), b.get(group));
    const p50 = bucketQuantile(buckets, 0.5);
    const p99 = bucketQuantile(buckets, 0.99);
    const ms = (s: number) => (Number.isFinite(s) ? `<= ${fmt(s * 1000)} ms` : '> 5 s');
    const share = Number.isFinite(p99.bound)
      ? `<= ${fmt((p99.bound * 1000 * 100) / SLO_MS[group])} % of the ${SLO_MS[group] / 1000} s SLO`
      : 'over the histogram';
    console.log(
      `  ${group.padEnd(9)} ${count(p99.total).padStart(9)} requests  p50 ${ms(p50.bound).padStart(12)}  p99 ${ms(p99.bound).padStart(12)}  (${share})`,
    );
  }
}

/** The largest of many numbers (a spread of 150,000 arguments would overflow the stack). */
function latest(values: number[]): number {
  return values.reduce((a, b) => Math.max(a, b), -Infinity);
}

function fileMb(path: string): number {
  try {
    return statSync(path).size / 2 ** 20;
  } catch {
    return 0;
  }
}

function reportPods(tracker: PodTracker, size: Size, started: number): void {
  const bound = [...tracker.boundAt.values()];
  const lastBound = latest(bound);
  const running = [...tracker.runningAt.values()];
  console.log(
    `bound ${count(bound.length)} pods in ${seconds(lastBound - started)}: ${fmt(bound.length / ((lastBound - started) / 1000))} pods bound per second (Deployments of ${size.replicas}; from the first Deployment created to the last pod seen bound)`,
  );
  if (running.length > 0)
    console.log(`all ${count(running.length)} pods seen Running ${seconds(latest(running) - started)} after the first Deployment was created`);
  const startup = summarize([...tracker.runningAt].map(([uid, at]) => at - (tracker.firstSeen.get(uid) ?? at)));
  console.log(
    `pod startup, pod first seen -> seen Running: p50 ${seconds(startup.p50)}, p99 ${seconds(startup.p99)} (SLO 5 s is for a paced load; here all were created at once, so this is mostly queueing)`,
  );
}

/** Nodes still Ready, the processes' memory, the store's size. */
async function reportFootprint(
  client: BenchClient,
  size: Size,
  server: ServerProcess,
  simulation: DroverProcess,
  controlPlane: readonly DroverProcess[],
  etcd: EtcdMember | undefined,
  etcdPeakMb: number,
): Promise<void> {
  const res = await client.call('GET', '/api/v1/nodes');
  // An overloaded server may answer this last list with an error: that is a figure too.
  if (res.status !== 200) console.log(`hollow nodes Ready at the end: the list of nodes failed (${res.status} ${res.body.slice(0, 200)})`);
  else {
    const nodes = JSON.parse(res.body) as { items: Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }> };
    const ready = nodes.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
    console.log(`hollow nodes Ready at the end (Leases kept up under the load): ${count(ready)} of ${count(size.nodes)}`);
  }
  const serverMemory = memoryOf(server.child.pid!);
  const simMemory = memoryOf(simulation.child.pid!);
  console.log(
    `memory: server RSS ${fmt(serverMemory.rssMb)} MB (peak ${fmt(serverMemory.peakMb)} MB); drover simulate RSS ${fmt(simMemory.rssMb)} MB (peak ${fmt(simMemory.peakMb)} MB)`,
  );
  for (const [i, component] of controlPlane.entries()) {
    const memory = memoryOf(component.child.pid!);
    console.log(`memory: ${['controller-manager', 'scheduler'][i]} RSS ${fmt(memory.rssMb)} MB (peak ${fmt(memory.peakMb)} MB)`);
  }
  if (etcd) {
    const figures = await etcdFigures(etcd.endpoint);
    console.log(
      `etcd: RSS ${fmt(figures.rssMb)} MB (highest sampled ${fmt(Math.max(etcdPeakMb, figures.rssMb))} MB); db size ${fmt(figures.dbMb)} MB, in use ${fmt(figures.dbInUseMb)} MB (etcd_mvcc_db_total_size_*)`,
    );
  } else {
    const db = join(server.dataDir, 'state.db');
    console.log(`store: state.db ${fmt(fileMb(db))} MB (+ WAL ${fmt(fileMb(`${db}-wal`))} MB)`);
  }
}

/** The load and the probes beside it, then the figures of both; returns etcd's highest sampled RSS. */
async function loadAndMeasure(client: BenchClient, size: Size, probes: Probes, tracker: PodTracker, etcd: EtcdMember | undefined): Promise<number> {
  await post(client, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: PROBE_NAMESPACE } });
  for (let i = 0; i < PROBE_PODS; i++) await post(client, `/api/v1/namespaces/${PROBE_NAMESPACE}/pods`, probePod(i));
  await tracker.start();
  let etcdPeakMb = 0;
  const sample = async () => {
    if (etcd) etcdPeakMb = Math.max(etcdPeakMb, (await etcdFigures(etcd.endpoint).catch(() => ({ rssMb: 0 }))).rssMb);
  };
  const before = (await client.call('GET', '/metrics')).body;
  probes.start();
  const started = performance.now();
  await createLoad(client, size);
  await untilRunning(tracker, size, started, sample);
  await probes.stop();
  const after = (await client.call('GET', '/metrics')).body;
  reportPods(tracker, size, started);
  reportProbes(probes.results, size);
  reportServerHistogram(before, after);
  return etcdPeakMb;
}

/**
 * The cluster full, under a sustainable load: fresh probes for STEADY_MS while a Deployment
 * grows by PACED_PODS_PER_S pods a second for PACED_SECONDS; prints the probes' and the
 * server's latencies for that window and the paced pods' startup.
 */
async function steadyPhase(client: BenchClient, size: Size, probes: Probes, tracker: PodTracker): Promise<void> {
  console.log(
    `steady phase: ${count(size.pods)} pods placed, ${seconds(STEADY_MS)} of probes, a Deployment paced at ${PACED_PODS_PER_S} pods/s for ${PACED_SECONDS} s`,
  );
  await post(client, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: STEADY_NAMESPACE } });
  await post(client, `/apis/apps/v1/namespaces/${STEADY_NAMESPACE}/deployments`, deployment('paced', STEADY_NAMESPACE, 0));
  const before = (await client.call('GET', '/metrics')).body;
  probes.start();
  const started = performance.now();
  for (let second = 1; second <= PACED_SECONDS; second++) {
    const scale = { spec: { replicas: second * PACED_PODS_PER_S } };
    const res = await client.call('PATCH', `/apis/apps/v1/namespaces/${STEADY_NAMESPACE}/deployments/paced/scale`, scale, 'application/merge-patch+json');
    if (res.status !== 200) throw new Error(`scale the paced Deployment: ${res.status} ${res.body.slice(0, 200)}`);
    const next = started + second * 1000;
    if (next > performance.now()) await new Promise((r) => setTimeout(r, next - performance.now()));
  }
  const rest = started + STEADY_MS - performance.now();
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  await probes.stop();
  const after = (await client.call('GET', '/metrics')).body;
  reportProbes(probes.results, size, 'in the steady phase');
  reportServerHistogram(before, after, 'in the steady phase');
  const paced = tracker.startups(STEADY_NAMESPACE);
  const startup = summarize(paced.map((pod) => pod.ms));
  const expected = PACED_SECONDS * PACED_PODS_PER_S;
  console.log(
    `paced pod startup, first seen -> seen Running: ${count(paced.length)} of ${count(expected)} pods Running, p50 ${seconds(startup.p50)}, p99 ${seconds(startup.p99)} = ${fmt((startup.p99 / POD_STARTUP_SLO_MS) * 100)} % of the 5 s SLO`,
  );
}

async function runOnStore(store: StoreName, size: Size): Promise<void> {
  const etcd: EtcdMember | undefined = store === 'etcd' ? await startEtcd(['--quota-backend-bytes', String(ETCD_QUOTA_BYTES)]) : undefined;
  const storeArgs = etcd ? ['--etcd-endpoints', etcd.endpoint] : [];
  const split = process.argv.includes('--split');
  // The data checker stays off: its rounds would be load the benchmark does not describe.
  const server: ServerProcess = await startServerProcess({
    extraArgs: ['--data-check-interval', '0', ...(split ? ['--no-control-plane'] : []), ...storeArgs],
  });
  const controlPlane: DroverProcess[] = [];
  const client = new BenchClient(server.url, server.tls);
  const api = new ApiClient({ server: server.url, namespace: 'default', tls: server.tls }, { userAgent: 'drover-bench-scale' });
  const nodeNames = Array.from({ length: size.nodes }, (_, i) => `hollow-${i}`);
  const probes = new Probes(client, nodeNames);
  const steadyProbes = new Probes(client, nodeNames);
  const tracker = new PodTracker(api, 'scale-', (pod) => {
    probes.observe(pod);
    steadyProbes.observe(pod);
  });
  let simulation: DroverProcess | undefined;
  try {
    const what = etcd ? `etcd (one member at ${etcd.endpoint}, quota ${ETCD_QUOTA_BYTES / 2 ** 30} GiB)` : 'SQLite';
    const layout = split ? 'API server, controller-manager and scheduler as three processes' : 'one drover server process';
    console.log(`\n== drover scale benchmark on ${what}, ${layout}: ${count(size.nodes)} hollow nodes, ${count(size.pods)} pods as Deployments (${size.name})`);
    if (split) {
      controlPlane.push(await startDroverProcess(['controller-manager', '--kubeconfig', server.kubeconfig, '--identity', 'bench-scale'], 'running'));
      controlPlane.push(await startDroverProcess(['scheduler', '--kubeconfig', server.kubeconfig], 'running'));
    }
    const t0 = performance.now();
    simulation = await startDroverProcess(
      ['simulate', '--nodes', String(size.nodes), '--kubeconfig', server.kubeconfig],
      `${size.nodes} hollow nodes ready`,
      1_800_000,
    );
    console.log(`registered ${count(size.nodes)} hollow nodes (Node, status, Lease) in ${seconds(performance.now() - t0)}`);
    const etcdPeakMb = await loadAndMeasure(client, size, probes, tracker, etcd);
    if (STEADY_MS > 0) await steadyPhase(client, size, steadyProbes, tracker);
    await reportFootprint(client, size, server, simulation, controlPlane, etcd, etcdPeakMb);
  } finally {
    await probes.stop();
    await steadyProbes.stop();
    await tracker.stop();
    await simulation?.stop();
    for (const component of controlPlane) await component.stop();
    await client.close();
    api.close();
    await server.stop();
    await server.cleanup();
    await etcd?.cleanup();
  }
}

async function main(): Promise<void> {
  const size = sizeOf();
  const which = option('store') ?? 'both';
  const stores: StoreName[] = which === 'both' ? ['sqlite', 'etcd'] : [which as StoreName];
  console.log(
    `bench:scale — ${count(size.nodes)} nodes, ${count(size.pods)} pods (${size.name}); stores: ${stores.join(', ')}; at most ${size.limitMs / 60_000} min per store`,
  );
  for (const store of stores) await runOnStore(store, size);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
