// metrics.k8s.io/v1beta1, served as metrics-server serves it (what `kubectl top` and the HPA
// controller read): NodeMetrics (cluster-scoped) and PodMetrics (namespaced), get and list,
// label and field selectors over the nodes' and pods' own labels and fields. The figures come
// from the agents (agent-stats.ts); a pod or node without figures is left out of lists and is
// NotFound on get. No watch, as metrics-server has none.
//
// Drover adds one subresource, for the dashboard's charts (an hour at 15 s steps, from memory):
//   GET /apis/metrics.k8s.io/v1beta1/nodes/{name}/history                     NodeMetricsHistory
//   GET /apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods/{name}/history      PodMetricsHistory
//   { "kind": "PodMetricsHistory", "apiVersion": "metrics.k8s.io/v1beta1",
//     "metadata": { "name": "web", "namespace": "default" }, "stepSeconds": 15,
//     "containers": [ { "name": "app", "points": [ { "timestamp": RFC3339, "usage": { "cpu": "250m", "memory": "12Mi" } } ] } ] }
//   (a NodeMetricsHistory has "points" in place of "containers"). RBAC: nodes/history, pods/history.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { HistoryPoint, UsageFigures } from '../../agent/stats/stats-shape.js';
import { methodNotAllowed, notFound, pathNotFound, ApiError } from '../errors.js';
import { parseBoolean, type RequestContext } from '../handlers/context.js';
import { writeJson } from '../http-io.js';
import { buildFilter } from '../registry/filters.js';
import { timestamp } from '../registry/metadata.js';
import type { ResourcePath } from '../routes.js';
import type { AgentStats } from './agent-stats.js';
import { cpuQuantity, goDuration, memoryQuantity } from './quantities.js';
import type { Pod } from '../../api/core/index.js';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
const API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;
const READ_VERBS = ['get', 'list'];
/** What RBAC rules name in the group (resources and Drover's history subresources). */
export const METRICS_RESOURCES = ['nodes', 'pods', 'nodes/history', 'pods/history'];

/** /apis/metrics.k8s.io/v1beta1, as metrics-server's discovery lists it. */
export function metricsResourceList() {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: API_VERSION,
    resources: [
      { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: READ_VERBS },
      { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: READ_VERBS },
    ],
  };
}

/** The group as /apis and /apis/metrics.k8s.io list it. */
export function metricsGroup() {
  const version = { groupVersion: API_VERSION, version: METRICS_VERSION };
  return { name: METRICS_GROUP, versions: [version], preferredVersion: version };
}

interface Usage {
  timestamp: string;
  window: string;
  usage: { cpu: string; memory: string };
}

/** A container's (or node's) figures as metrics-server gives them; undefined without both. */
function usageOf(figures: UsageFigures): Usage | undefined {
  const cpu = figures.cpu;
  const memory = figures.memory?.workingSetBytes;
  if (!cpu || cpu.usageNanoCores === undefined || memory === undefined) return undefined;
  return {
    timestamp: rfc3339(cpu.time),
    window: goDuration(cpu.windowSeconds),
    usage: { cpu: cpuQuantity(cpu.usageNanoCores), memory: memoryQuantity(memory) },
  };
}

/** metav1.Time's form: whole seconds. */
function rfc3339(time: string): string {
  return time.replace(/\.\d+Z$/, 'Z');
}

function metadataOf(object: KubeObject, now: string): Record<string, unknown> {
  const { name, namespace, labels } = object.metadata;
  return { name, ...(namespace ? { namespace } : {}), creationTimestamp: now, ...(labels ? { labels } : {}) };
}

export async function serveResourceMetrics(ctx: RequestContext, path: ResourcePath, stats: AgentStats): Promise<void> {
  const url = ctx.req.url ?? '';
  if (path.version !== METRICS_VERSION || (path.plural !== 'nodes' && path.plural !== 'pods')) throw pathNotFound(url);
  // Nodes are cluster-scoped; pods are named only in a namespace, and listed in one or in all.
  if (path.plural === 'nodes' ? path.namespace !== undefined : path.namespace === undefined && path.name !== undefined) throw pathNotFound(url);
  if (path.subresource !== undefined && (path.subresource !== 'history' || path.name === undefined)) throw pathNotFound(url);
  const method = ctx.req.method ?? 'GET';
  if ((method !== 'GET' && method !== 'HEAD') || path.legacyWatch || parseBoolean(ctx.query, 'watch')) {
    throw methodNotAllowed(method);
  }
  ctx.verb = path.name === undefined ? 'list' : 'get';
  if (path.subresource === 'history') return writeJson(ctx.res, 200, await historyOf(ctx, path, stats));
  const items = path.plural === 'nodes' ? await nodeMetrics(ctx, path, stats) : await podMetrics(ctx, path, stats);
  if (path.name === undefined) {
    return writeJson(ctx.res, 200, { kind: path.plural === 'nodes' ? 'NodeMetricsList' : 'PodMetricsList', apiVersion: API_VERSION, metadata: {}, items });
  }
  const found = items[0];
  if (!found) throw notFound({ group: METRICS_GROUP, plural: path.plural, name: path.name });
  writeJson(ctx.res, 200, found);
}

