// `npm run bench:hardening`: what slow clients cost a real `drover server` process, at the sizes
// of the hardening issue. Prints figures; never fails on them.
//
//   non-readers   100 clients ask for a 14 MB list with limit=500 and never read: the server's
//                 peak RSS.
//   hostile       what test/support/hostile-requests.ts sends (dot segments, __proto__ keys, depth
//                 and key-count extremes), with a control client's latency throughout and
//                 alongside each request of over 100 KB on its own; 5xx answers; whether the
//                 server is still up.
//   slow-reader   one client reads a 20 MB list at ~160 KB/s while 50 clients make 50,000
//                 create+delete cycles: state.db (+ WAL) during the churn, and once the reader
//                 is gone and compaction has run.
//
// `npm run bench:hardening -- hostile | non-readers | slow-reader` runs one part.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { rawRequest } from '../test/support/client/raw-request.js';
import { hostileRequests, measureControlLatency, wideConfigMap, type HostileRequest, type Latency } from '../test/support/hostile-requests.js';
import { pausedGet } from '../test/support/raw-http.js';
import { serverRss, startServerProcess, type ServerProcess } from '../test/support/server-process.js';
import { BenchClient, runConcurrent } from './http-client.js';

const NON_READERS = 100;
/** 500 ConfigMaps of 28 KB: a 14 MB list that limit=500 returns as one page. */
const NON_READER_OBJECTS = 500;
const NON_READER_OBJECT_BYTES = 28_000;
/** 10,000 ConfigMaps of 2 KB: a 20 MB list. */
const SLOW_LIST_OBJECTS = 10_000;
const SLOW_LIST_OBJECT_BYTES = 2_000;
const CHURN_CYCLES = Number(process.env['BENCH_CHURN_CYCLES'] ?? 50_000);
const CLIENTS = 50;
/** The slow reader takes this many bytes every READ_EVERY_MS: ~160 KB/s. */
const READ_BYTES = 8 * 1024;
const READ_EVERY_MS = 50;
/** The server compacts every 30 s; the file is measured after at least one run. */
const SETTLE_MS = 40_000;

const MB = 2 ** 20;
const fmt = (bytes: number) => `${(bytes / MB).toFixed(1)} MiB`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function configMap(name: string, bytes: number): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { blob: 'x'.repeat(bytes) } };
}

async function createNamespace(client: BenchClient, name: string): Promise<void> {
  const res = await client.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (res.status !== 201) throw new Error(`create namespace ${name}: ${res.status} ${res.body}`);
}

async function createConfigMaps(client: BenchClient, namespace: string, count: number, bytes: number): Promise<void> {
  await runConcurrent(count, CLIENTS, async (i) => {
    const res = await client.call('POST', `/api/v1/namespaces/${namespace}/configmaps`, configMap(`cm-${i}`, bytes));
    if (res.status !== 201) throw new Error(`create cm-${i}: ${res.status} ${res.body}`);
  });
}

async function dbSize(server: ServerProcess): Promise<number> {
  const size = (file: string) =>
    stat(join(server.dataDir, file)).then(
      (info) => info.size,
      () => 0,
    );
  return (await size('state.db')) + (await size('state.db-wal'));
}

async function nonReaders(server: ServerProcess, client: BenchClient): Promise<void> {
  const namespace = 'non-readers';
  await createNamespace(client, namespace);
  await createConfigMaps(client, namespace, NON_READER_OBJECTS, NON_READER_OBJECT_BYTES);
  const path = `/api/v1/namespaces/${namespace}/configmaps?limit=500`;
  const listed = await client.call('GET', path);
  const before = serverRss(server);
  const sockets = await Promise.all(Array.from({ length: NON_READERS }, () => pausedGet(server.url, server.tls, path)));
  let peak = before;
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    peak = Math.max(peak, serverRss(server));
  }
  sockets.forEach((socket) => socket.destroy());
  console.log(`non-readers: ${NON_READERS} clients, list page of ${(listed.body.length / 1e6).toFixed(1)} MB (limit=500), not read`);
  console.log(`  server RSS before ${fmt(before)}, peak ${fmt(peak)} (+${fmt(peak - before)})`);
}

/**
 * Reads READ_BYTES every READ_EVERY_MS from a paused socket; `readRest` then reads at full speed
 * and tells whether the response was complete or cut by the server.
 */
function readSlowly(socket: Socket): { bytes: () => number; readRest: () => Promise<'complete' | 'cut'> } {
  let bytes = 0;
  let tail = '';
  const take = (chunk: Buffer) => {
    bytes += chunk.length;
    tail = (tail + chunk.toString('latin1')).slice(-16);
  };
  // A reset by the server shows as 'close' below.
  socket.on('error', () => undefined);
  const timer = setInterval(() => {
    const chunk = (socket.read(READ_BYTES) ?? socket.read()) as Buffer | null;
    if (chunk !== null) take(chunk);
  }, READ_EVERY_MS);
  // A complete chunked response ends with the terminal chunk.
  const ended = new Promise<'complete' | 'cut'>((resolve) => socket.once('close', () => resolve(tail.endsWith('0\r\n\r\n') ? 'complete' : 'cut')));
  const readRest = () => {
    clearInterval(timer);
    socket.on('data', take);
    socket.resume();
    return ended;
  };
  return { bytes: () => bytes, readRest };
}

