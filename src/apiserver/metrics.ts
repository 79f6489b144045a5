// Prometheus metrics of the API server (prom-client): requests by verb, resource and code,
// their latency, and the latency of every store operation; /metrics adds the metrics of the
// controllers and scheduler running in the same process — on this thread, and on the
// control-plane thread (a source added by the server), summed metric by metric.
import { AggregatorRegistry, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { componentRegistry } from '../metrics/component-metrics.js';
import { KeyedCounter, KeyedHistogram } from '../metrics/keyed-series.js';
import { mergePodStartRecords, podStartStages, type PodStartRecord } from '../metrics/pod-start-stages.js';
import type { Store } from '../storage/store.js';

export type ComponentMetrics = Array<MetricObjectWithValues<MetricValue<string>>>;

export class ApiMetrics {
  private readonly own = new Registry();
  // kube-apiserver's names and labels, so the dashboards and queries users have work as they are.
  // On every request: keyed series, not prom-client's own (see keyed-series.ts for why).
  private readonly requests = new KeyedCounter(
    'apiserver_request_total',
    'API requests by verb, dry run, group, version, resource, scope, component and HTTP code',
    this.own,
  );
  private readonly latency = new KeyedHistogram(
    'apiserver_request_duration_seconds',
    'API request latency by verb, dry run, group, version, resource, scope and component (watch: time to first byte)',
    this.own,
    // kube-apiserver's buckets.
    [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60],
  );
  readonly storeLatency = new KeyedHistogram(
    'drover_store_operation_duration_seconds',
    'Store operation latency by operation',
    this.own,
    [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  );

  /** Component metrics of other threads of this process, as prom-client's JSON. */
  private readonly sources: Array<() => Promise<ComponentMetrics>> = [];

  constructor() {
    collectDefaultMetrics({ register: this.own });
  }

  /** What /metrics serves without the other threads: the server's own metrics and this thread's components'. */
  get registry(): Registry {
    return Registry.merge([this.own, componentRegistry]);
  }

  /** Adds another thread's component metrics to /metrics (a source that fails is left out). */
  addComponentSource(source: () => Promise<ComponentMetrics>): void {
    this.sources.push(source);
  }

  /** Pod start stages of other threads of this process (the scheduler's, on the control-plane thread). */
  private readonly podStartSources: Array<() => Promise<PodStartRecord[]>> = [];

  addPodStartSource(source: () => Promise<PodStartRecord[]>): void {
    this.podStartSources.push(source);
  }

  /** What POD_START_STAGES_PATH serves: this thread's stages and the other threads', one record per pod. */
  async podStartRecords(): Promise<PodStartRecord[]> {
    const remote = await Promise.all(this.podStartSources.map((source) => source().catch(() => [])));
    return mergePodStartRecords([podStartStages.list(), ...remote]);
  }

  /** The /metrics text: every component registry of this process aggregated, the server's own beside them. */
  async text(): Promise<{ text: string; contentType: string }> {
    if (this.sources.length === 0) return { text: await this.registry.metrics(), contentType: this.registry.contentType };
    const remote = await Promise.all(this.sources.map((source) => source().catch(() => undefined)));
    const all = [await componentRegistry.getMetricsAsJSON(), ...remote.filter((m): m is ComponentMetrics => m !== undefined)];
    const merged = Registry.merge([this.own, AggregatorRegistry.aggregate(all as Parameters<typeof AggregatorRegistry.aggregate>[0])]);
    return { text: await merged.metrics(), contentType: merged.contentType };
  }

  observeRequest(request: RequestLabels, code: number, seconds: number): void {
    // NUL between the values: no label value holds one, so no two series share a key.
    const key = `${request.verb}\0${request.dry_run}\0${request.group}\0${request.version}\0${request.resource}\0${request.subresource}\0${request.scope}`;
    this.requests.inc(`${key}\0${code}`, () => ({ ...request, component: 'apiserver', code: String(code) }));
    this.latency.observe(key, () => ({ ...request, component: 'apiserver' }), seconds);
  }
}

/** What a request's series are labelled with, as kube-apiserver labels them (component aside). */
export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
}

const NO_RESOURCE = { group: '', version: '', resource: '', subresource: '', scope: '' };

/**
 * kube-apiserver's request labels: the verb as its metrics spell it (the HTTP method, but LIST,
 * WATCH and APPLY for those), dry_run All when asked, and scope resource / namespace / cluster.
 */
export function requestLabels(
  method: string,
  verb: string,
  contentType: string | undefined,
  dryRun: boolean,
  path: { group: string; version: string; plural: string; namespace?: string; name?: string; subresource?: string } | undefined,
): RequestLabels {
  const upper = method.toUpperCase();
  const metricVerb =
    verb === 'list' ? 'LIST' : verb === 'watch' ? 'WATCH' : upper === 'PATCH' && contentType?.startsWith('application/apply-patch') ? 'APPLY' : upper;
  if (!path) return { verb: metricVerb, dry_run: '', ...NO_RESOURCE };
  const scope = path.name !== undefined ? 'resource' : path.namespace !== undefined ? 'namespace' : 'cluster';
  return {
    verb: metricVerb,
    dry_run: dryRun ? 'All' : '',
    group: path.group,
    version: path.version,
    resource: path.plural,
    subresource: path.subresource ?? '',
    scope,
  };
}

/** Wraps a store so that every operation's latency is recorded. */
export function instrumentStore(store: Store, metrics: ApiMetrics): Store {
  const timed =
    <A extends unknown[], R>(operation: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const end = metrics.storeLatency.startTimer(operation, () => ({ operation }));
      try {
        return await fn(...args);
      } finally {
        end();
      }
    };
  const instrumented: Store = {
    ...(store.shared === undefined ? {} : { shared: store.shared }),
    get: timed('get', store.get.bind(store)),
    list: timed('list', store.list.bind(store)),
    create: timed('create', store.create.bind(store)),
    update: timed('update', store.update.bind(store)),
    delete: timed('delete', store.delete.bind(store)),
    watch: store.watch.bind(store),
    currentRevision: store.currentRevision.bind(store),
    oldestRevision: store.oldestRevision.bind(store),
    close: store.close.bind(store),
  };
  if (store.getRaw) instrumented.getRaw = timed('get', store.getRaw.bind(store));
  if (store.listStream) instrumented.listStream = store.listStream.bind(store);
  if (store.listRaw) instrumented.listRaw = timed('list', store.listRaw.bind(store));
  return instrumented;
}
