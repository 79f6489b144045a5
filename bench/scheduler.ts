// `npm run bench:scheduler`: 5,000 nodes and 50,000 pending pods created through the API of a
// real `drover server` (no agents), then a scheduler started on them; prints bindings per
// second, each one persisted by the API server. Prints figures; never fails on time.
import { ApiClient, resources } from '../src/client/index.js';
import { startScheduler } from '../src/scheduler/scheduler.js';
import { startServerProcess } from '../test/support/server-process.js';
import { pendingPod, readyNode } from '../test/fixtures/nodes.js';
import { BenchClient, runConcurrent } from './http-client.js';

const NODES = Number(process.env['BENCH_NODES'] ?? 5_000);
const PODS = Number(process.env['BENCH_SCHED_PODS'] ?? 50_000);
/** The server's own scheduler leaves these pods alone; the benchmark's scheduler takes them. */
const SCHEDULER_NAME = 'drover-bench-scheduler';

async function createAll(client: BenchClient, what: string, total: number, path: string, make: (i: number) => unknown): Promise<void> {
  const { seconds } = await runConcurrent(total, 50, async (i) => {
    const res = await client.call('POST', path, make(i));
    if (res.status !== 201) throw new Error(`create ${what} ${i}: ${res.status} ${res.body}`);
  });
  console.log(`created ${total} ${what} in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)}/s)`);
}

async function main(): Promise<void> {
  // The server's own scheduler and controllers stay off: the benchmark's scheduler is the only
  // component, as in kube-scheduler's benchmarks.
  const server = await startServerProcess({ extraArgs: ['--no-control-plane'] });
  const client = new BenchClient(server.url, server.tls);
  try {
    console.log(`drover scheduler benchmark: ${NODES} nodes, ${PODS} pods, server at ${server.url}\n`);
    await createAll(client, 'nodes', NODES, '/api/v1/nodes', (i) => readyNode(`node-${i}`, { cpu: '32', memory: '128Gi', labels: { rack: `rack-${i % 50}` } }));
    await createAll(client, 'pods', PODS, '/api/v1/namespaces/default/pods', (i) =>
      pendingPod(`pod-${i}`, { cpu: '100m', schedulerName: SCHEDULER_NAME, labels: { app: `app-${i % 500}` } }),
    );
    const api = new ApiClient({ server: server.url, namespace: 'default', tls: server.tls }, { userAgent: 'drover-bench-scheduler' });
    const started = performance.now();
    const scheduler = await startScheduler({ api, schedulerName: SCHEDULER_NAME });
    const synced = performance.now();
    while (scheduler.bound < PODS) {
      await new Promise((r) => setTimeout(r, 50));
      if (performance.now() - started > 600_000) throw new Error(`only ${scheduler.bound} of ${PODS} pods bound after 10 min`);
    }
    const seconds = (performance.now() - started) / 1000;
    await scheduler.stop();
    const pods = await api.resource(resources.pods, 'default').listAll({ pageSize: 5000 });
    const bound = pods.items.filter((p) => (p['spec'] as { nodeName?: string }).nodeName).length;
    const used = new Set(pods.items.map((p) => (p['spec'] as { nodeName?: string }).nodeName)).size;
    console.log(`\nscheduler start + informer sync: ${((synced - started) / 1000).toFixed(1)} s`);
    console.log(
      `bound ${PODS} pods in ${seconds.toFixed(1)} s: ${(PODS / seconds).toFixed(0)} bindings/s persisted (target >= 1,000/s; kube-scheduler CI threshold at 5,000 nodes: 680-810 pods/s)`,
    );
    console.log(`verified by list: ${bound} of ${PODS} pods have spec.nodeName, spread over ${used} nodes`);
    api.close();
  } finally {
    await client.close();
    await server.stop();
    await server.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
