// `npm run bench:network`: the service path against its floor, in one run on one `drover up`.
//  1. HTTP through a Service's cluster IP vs straight to the pod IP, from the host: one new TCP
//     connection per request (the case the nat table works for), 8 at a time, to one busybox
//     httpd pod (two servers in it: one dialled directly, one behind the Service); requests/s and
//     p50/p99, medians of 3 alternating rounds with their spread, and the ratio (target ≥ 0.9).
//  2. The cluster DNS from inside a pod's network namespace (nsenter), at the cluster DNS
//     address, through the node's rules, as the pod's resolver asks: bench/dns.ts's clients.
//  3. Rule programming for 1,000 Services × 10 endpoints by the agent's own ServiceProxy: the
//     first (full) write with the cluster IPs' routes, then a one-endpoint change.
//  4. How soon a new Service's rules exist after the API answers its create, and go after delete.
// Prints figures; never fails on time. Needs root (iptables), like the agent.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { removeRangeRules } from '../src/agent/network/host-rules.js';
import { ServiceProxy } from '../src/agent/network/service-proxy.js';
import type { ServiceEntry } from '../src/agent/network/service-rules.js';
import { clusterNetwork } from '../src/api/cluster-network.js';
import { silentLogger } from '../src/client/index.js';
import type { EndpointSlice, Service } from '../src/api/services.js';
import { docker, droverUp, median, prepareDocker, ROOT, until } from './peers.js';

const run = promisify(execFile);
const POD_CIDR = '10.98.0.0/16';
const SERVICE_CIDR = '10.99.0.0/16';
/** The synthetic rule set of part 3 lives in a range of its own and is never jumped to. */
const SYNTHETIC_CIDR = '10.97.0.0/16';
const ROUNDS = 3;
const SECONDS = Number(process.env['BENCH_NETWORK_SECONDS'] ?? 5);
const CONCURRENCY = 8;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function request(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = get({ host, port, path: '/', agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

async function load(host: string, port: number): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        try {
          await request(host, port);
          latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { rps: latencies.length / SECONDS, p50: at(0.5), p99: at(0.99), errors };
}

const spread = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;

function syntheticServices(count: number, endpoints: number, changed = -1): ServiceEntry[] {
  return Array.from({ length: count }, (_, i) => {
    const service: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `svc-${i}`, namespace: 'bench' },
      spec: { clusterIP: `10.97.${i >> 8}.${i & 255}`, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
    };
    const slice: EndpointSlice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `svc-${i}-x`, namespace: 'bench' },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      endpoints: Array.from({ length: endpoints }, (_, e) => ({
        addresses: [`10.98.${1 + (i % 200)}.${e + 1 + (i === changed && e === 0 ? 100 : 0)}`],
        conditions: { ready: true, serving: true, terminating: false },
        targetRef: { kind: 'Pod', namespace: 'bench', name: `p-${i}-${e}`, uid: `${i}-${e}` },
      })),
    };
    return { service, slices: [slice] };
  });
}

async function natRules(): Promise<string> {
  return (await run('iptables-save', ['-t', 'nat'], { maxBuffer: 256 * 1024 * 1024 })).stdout;
}

/** The Services of part 3, served to a ServiceProxy as its directory would. */
class SyntheticServices {
  private entries: ServiceEntry[] = syntheticServices(1000, 10);
  private readonly listeners = new Set<() => void>();
  allServices = () => this.entries.map((e) => e.service);
  slicesOf = (_namespace: string, name: string) => this.entries.find((e) => e.service.metadata.name === name)?.slices ?? [];
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  change(round: number): void {
    this.entries = syntheticServices(1000, 10, round);
    for (const listener of this.listeners) listener();
  }
}

