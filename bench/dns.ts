// `npm run bench:dns`: the cluster DNS server on 127.0.0.1 with 1,000 Services of 10 endpoints
// each (half of them headless), queried by concurrent UDP clients at fixed offered rates (open
// loop: a late answer does not slow the sender down). Prints achieved queries per second and
// p50/p99/max latency, medians of 3 runs with the min–max spread. Prints figures; never fails on time.
// The server runs in a worker thread so that the clients' timers do not share its event loop.
//
// With BENCH_DNS_SERVER=ip:port and BENCH_DNS_NAMES=a,b,c it runs the same clients against a
// live cluster DNS instead, asking A records for those names (bench:network runs it inside a
// pod's network namespace, against the cluster DNS address, as the pod's resolver would).
import { createSocket, type Socket } from 'node:dgram';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import dnsPacket from 'dns-packet';
import { startDnsServer } from '../src/agent/dns/server.js';
import { query } from '../test/support/agent/dns-client.js';
import { endpoint, MemoryDnsView, ports, service, slice } from '../test/support/agent/dns-view.js';

const SERVICES = 1_000;
const ENDPOINTS = 10;
const NAMESPACES = 10;
const RATES = (process.env['BENCH_DNS_RATES'] ?? '1000,5000').split(',').map(Number);
const SECONDS = Number(process.env['BENCH_DNS_SECONDS'] ?? 3);
const RUNS = 3;
const CLIENTS = 16;
/** Answers later than this after a run's last query count as lost. */
const GRACE_MS = 1_000;
/** Offered load is topped up on this tick; finer than a client's retry timers ever are. */
const TICK_MS = 1;
const DOMAIN = 'cluster.local';
const LIVE_SERVER = process.env['BENCH_DNS_SERVER'];
const LIVE_NAMES = (process.env['BENCH_DNS_NAMES'] ?? '').split(',').filter(Boolean);

const namespaceOf = (i: number) => `ns-${i % NAMESPACES}`;
const nameOf = (i: number) => `svc-${i}`;
const isHeadlessIndex = (i: number) => i % 2 === 1;

function benchView(): MemoryDnsView {
  const view = new MemoryDnsView();
  for (let i = 0; i < SERVICES; i++) {
    const [namespace, name] = [namespaceOf(i), nameOf(i)];
    const servicePorts = ports({ name: 'http', port: 80, protocol: 'TCP' });
    const endpoints = Array.from({ length: ENDPOINTS }, (_, e) => endpoint(`10.${100 + (i >> 8)}.${i & 255}.${e + 1}`, { hostname: `pod-${e}` }));
    const spec = isHeadlessIndex(i) ? { clusterIP: 'None', ports: servicePorts } : { clusterIP: `10.96.${i >> 8}.${i & 255}`, ports: servicePorts };
    view.addService(service(namespace, name, spec), slice(namespace, name, endpoints, [{ name: 'http', port: 8080, protocol: 'TCP' }]));
  }
  return view;
}

/** The mix a cluster's pods send: mostly Service A lookups, some SRV, endpoint names, misses. */
function questionFor(n: number): { name: string; type: 'A' | 'SRV' } {
  if (LIVE_NAMES.length > 0) return { name: LIVE_NAMES[n % LIVE_NAMES.length]!, type: 'A' };
  const i = (n * 7919) % SERVICES;
  const svc = `${nameOf(i)}.${namespaceOf(i)}.svc.${DOMAIN}`;
  const pick = n % 10;
  if (pick < 6) return { name: svc, type: 'A' };
  if (pick < 8) return { name: `_http._tcp.${svc}`, type: 'SRV' };
  if (pick < 9) return { name: isHeadlessIndex(i) ? `pod-${n % ENDPOINTS}.${svc}` : svc, type: 'A' };
  return { name: `missing-${i}.${namespaceOf(i)}.svc.${DOMAIN}`, type: 'A' };
}

interface RunResult {
  sent: number;
  answered: number;
  truncated: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
}

class Client {
  readonly socket: Socket = createSocket('udp4');
  private nextId = 0;
  private readonly inFlight = new Map<number, number>();

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly onAnswer: (latencyMs: number, truncated: boolean) => void,
  ) {
    this.socket.on('message', (message) => {
      const id = message.readUInt16BE(0);
      const sentAt = this.inFlight.get(id);
      if (sentAt === undefined) return;
      this.inFlight.delete(id);
      this.onAnswer(performance.now() - sentAt, (message.readUInt16BE(2) & dnsPacket.TRUNCATED_RESPONSE) !== 0);
    });
  }

  send(n: number): void {
    const id = this.nextId;
    this.nextId = (this.nextId + 1) & 0xffff;
    const { name, type } = questionFor(n);
    // EDNS0 with the size modern stub resolvers offer; answers are not name-compressed, so a
    // headless SRV answer outgrows 512 bytes.
    const message = dnsPacket.encode(query(name, type, { id, udpPayloadSize: 1232 }));
    this.inFlight.set(id, performance.now());
    this.socket.send(message, this.port, this.host);
  }

  close(): void {
    this.socket.close();
  }
}

