// `npm run bench:api`: starts a real `drover server` process and prints throughput and latency
// of create (50 concurrent clients), get, list of 10,000 pods and watch delivery to 100
// watchers, plus the server's peak RSS, after a warm-up that is reported but not measured.
// BENCH_STORE=etcd runs the server on a fresh etcd member (Debian's etcd-server, on loopback),
// BENCH_STORE=both runs SQLite then etcd on the same machine; SQLite alone by default.
// BENCH_PLAIN_CHECKOUT=DIR also runs, first and on the same machine, the server of another built
// checkout over plain HTTP as the peer, and prints TLS beside it. Two peers answer two questions:
// - what security itself costs: this checkout with bench/no-security.patch applied (plain HTTP,
//   every request a superuser, no RBAC; everything else, admission included, as here):
//   `git worktree add --detach ../drover-nosec HEAD && cd ../drover-nosec && git apply
//   bench/no-security.patch && npm ci && npx tsc -p tsconfig.json`;
// - how far the server has come since before TLS (security and every feature added since):
//   `git worktree add ../drover-plain 8606334 && cd ../drover-plain && npm install && npm run build`;
// BENCH_ROUNDS=N (SQLite) runs the two N times, alternating which goes first, and prints the
// median ratios with their spread (peer-ratios.ts).
// BENCH_SERVERS=N (with BENCH_STORE=etcd or both) then runs N servers on the same etcd member
// (under a key prefix of their own), the clients' calls and the watchers spread over them, beside
// one server: what scale-out buys. Their memory is printed summed, and per server against the target.
// BENCH_SERVER_CPUS=1 BENCH_CLIENT_CPUS=0 put the servers and the client on cores of their own.
// BENCH_WATCH_CACHE=off runs the etcd servers with --no-watch-cache: every list read from etcd.
// Prints figures; never fails on time.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TlsConfig } from '../src/client/config.js';
import { startEtcd } from '../test/support/storage/etcd-member.js';
import { startServerProcess } from '../test/support/server-process.js';
import { BenchClient, runAtRate, runConcurrent, SpreadClient, summarize } from './http-client.js';
import { cpuSecondsOf, ownCpuSeconds } from './process-cpu.js';
import { memoryOf } from './process-memory.js';
import { medianLines, ratiosOf } from './peer-ratios.js';

const PODS = Number(process.env['BENCH_PODS'] ?? 10_000);
const CREATE_CLIENTS = 50;
/** The offered load at which create latency is measured: the issue's throughput target. */
const CREATE_RATE = 2_000;
const WATCHERS = 100;
const WATCH_EVENTS = 300;
/**
 * Creates (then deletes) before anything is measured. A fresh server runs its first couple of
 * thousand writes at about half speed while V8 compiles and optimizes the request path; a
 * running control plane is past that, so the measured phases start warm, as server benchmarks do.
 */
const WARMUP_PODS = Number(process.env['BENCH_WARMUP_PODS'] ?? 3_000);
const NAMESPACE = 'bench';
const WARMUP_NAMESPACE = 'bench-warmup';
/** Rounds of peer and TLS, alternating (with BENCH_PLAIN_CHECKOUT). */
const ROUNDS = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 1));
/** API servers on one etcd, measured beside one (BENCH_STORE=etcd or both). */
const SERVERS = Math.max(1, Number(process.env['BENCH_SERVERS'] ?? 1));
/** The etcd servers' own flags: BENCH_WATCH_CACHE=off reads every list from etcd (what the watch cache saves). */
const ETCD_FLAGS = process.env['BENCH_WATCH_CACHE'] === 'off' ? ['--no-watch-cache'] : [];
/** Servers sharing an etcd share its CA, sealed with this token. */
const SHARED_TOKEN = 'bench-api-shared-token';

function pod(i: number, namespace = NAMESPACE): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace, labels: { app: `app-${i % 20}`, tier: i % 2 ? 'web' : 'db', bench: 'api' } },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'drover-test/busybox:1',
          command: ['sh', '-c', 'httpd -f -p 8080'],
          ports: [{ containerPort: 8080, name: 'http' }],
          env: [
            { name: 'MODE', value: 'bench' },
            { name: 'INDEX', value: String(i) },
          ],
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
          readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 5 },
        },
      ],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
    },
  };
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : 'n/a');