/** The stored objects the request addresses, through its selectors. */
async function objectsOf(ctx: RequestContext, path: ResourcePath): Promise<KubeObject[]> {
  const def = findResource('', 'v1', path.plural)!;
  const filter = buildFilter(def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  const { items } = await ctx.registry.collection(def, path.namespace).list();
  return items.filter((item) => (path.name === undefined || item.metadata.name === path.name) && (!filter || filter(item)));
}

async function nodeMetrics(ctx: RequestContext, path: ResourcePath, stats: AgentStats): Promise<unknown[]> {
  const [nodes, summaries] = await Promise.all([objectsOf(ctx, path), stats.summaries()]);
  const byName = new Map(summaries.map((s) => [s.summary.node.nodeName, s.summary.node]));
  const now = timestamp();
  const items: unknown[] = [];
  for (const node of nodes) {
    const figures = byName.get(node.metadata.name ?? '');
    const usage = figures && usageOf(figures);
    if (usage) items.push({ kind: 'NodeMetrics', apiVersion: API_VERSION, metadata: metadataOf(node, now), ...usage });
  }
  return items;
}

async function podMetrics(ctx: RequestContext, path: ResourcePath, stats: AgentStats): Promise<unknown[]> {
  const [pods, summaries] = await Promise.all([objectsOf(ctx, path), stats.summaries()]);
  const byUid = new Map(summaries.flatMap((s) => s.summary.pods.map((p) => [p.podRef.uid, p] as const)));
  const now = timestamp();
  const items: unknown[] = [];
  for (const pod of pods) {
    const figures = byUid.get(pod.metadata.uid ?? '');
    if (!figures) continue;
    const containers = figures.containers.map((c) => ({ name: c.name, measured: usageOf(c) }));
    // metrics-server leaves out a pod any of whose containers it has no figures for.
    if (containers.length === 0 || containers.some((c) => !c.measured)) continue;
    const newest = containers.reduce((a, b) => (b.measured!.timestamp > a.measured!.timestamp ? b : a)).measured!;
    items.push({
      kind: 'PodMetrics',
      apiVersion: API_VERSION,
      metadata: metadataOf(pod, now),
      timestamp: newest.timestamp,
      window: newest.window,
      containers: containers.map((c) => ({ name: c.name, usage: c.measured!.usage })),
    });
  }
  return items;
}

function historyPoints(points: HistoryPoint[]) {
  return points
    .filter((p) => p.usageNanoCores !== undefined && p.workingSetBytes !== undefined)
    .map((p) => ({ timestamp: rfc3339(p.time), usage: { cpu: cpuQuantity(p.usageNanoCores!), memory: memoryQuantity(p.workingSetBytes!) } }));
}

async function historyOf(ctx: RequestContext, path: ResourcePath, stats: AgentStats): Promise<unknown> {
  const name = path.name!;
  const nodesDef = findResource('', 'v1', 'nodes')!;
  const unavailable = (why: string) => new ApiError(503, 'ServiceUnavailable', why);
  if (path.plural === 'nodes') {
    const node = await ctx.registry.get(nodesDef, undefined, name);
    // No pod is in the empty namespace: the agent sends the node's series alone.
    const history = await stats.history(node, { namespace: '', pod: '' }).catch((e: Error) => {
      throw unavailable(e.message);
    });
    if (!history) throw unavailable(`node "${name}" reports no streaming endpoint`);
    return {
      kind: 'NodeMetricsHistory',
      apiVersion: API_VERSION,
      metadata: { name },
      stepSeconds: history.stepSeconds,
      points: historyPoints(history.node.points),
    };
  }
  const pod = await ctx.registry.get(findResource('', 'v1', 'pods')!, path.namespace, name);
  const nodeName = (pod as Pod).spec?.nodeName;
  if (!nodeName) throw notFound({ group: METRICS_GROUP, plural: 'pods', name });
  const node = await ctx.registry.get(nodesDef, undefined, nodeName);
  const history = await stats.history(node, { namespace: path.namespace!, pod: name }).catch((e: Error) => {
    throw unavailable(e.message);
  });
  if (!history) throw unavailable(`node "${nodeName}" reports no streaming endpoint`);
  const own = history.pods.find((p) => p.podRef.uid === pod.metadata.uid);
  return {
    kind: 'PodMetricsHistory',
    apiVersion: API_VERSION,
    metadata: { name, namespace: path.namespace },
    stepSeconds: history.stepSeconds,
    containers: (own?.containers ?? []).map((c) => ({ name: c.name, points: historyPoints(c.points) })),
  };
}