async function runAt(host: string, port: number, rate: number): Promise<RunResult> {
  const latencies: number[] = [];
  let truncated = 0;
  const clients = Array.from(
    { length: CLIENTS },
    () =>
      new Client(host, port, (latency, tc) => {
        latencies.push(latency);
        if (tc) truncated++;
      }),
  );
  const total = Math.round(rate * SECONDS);
  let sent = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      while (sent < due) {
        clients[sent % CLIENTS]!.send(sent);
        sent++;
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  const sendingMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, GRACE_MS));
  for (const client of clients) client.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  // Achieved rate: answers over the sending window (answers in the grace period are stragglers of it).
  return {
    sent,
    answered: latencies.length,
    truncated,
    rate: latencies.length / (sendingMs / 1000),
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? NaN,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

function spread(values: number[], digits: number): string {
  const f = (v: number) => v.toFixed(digits);
  return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
}

async function main(): Promise<void> {
  const worker = new Worker(new URL(import.meta.url));
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port: number }) => resolve(message.port));
    worker.once('error', reject);
  });
  // Tells lost queries (never reached the server) from lost answers (the clients' side dropped them).
  const serverQueries = () =>
    new Promise<number>((resolve) => {
      worker.once('message', (message: { queries: number }) => resolve(message.queries));
      worker.postMessage('stats');
    });
  console.log(
    `drover cluster DNS benchmark: ${SERVICES} Services x ${ENDPOINTS} endpoints (half headless), ${CLIENTS} UDP clients, ${SECONDS} s per run, ${RUNS} runs per rate, server in a worker thread on 127.0.0.1:${port}`,
  );
  console.log('query mix: 60% Service A, 20% SRV, 10% endpoint hostname A, 10% NXDOMAIN; figures are medians of the runs (min–max)\n');
  try {
    for (const rate of RATES) {
      const runs: RunResult[] = [];
      const queriesBefore = await serverQueries();
      for (let run = 0; run < RUNS; run++) runs.push(await runAt('127.0.0.1', port, rate));
      const reached = (await serverQueries()) - queriesBefore;
      const sent = runs.reduce((n, r) => n + r.sent, 0);
      console.log(`${report(rate, runs)} (${sent - reached} never reached the server), TC ${runs.reduce((n, r) => n + r.truncated, 0)}`);
    }
  } finally {
    worker.postMessage('stop');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}

function report(rate: number, runs: RunResult[]): string {
  const sent = runs.reduce((n, r) => n + r.sent, 0);
  const lost = runs.reduce((n, r) => n + r.sent - r.answered, 0);
  return (
    `offered ${String(rate).padStart(5)} q/s: achieved ${spread(
      runs.map((r) => r.rate),
      0,
    )} q/s   ` +
    `p50 ${spread(
      runs.map((r) => r.p50),
      3,
    )} ms   p99 ${spread(
      runs.map((r) => r.p99),
      3,
    )} ms   max ${spread(
      runs.map((r) => r.max),
      2,
    )} ms   ` +
    `unanswered ${lost} of ${sent}`
  );
}

/** The clients alone, against a live server (see the header). */
async function againstLiveServer(server: string): Promise<void> {
  const at = server.lastIndexOf(':');
  const [host, port] = [server.slice(0, at), Number(server.slice(at + 1))];
  for (const rate of RATES) {
    const runs: RunResult[] = [];
    for (let run = 0; run < RUNS; run++) runs.push(await runAt(host, port, rate));
    console.log(report(rate, runs));
  }
}

async function serve(): Promise<void> {
  const server = await startDnsServer({ host: '127.0.0.1', port: 0, view: benchView(), domain: DOMAIN });
  parentPort!.postMessage({ port: server.port });
  parentPort!.on('message', (message: string) => {
    if (message === 'stats') parentPort!.postMessage({ queries: server.stats.queries });
    else void server.close().then(() => process.exit(0));
  });
}

if (isMainThread) {
  (LIVE_SERVER ? againstLiveServer(LIVE_SERVER) : main()).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  serve().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