interface Figure {
  rate: number;
  p50: number;
  p99: number;
  /** The servers' CPU per operation, µs: what a throughput ratio means when the machine is noisy. */
  serverCpuUs: number;
}

/** The figures of the run in progress, by phase name, for the comparison with the peer. */
let figures = new Map<string, Figure>();
/** The servers under test, whose CPU each phase reports. */
let serverPids: number[] = [];
/** CPU used so far by the servers and by this client when the phase being measured began. */
let cpuAtStart = { server: 0, client: 0 };

const serversCpuSeconds = () => serverPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);

/** Marks the start of a measured phase: report() then prints the CPU the servers and this client used since. */
function startMeasuring(): void {
  cpuAtStart = { server: serversCpuSeconds(), client: ownCpuSeconds() };
}

function report(name: string, latencies: number[], seconds: number, target: string): void {
  const { p50, p99 } = summarize(latencies);
  const rate = latencies.length / seconds;
  const serverCpu = serversCpuSeconds() - cpuAtStart.server;
  const clientCpu = ownCpuSeconds() - cpuAtStart.client;
  const serverCpuUs = (serverCpu * 1e6) / latencies.length;
  figures.set(name, { rate, p50, p99, serverCpuUs });
  // A client near 100 % of its core measures itself, not the server.
  console.log(
    `${name.padEnd(30)} ${String(latencies.length).padStart(6)} ops  ${fmt(rate).padStart(8)}/s  p50 ${fmt(p50).padStart(7)} ms  p99 ${fmt(p99).padStart(7)} ms   (${target})\n` +
      `${''.padEnd(30)} server CPU ${fmt(serverCpuUs)} µs/op (${fmt((100 * serverCpu) / seconds)} % of a core), this client ${fmt((100 * clientCpu) / seconds)} % of a core`,
  );
}

/** One server's client, or one that spreads the calls over several servers. */
type Client = Pick<BenchClient, 'call' | 'close'>;

async function createNamespace(client: Client, name: string): Promise<void> {
  const ns = await client.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (ns.status !== 201) throw new Error(`create namespace ${name}: ${ns.status} ${ns.body}`);
}

async function warmUp(client: Client): Promise<void> {
  if (WARMUP_PODS <= 0) return;
  await createNamespace(client, WARMUP_NAMESPACE);
  startMeasuring();
  const created = await runConcurrent(WARMUP_PODS, CREATE_CLIENTS, async (i) => {
    const res = await client.call('POST', `/api/v1/namespaces/${WARMUP_NAMESPACE}/pods`, pod(i, WARMUP_NAMESPACE));
    if (res.status !== 201) throw new Error(`warm-up create pod-${i}: ${res.status} ${res.body}`);
  });
  report('warm-up create (not a target)', created.latencies, created.seconds, 'cold server, then deleted');
  await runConcurrent(WARMUP_PODS, CREATE_CLIENTS, async (i) => {
    const res = await client.call('DELETE', `/api/v1/namespaces/${WARMUP_NAMESPACE}/pods/pod-${i}`);
    if (res.status !== 200) throw new Error(`warm-up delete pod-${i}: ${res.status} ${res.body}`);
  });
}

async function benchCreate(client: Client): Promise<void> {
  const create = async (i: number) => {
    const res = await client.call('POST', `/api/v1/namespaces/${NAMESPACE}/pods`, pod(i));
    if (res.status !== 201) throw new Error(`create pod-${i}: ${res.status} ${res.body}`);
  };
  const half = Math.floor(PODS / 2);
  startMeasuring();
  const max = await runConcurrent(half, CREATE_CLIENTS, create);
  report(`create, max rate (${CREATE_CLIENTS} clients)`, max.latencies, max.seconds, 'target >= 2,000/s');
  startMeasuring();
  const paced = await runAtRate(PODS - half, CREATE_RATE, CREATE_CLIENTS, (i) => create(half + i));
  report(`create at ${CREATE_RATE}/s (${CREATE_CLIENTS} clients)`, paced.latencies, paced.seconds, 'target p99 <= 20 ms');
}

