// The benchmark's own API calls while the cluster fills: a steady trickle of mutating calls,
// gets and cluster-wide lists whose latency is what any client of the loaded server sees,
// measured against Kubernetes' API call SLOs (mutating and get p99 <= 1 s, cluster-scoped
// list p99 <= 30 s). The annotation patches carry a mark that the benchmark's pod watch
// reports back: the time from PATCH sent to event delivered is the watch delivery latency.
import type { KubeObject } from '../src/api/meta.js';
import type { BenchClient } from './http-client.js';

export const PROBE_NAMESPACE = 'scale-probe';
export const PROBE_PODS = 10;
const MARK = 'bench.drover.dev/mark';

export function probePod(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `probe-${i}`, namespace: PROBE_NAMESPACE },
    spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '3600'] }] },
  };
}

export interface ProbeResults {
  mutating: number[];
  get: number[];
  listPods: number[];
  listNodes: number[];
  watch: number[];
  errors: number;
  /** What the first failed calls said (a few). */
  errorSamples: string[];
}

export class Probes {
  readonly results: ProbeResults = { mutating: [], get: [], listPods: [], listNodes: [], watch: [], errors: 0, errorSamples: [] };
  private readonly sentAt = new Map<string, number>();
  private stopped = false;
  private loops: Array<Promise<void>> = [];

  constructor(
    private readonly client: BenchClient,
    private readonly nodeNames: readonly string[],
  ) {}

  start(): void {
    let patches = 0;
    let configMaps = 0;
    let gets = 0;
    this.loops = [
      this.every(100, () => this.patchProbe(patches++)),
      this.every(500, () => this.configMapRoundTrip(configMaps++)),
      this.every(100, () => this.getOne(gets++)),
      this.every(5_000, () => this.list(this.results.listNodes, '/api/v1/nodes')),
      this.every(30_000, () => this.list(this.results.listPods, '/api/v1/pods')),
    ];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  /** Called for every pod event the benchmark's watch delivers. */
  observe(pod: Readonly<KubeObject>): void {
    const mark = pod.metadata.annotations?.[MARK];
    const sent = mark === undefined ? undefined : this.sentAt.get(mark);
    if (sent === undefined || mark === undefined) return;
    this.sentAt.delete(mark);
    this.results.watch.push(performance.now() - sent);
  }

  /** Runs `step` every `periodMs` (right away when a step took longer), until stopped. */
  private async every(periodMs: number, step: () => Promise<void>): Promise<void> {
    while (!this.stopped) {
      const started = performance.now();
      await step().catch((error: unknown) => {
        this.results.errors++;
        if (this.results.errorSamples.length < 5) this.results.errorSamples.push((error as Error).message.slice(0, 200));
      });
      const rest = periodMs - (performance.now() - started);
      if (rest > 0 && !this.stopped) await new Promise((r) => setTimeout(r, rest));
    }
  }

  private async timed(into: number[], method: string, path: string, body?: unknown, contentType?: string): Promise<void> {
    const t0 = performance.now();
    const res = await this.client.call(method, path, body, contentType);
    into.push(performance.now() - t0);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
  }

  private async list(into: number[], path: string): Promise<void> {
    const t0 = performance.now();
    const res = await this.client.callCounting('GET', path);
    into.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  }

  private async patchProbe(i: number): Promise<void> {
    const mark = `m${i}`;
    this.sentAt.set(mark, performance.now());
    const patch = { metadata: { annotations: { [MARK]: mark } } };
    await this.timed(
      this.results.mutating,
      'PATCH',
      `/api/v1/namespaces/${PROBE_NAMESPACE}/pods/probe-${i % PROBE_PODS}`,
      patch,
      'application/merge-patch+json',
    );
  }

  private async configMapRoundTrip(i: number): Promise<void> {
    const path = `/api/v1/namespaces/${PROBE_NAMESPACE}/configmaps`;
    await this.timed(this.results.mutating, 'POST', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { i: String(i) } });
    await this.timed(this.results.mutating, 'DELETE', `${path}/cm-${i}`);
  }

  private async getOne(i: number): Promise<void> {
    if (i % 2 === 0) return this.timed(this.results.get, 'GET', `/api/v1/namespaces/${PROBE_NAMESPACE}/pods/probe-${(i / 2) % PROBE_PODS}`);
    const node = this.nodeNames[Math.floor(Math.random() * this.nodeNames.length)] ?? 'hollow-0';
    return this.timed(this.results.get, 'GET', `/api/v1/nodes/${node}`);
  }
}