/** The agent's own proxy on 1,000 synthetic Services in a range of their own (never dialled). */
async function ruleProgramming(bridge: string): Promise<void> {
  const first: number[] = [];
  const change: number[] = [];
  let chains = 0;
  let changedChains = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const services = new SyntheticServices();
    const network = clusterNetwork({ podCidr: POD_CIDR, serviceCidr: SYNTHETIC_CIDR });
    const proxy = new ServiceProxy({
      directory: services,
      network,
      clusterId: 'bench',
      nodeName: 'bench',
      nodeAddress: '127.0.0.1',
      bridge,
      nodeRange: () => undefined,
      logger: silentLogger,
    });
    try {
      await proxy.start();
      first.push(proxy.stats.lastWriteMs);
      chains = proxy.stats.lastWriteChains;
      // One endpoint of one Service moves: the chains that changed are written, nothing else.
      services.change(round + 1);
      await until('the change written', async () => proxy.stats.writes === 2, 30_000, 5);
      change.push(proxy.stats.lastWriteMs);
      changedChains = proxy.stats.lastWriteChains;
    } finally {
      await proxy.stop({ removeRules: true });
    }
  }
  await run('ip', ['route', 'del', 'unreachable', SYNTHETIC_CIDR]).catch(() => undefined);
  console.log("rule programming by the agent's service proxy, 1,000 Services x 10 endpoints:");
  console.log(`  first write (${chains} chains, the cluster IPs' routes, the jumps): ${spread(first, 0)} ms`);
  console.log(`  one endpoint changed (${changedChains} chain(s) written): ${spread(change, 1)} ms`);
}