async function benchGet(client: Client): Promise<void> {
  startMeasuring();
  const { latencies, seconds } = await runConcurrent(PODS, CREATE_CLIENTS, async (i) => {
    const res = await client.call('GET', `/api/v1/namespaces/${NAMESPACE}/pods/pod-${(i * 7919) % PODS}`);
    if (res.status !== 200) throw new Error(`get: ${res.status}`);
  });
  report(`get (${CREATE_CLIENTS} clients)`, latencies, seconds, 'no target');
}

async function benchList(client: Client): Promise<void> {
  const latencies: number[] = [];
  startMeasuring();
  const started = performance.now();
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const res = await client.call('GET', `/api/v1/namespaces/${NAMESPACE}/pods`);
    latencies.push(performance.now() - t0);
    const items = (JSON.parse(res.body) as { items: unknown[] }).items.length;
    if (items !== PODS) throw new Error(`list returned ${items} pods`);
  }
  report(`list ${PODS} pods`, latencies, (performance.now() - started) / 1000, 'target <= 300 ms');
}

/** Opens a watch and calls onLine per NDJSON event; resolves once the stream is open. */
function openWatch(baseUrl: string, tls: TlsConfig, path: string, onLine: (line: string) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const onResponse = (res: import('node:http').IncomingMessage) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let newline;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          onLine(buffer.slice(0, newline));
          buffer = buffer.slice(newline + 1);
        }
      });
      resolve(() => req.destroy());
    };
    // The plain-HTTP peer (BENCH_PLAIN_CHECKOUT) is watched over http.
    const req = baseUrl.startsWith('https:')
      ? httpsRequest(`${baseUrl}${path}`, { ca: tls.ca, cert: tls.cert, key: tls.key }, onResponse)
      : httpRequest(`${baseUrl}${path}`, onResponse);
    req.on('error', reject);
    req.end();
  });
}

/** The watchers are spread over the servers: a watcher on one server sees the writes made through the others. */
async function benchWatch(client: Client, baseUrls: string[], tls: TlsConfig): Promise<void> {
  const list = JSON.parse((await client.call('GET', `/api/v1/namespaces/${NAMESPACE}/pods?limit=1`)).body) as { metadata: { resourceVersion: string } };
  const sentAt = new Map<string, number>();
  const delays: number[] = [];
  let received = 0;
  const stops = await Promise.all(
    Array.from({ length: WATCHERS }, (_, i) =>
      openWatch(
        baseUrls[i % baseUrls.length]!,
        tls,
        `/api/v1/namespaces/${NAMESPACE}/pods?watch=1&resourceVersion=${list.metadata.resourceVersion}`,
        (line) => {
          const event = JSON.parse(line) as { type: string; object: { metadata: { annotations?: Record<string, string> } } };
          const mark = event.object.metadata.annotations?.['bench/mark'];
          const sent = mark ? sentAt.get(mark) : undefined;
          if (sent !== undefined) delays.push(performance.now() - sent);
          received++;
        },
      ),
    ),
  );
  startMeasuring();
  const started = performance.now();
  for (let i = 0; i < WATCH_EVENTS; i++) {
    const mark = `m${i}`;
    sentAt.set(mark, performance.now());
    await client.call(
      'PATCH',
      `/api/v1/namespaces/${NAMESPACE}/pods/pod-${i}`,
      { metadata: { annotations: { 'bench/mark': mark } } },
      'application/merge-patch+json',
    );
    await new Promise((r) => setTimeout(r, 5));
  }
  const deadline = Date.now() + 10_000;
  while (received < WATCHERS * WATCH_EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  stops.forEach((stop) => stop());
  if (received < WATCHERS * WATCH_EVENTS) console.log(`  watch: only ${received} of ${WATCHERS * WATCH_EVENTS} events arrived`);
  report(
    `watch delivery (${WATCHERS} watchers)`,
    delays,
    (performance.now() - started) / 1000,
    'target p99 <= 50 ms; ops = events delivered, latency from PATCH sent',
  );
}

/** Running API servers to measure: this checkout's over TLS (one, or several on one etcd), or the plain-HTTP peer's. */
interface Target {
  urls: string[];
  tls: TlsConfig;
  pids: number[];
  stop(): Promise<void>;
}

/**
 * BENCH_SERVER_CPUS / BENCH_CLIENT_CPUS (taskset lists, e.g. 1 and 0): the servers and this
 * client on cores of their own, so a figure is the server's and not the two fighting for cores.
 */
const SERVER_CPUS = process.env['BENCH_SERVER_CPUS'];
const CLIENT_CPUS = process.env['BENCH_CLIENT_CPUS'];

/** Moves a process and all its threads onto `cpus`. */
function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
}

