// The benchmarks' HTTP client: undici's connection pool, because Node's http.request costs
// more CPU per request than the server under test spends, and would measure itself.
import { Pool } from 'undici';
import type { TlsConfig } from '../src/client/config.js';

const CONNECT_TIMEOUT_MS = 120_000;

export class BenchClient {
  private readonly pool: Pool;

  /** `tls`: the CA to verify the server with and the client certificate to present (the admin's); none for plain HTTP. */
  constructor(
    readonly baseUrl: string,
    tls: TlsConfig = {},
    connections = 64,
  ) {
    this.pool = new Pool(baseUrl, {
      connections,
      pipelining: 1,
      // undici gives up on a connection (TCP and the TLS handshake) after 10 s by default; a
      // saturated server (bench:scale's 5,000 nodes) takes seconds to finish a handshake, which
      // is a latency to measure, not a reason for the benchmark to end.
      connect: {
        timeout: CONNECT_TIMEOUT_MS,
        ...(tls.ca ? { ca: tls.ca } : {}),
        ...(tls.cert ? { cert: tls.cert } : {}),
        ...(tls.key ? { key: tls.key } : {}),
      },
    });
  }

  async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: string }> {
    const options: Parameters<Pool['request']>[0] = { method: method as 'GET', path };
    if (body !== undefined) {
      options.body = JSON.stringify(body);
      options.headers = { 'content-type': contentType };
    }
    const res = await this.pool.request(options);
    return { status: res.statusCode, body: await res.body.text() };
  }

  /** A call whose body is only counted, never held: a list of 150,000 pods is near V8's longest string. */
  async callCounting(method: string, path: string): Promise<{ status: number; bytes: number }> {
    const res = await this.pool.request({ method: method as 'GET', path });
    let bytes = 0;
    for await (const chunk of res.body) bytes += (chunk as Buffer).length;
    return { status: res.statusCode, bytes };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The calls of a BenchClient spread round-robin over several API servers of one cluster. */
export class SpreadClient {
  private next = 0;

  constructor(readonly clients: BenchClient[]) {}

  call(...args: Parameters<BenchClient['call']>): ReturnType<BenchClient['call']> {
    const client = this.clients[this.next++ % this.clients.length]!;
    return client.call(...args);
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)]!;
}

export function summarize(latenciesMs: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

/** Runs `total` calls of `task` with `concurrency` in flight; returns per-call latencies and wall time. */
export async function runConcurrent(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t0 = performance.now();
      await task(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/**
 * Open-loop load: `total` calls started on a fixed schedule of `ratePerSecond`, at most
 * `concurrency` in flight. Latency counts from each call's scheduled start, so a server that
 * falls behind shows it (no coordinated omission).
 */
export async function runAtRate(
  total: number,
  ratePerSecond: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  const intervalMs = 1000 / ratePerSecond;
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const scheduled = started + i * intervalMs;
      const wait = scheduled - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      // A call sent up to 1 ms early counts from its send, not from a schedule still ahead.
      const from = Math.min(scheduled, performance.now());
      await task(i);
      latencies.push(performance.now() - from);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, seconds: (performance.now() - started) / 1000 };
}