async function main(): Promise<void> {
  await prepareDocker();
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-bench-network-'));
  const cluster = await droverUp(dataDir, ['--cluster-cidr', POD_CIDR, '--service-cidr', SERVICE_CIDR]);
  const kubectl = async (...args: string[]) => (await run('kubectl', ['--kubeconfig', cluster.kubeconfig, ...args])).stdout.trim();
  const apply = (manifest: object) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('kubectl', ['--kubeconfig', cluster.kubeconfig, 'apply', '-f', '-'], { stdio: ['pipe', 'ignore', 'inherit'] });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kubectl apply: ${code}`))));
      child.stdin.end(JSON.stringify(manifest));
    });
  try {
    await apply({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'backend', labels: { app: 'backend' } },
          spec: {
            terminationGracePeriodSeconds: 1,
            containers: [
              {
                name: 'httpd',
                image: 'drover-test/busybox:1',
                command: ['sh', '-c', 'mkdir -p /w && echo ok > /w/index.html && httpd -p 8080 -h /w && exec httpd -f -p 8081 -h /w'],
              },
            ],
          },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'client' },
          spec: {
            terminationGracePeriodSeconds: 1,
            containers: [{ name: 'client', image: 'drover-test/busybox:1', command: ['sh', '-c', 'trap exit TERM; while true; do sleep 1; done'] }],
          },
        },
        // The Service leads to the second server: the same pod, but connections through the cluster IP
        // never share a 4-tuple (and a conntrack entry) with the direct ones of the round before.
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'backend' }, spec: { selector: { app: 'backend' }, ports: [{ port: 80, targetPort: 8081 }] } },
      ],
    });
    await kubectl('wait', '--for=condition=Ready', 'pod/backend', 'pod/client', '--timeout=120s');
    const podIP = await kubectl('get', 'pod', 'backend', '-o', 'jsonpath={.status.podIP}');
    const clusterIP = await kubectl('get', 'service', 'backend', '-o', 'jsonpath={.spec.clusterIP}');
    const clusterDns = await kubectl('get', 'service', '-n', 'kube-system', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}');
    await until(
      'the backend through its cluster IP',
      () =>
        request(clusterIP, 80).then(
          () => true,
          () => false,
        ),
      30_000,
      200,
    );

    console.log(
      `drover service networking benchmark: one drover up (pods ${POD_CIDR}, services ${SERVICE_CIDR}), this machine's iptables (${(await run('iptables', ['-V'])).stdout.trim()})\n`,
    );
    console.log(
      `HTTP from the host to one busybox httpd pod, a new connection per request, ${CONCURRENCY} at a time, ${SECONDS} s per round, ${ROUNDS} rounds each, alternating; medians [min–max]:`,
    );
    const direct: Load[] = [];
    const service: Load[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(await load(podIP, 8080));
      service.push(await load(clusterIP, 80));
    }
    const line = (name: string, runs: Load[]) =>
      `  ${name.padEnd(24)} ${spread(
        runs.map((r) => r.rps),
        0,
      )} req/s   p50 ${spread(
        runs.map((r) => r.p50),
        2,
      )} ms   p99 ${spread(
        runs.map((r) => r.p99),
        2,
      )} ms   errors ${runs.reduce((n, r) => n + r.errors, 0)}`;
    console.log(line(`pod IP ${podIP}:8080`, direct));
    console.log(line(`cluster IP ${clusterIP}:80`, service) + ' (to :8081)');
    const ratios = direct.map((d, i) => service[i]!.rps / d.rps);
    const p99s = direct.map((d, i) => service[i]!.p99 / d.p99);
    console.log(`  cluster IP / pod IP: throughput ${spread(ratios, 2)}x (target >= 0.9), p99 ${spread(p99s, 2)}x\n`);

    // The client pod's network namespace: the sandbox's, which its containers share.
    const [sandbox] = (await docker('ps', '-q', '--filter', 'label=drover.dev/pod-name=client', '--filter', 'label=drover.dev/kind=sandbox')).stdout
      .trim()
      .split('\n');
    const pid = (await docker('inspect', '-f', '{{.State.Pid}}', sandbox!)).stdout.trim();
    const names = [
      'backend.default.svc.cluster.local',
      'kubernetes.default.svc.cluster.local',
      'kube-dns.kube-system.svc.cluster.local',
      'missing.default.svc.cluster.local',
    ].join(',');
    console.log(`the cluster DNS from inside the client pod's network namespace, at ${clusterDns}:53 (A: 3 Services and a miss, 16 UDP clients, open loop):`);
    const dns = await run('nsenter', [`--net=/proc/${pid}/ns/net`, process.execPath, join(ROOT, 'dist/bench/dns.js')], {
      env: { ...process.env, BENCH_DNS_SERVER: `${clusterDns}:53`, BENCH_DNS_NAMES: names, BENCH_DNS_RATES: process.env['BENCH_DNS_RATES'] ?? '1000' },
    });
    console.log(
      dns.stdout
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n') + '  (target: p99 <= 5 ms at 1,000 q/s)\n',
    );

    const bridge = (await run('ip', ['-o', 'route', 'show', clusterIP])).stdout.split(' ')[2]!;
    await ruleProgramming(bridge);

    const created: number[] = [];
    const deleted: number[] = [];
    for (let i = 0; i < 5; i++) {
      const name = `probe-${i}`;
      let started = performance.now();
      await apply({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: 'backend' }, ports: [{ port: 80, targetPort: 8080 }] } });
      await until(`rules for ${name}`, async () => (await natRules()).includes(`default/${name}:80`), 10_000, 10);
      created.push(performance.now() - started);
      started = performance.now();
      await kubectl('delete', 'service', name);
      await until(`no rules for ${name}`, async () => !(await natRules()).includes(`default/${name}:80`), 10_000, 10);
      deleted.push(performance.now() - started);
    }
    console.log(`\nrules following the API (kubectl apply/delete returned, then iptables-save polled every 10 ms; includes kubectl's own time), 5 Services:`);
    console.log(`  created → rules present ${spread(created, 0)} ms   deleted → rules gone ${spread(deleted, 0)} ms (target: within 1 s)`);
  } finally {
    await kubectl('delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=30s').catch(() => undefined);
    await cluster.stop();
    await removeRangeRules(SERVICE_CIDR);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