async function benchTarget(label: string, target: Target): Promise<Map<string, Figure>> {
  figures = new Map();
  serverPids = target.pids;
  if (SERVER_CPUS) for (const pid of target.pids) pin(pid, SERVER_CPUS);
  const clients = target.urls.map((url) => new BenchClient(url, target.tls));
  const client: Client = clients.length === 1 ? clients[0]! : new SpreadClient(clients);
  // Several servers' memory is printed as their sum.
  const memory = () => target.pids.map(memoryOf).reduce((a, b) => ({ rssMb: a.rssMb + b.rssMb, peakMb: a.peakMb + b.peakMb }));
  const servers = target.pids.map((pid, i) => `pid ${pid} at ${target.urls[i]}`).join(', ');
  try {
    console.log(`drover API benchmark on ${label}: ${PODS} pods, server ${servers}\n`);
    await createNamespace(client, NAMESPACE);
    const idle = memory();
    const phases: Array<[string, (c: Client) => Promise<void>]> = [
      ['warm-up', warmUp],
      ['create', benchCreate],
      ['get', benchGet],
      ['list', benchList],
      ['watch', (c) => benchWatch(c, target.urls, target.tls)],
    ];
    const rssAfter: string[] = [];
    for (const [name, phase] of phases) {
      await phase(client);
      const now = memory();
      rssAfter.push(`${name} ${fmt(now.rssMb)} MB (peak so far ${fmt(now.peakMb)})`);
    }
    const after = memory();
    const whose = target.pids.length === 1 ? 'server' : `the ${target.pids.length} servers' (summed)`;
    console.log(`\n${whose} RSS after each phase: ${rssAfter.join(', ')}`);
    const perServer = target.pids.length === 1 ? '' : `; per server ${target.pids.map((pid) => fmt(memoryOf(pid).rssMb)).join(', ')} MB`;
    console.log(
      `${whose} memory: idle RSS ${fmt(idle.rssMb)} MB; holding ${PODS} pods RSS ${fmt(after.rssMb)} MB, peak RSS ${fmt(after.peakMb)} MB${perServer} (target <= 150 MB a server)`,
    );
    return figures;
  } finally {
    await client.close();
    await target.stop();
  }
}

/**
 * This checkout's servers (the API alone: the scheduler and controllers would react to every
 * benchmark pod); several only on one etcd. The first starts alone, so it makes the cluster CA
 * the others then read from the store.
 */
async function thisServer(extraArgs: string[], count = 1): Promise<Target> {
  const args = ['--no-control-plane', ...extraArgs, ...(count > 1 ? ['--token', SHARED_TOKEN] : [])];
  const first = await startServerProcess({ extraArgs: args });
  const servers = [first, ...(await Promise.all(Array.from({ length: count - 1 }, () => startServerProcess({ extraArgs: args }))))];
  return {
    urls: servers.map((server) => server.url),
    tls: first.tls,
    pids: servers.map((server) => server.child.pid!),
    async stop() {
      await Promise.all(
        servers.map(async (server) => {
          await server.stop();
          await server.cleanup();
        }),
      );
    },
  };
}