async function slowReader(server: ServerProcess, client: BenchClient): Promise<void> {
  const namespace = 'slow-reader';
  await createNamespace(client, namespace);
  await createConfigMaps(client, namespace, SLOW_LIST_OBJECTS, SLOW_LIST_OBJECT_BYTES);
  await sleep(SETTLE_MS);
  const start = await dbSize(server);
  const reader = readSlowly(await pausedGet(server.url, server.tls, `/api/v1/namespaces/${namespace}/configmaps`));
  let largest = start;
  const sampler = setInterval(() => void dbSize(server).then((size) => (largest = Math.max(largest, size))), 500);
  const started = performance.now();
  await runConcurrent(CHURN_CYCLES, CLIENTS, async (i) => {
    const created = await client.call('POST', `/api/v1/namespaces/${namespace}/configmaps`, configMap(`churn-${i}`, SLOW_LIST_OBJECT_BYTES));
    if (created.status !== 201) throw new Error(`create churn-${i}: ${created.status} ${created.body}`);
    const deleted = await client.call('DELETE', `/api/v1/namespaces/${namespace}/configmaps/churn-${i}`);
    if (deleted.status !== 200) throw new Error(`delete churn-${i}: ${deleted.status} ${deleted.body}`);
  });
  const seconds = (performance.now() - started) / 1000;
  const afterChurn = await dbSize(server);
  console.log(
    `slow-reader: ${SLOW_LIST_OBJECTS} ConfigMaps (${((SLOW_LIST_OBJECTS * SLOW_LIST_OBJECT_BYTES) / 1e6).toFixed(0)} MB list) read at ~${Math.round((READ_BYTES * 1000) / READ_EVERY_MS / 1024)} KB/s; ${CHURN_CYCLES} create+delete cycles in ${seconds.toFixed(1)} s`,
  );
  const readSoFar = reader.bytes();
  const outcome = await reader.readRest();
  console.log(
    `  reader: had read ${(readSoFar / 1e6).toFixed(1)} MB when the churn ended; the response was ${outcome} (${(reader.bytes() / 1e6).toFixed(1)} MB in all)`,
  );
  await sleep(SETTLE_MS);
  clearInterval(sampler);
  const settled = await dbSize(server);
  console.log(
    `  state.db + WAL: before ${fmt(start)}, largest during churn ${fmt(largest)}, right after ${fmt(afterChurn)}, ${SETTLE_MS / 1000} s after the reader left ${fmt(settled)}`,
  );
}

const CONTROL = '/api/v1/namespaces/default/configmaps/control';
/**
 * 1.3 MiB of JSON: just under what one body may be, and far more keys than one object may hold
 * once its managedFields name each of them again (refused at the door: storedSizeLowerBound).
 */
const WIDE_JSON_KEYS = 75_000;
/** About the widest ConfigMap that is stored, created and then applied by a second manager. */
const WIDEST_STORED_KEYS = 30_000;
const fmtLatency = (l: Latency) => `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms (${l.count} requests)`;

async function hostile(server: ServerProcess): Promise<void> {
  await rawRequest(
    server.url,
    server.tls,
    'POST',
    '/api/v1/namespaces/default/configmaps',
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'control' } }),
  );
  const requests = hostileRequests(
    ['/api/v1/namespaces/default/configmaps', '/api/v1/namespaces/default/pods', '/apis/apps/v1/namespaces/default/deployments', '/api/v1/nodes'],
    WIDE_JSON_KEYS,
  );
  let failed = 0;
  const sendOne = async (request: HostileRequest) => {
    const answer = await rawRequest(server.url, server.tls, request.method, request.path, request.body, request.headers).catch(() => undefined);
    if (!answer || answer.status >= 500) failed++;
    return answer;
  };
  const control = measureControlLatency(server.url, server.tls, CONTROL, 10);
  for (const request of requests) await sendOne(request);
  console.log(`hostile: ${requests.length} requests, ${failed} answered 5xx or not at all, server ${server.child.exitCode === null ? 'still up' : 'EXITED'}`);
  console.log(`  control client throughout: ${fmtLatency(await control.stop())}`);
  for (const request of requests.filter((r) => (r.body?.length ?? 0) > 100_000)) {
    const alone = measureControlLatency(server.url, server.tls, CONTROL, 5);
    const started = performance.now();
    const answer = await sendOne(request);
    const took = performance.now() - started;
    const label = `${request.method} ${request.headers?.['Content-Type'] ?? 'application/json'} ${(request.body!.length / 1024).toFixed(0)} KiB -> ${answer?.status ?? 'no answer'} in ${took.toFixed(0)} ms`;
    console.log(`  ${label}; control client meanwhile: ${fmtLatency(await alone.stop())}`);
  }
  const cm = '/api/v1/namespaces/default/configmaps';
  const widest = wideConfigMap('widest', WIDEST_STORED_KEYS, 'json');
  for (const request of [
    { method: 'POST', path: cm, body: widest },
    { method: 'PATCH', path: `${cm}/widest?fieldManager=second`, body: widest, headers: { 'Content-Type': 'application/apply-patch+yaml' } },
  ]) {
    const alone = measureControlLatency(server.url, server.tls, CONTROL, 5);
    const started = performance.now();
    const answer = await sendOne(request);
    const label = `${request.method} of the widest stored object (${WIDEST_STORED_KEYS} keys) -> ${answer?.status ?? 'no answer'} in ${(performance.now() - started).toFixed(0)} ms`;
    console.log(`  ${label}; control client meanwhile: ${fmtLatency(await alone.stop())}`);
  }
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const parts: Array<[string, (server: ServerProcess, client: BenchClient) => Promise<void>]> = [
    ['hostile', hostile],
    ['non-readers', nonReaders],
    ['slow-reader', slowReader],
  ];
  for (const [name, part] of parts) {
    if (only !== undefined && only !== name) continue;
    // A server per part, the API alone: controllers would only add their own load.
    const server = await startServerProcess({ extraArgs: ['--no-control-plane'] });
    const client = new BenchClient(server.url, server.tls);
    try {
      await part(server, client);
    } finally {
      await client.close();
      await server.stop();
      await server.cleanup();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