/** The server of another built checkout, from before TLS: `drover server` there, over plain HTTP. */
async function plainPeer(checkout: string): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-bench-plain-'));
  // Run as this checkout's server is (startServerProcess) and as a user runs it: the script
  // itself, so its #! line's node flags apply. Through process.execPath the peer lost them and
  // ran with V8's default young generation (16 MiB semi-spaces where both checkouts ship 4 MiB):
  // the two servers were not compared on equal terms.
  const child = spawn(join(checkout, 'bin', 'drover.js'), ['server', '--data-dir', dataDir, '--port', '0', '--no-control-plane'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`the plain-HTTP peer in ${checkout} did not start:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    urls: [url],
    tls: {},
    pids: [child.pid!],
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Phase by phase, throughput and p99 ratios of `figures` to `peer`'s. */
function compare(title: string, figures: Map<string, Figure>, peers: Map<string, Figure>): void {
  console.log(`\n${title}:`);
  for (const [name, ratio] of ratiosOf(figures, peers)) {
    const figure = figures.get(name)!;
    const peer = peers.get(name)!;
    console.log(
      `${name.padEnd(30)} throughput ${fmt(ratio.throughput).padStart(5)}×   p99 ${fmt(ratio.p99).padStart(5)}×   server CPU/op ${fmt(ratio.cpu).padStart(5)}×   (${fmt(peer.rate)}/s → ${fmt(figure.rate)}/s; p99 ${fmt(peer.p99)} → ${fmt(figure.p99)} ms; ${fmt(peer.serverCpuUs)} → ${fmt(figure.serverCpuUs)} µs)`,
    );
  }
}

/** The peer and this checkout on SQLite, ROUNDS times, the peer first in odd rounds so that a drifting load favours neither. */
async function besidePlain(plainCheckout: string): Promise<void> {
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    if (ROUNDS > 1) console.log(`\n--- round ${round} of ${ROUNDS}\n`);
    const runPeer = async () => benchTarget(`SQLite, plain HTTP (the peer: ${plainCheckout})`, await plainPeer(plainCheckout));
    const runThis = async () => benchTarget('SQLite', await thisServer([]));
    let plain, tls;
    if (round % 2) {
      plain = await runPeer();
      console.log('');
      tls = await runThis();
    } else {
      tls = await runThis();
      console.log('');
      plain = await runPeer();
    }
    compare('over TLS (with authentication and authorization) beside plain HTTP, this run (targets: throughput >= 0.8×, p99 <= 1.5×)', tls, plain);
    rounds.push(ratiosOf(tls, plain));
  }
  if (ROUNDS > 1) console.log(`\nover TLS beside plain HTTP, median of ${ROUNDS} rounds [min–max]:\n${medianLines(rounds).join('\n')}`);
}

/** SERVERS servers on the same etcd (under a fresh prefix: the one server's objects stay out of it), beside one. */
async function severalServers(one: Map<string, Figure>, endpoint: string): Promise<void> {
  console.log('');
  const several = await benchTarget(
    `etcd ${endpoint}, ${SERVERS} servers`,
    await thisServer(['--etcd-endpoints', endpoint, '--etcd-prefix', '/drover-bench-servers', ...ETCD_FLAGS], SERVERS),
  );
  compare(`${SERVERS} servers on one etcd beside one server (what scale-out buys on this machine's ${cpus().length} cores)`, several, one);
}

async function main(): Promise<void> {
  if (CLIENT_CPUS) pin(process.pid, CLIENT_CPUS);
  const stores = process.env['BENCH_STORE'] ?? 'sqlite';
  const plainCheckout = process.env['BENCH_PLAIN_CHECKOUT'];
  if (stores === 'sqlite' || stores === 'both') {
    if (plainCheckout) await besidePlain(plainCheckout);
    else await benchTarget('SQLite', await thisServer([]));
  }
  if (stores === 'both') console.log('');
  if (stores === 'etcd' || stores === 'both') {
    const etcd = await startEtcd();
    try {
      const one = await benchTarget(
        `etcd ${etcd.endpoint} (one member, its own process)${ETCD_FLAGS.length > 0 ? `, ${ETCD_FLAGS.join(' ')}` : ''}`,
        await thisServer(['--etcd-endpoints', etcd.endpoint, ...ETCD_FLAGS]),
      );
      if (SERVERS > 1) await severalServers(one, etcd.endpoint);
    } finally {
      await etcd.cleanup();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
