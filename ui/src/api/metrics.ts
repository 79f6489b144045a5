// CPU and memory usage from metrics.k8s.io/v1beta1 (PodMetrics, NodeMetrics and Drover's history
// subresource), when the server serves that group. The metrics API has no watch (each answer is
// the latest scrape), so a view re-reads what it shows every REFRESH_MS, and always with one
// request: the whole list for a list of pods (5,000 rows are one request, not 5,000), one
// object for one pod's page.
import { useEffect, useState } from 'preact/hooks';
import { ApiStatusError, errorMessage, getJson } from './client';
import { parseQuantity } from '../quantity';

export const REFRESH_MS = 15_000;
const GROUP = '/apis/metrics.k8s.io/v1beta1';

export interface Usage {
  /** Cores. */
  cpu: number;
  /** Bytes (the working set, as kubectl top shows). */
  memory: number;
  /** The end of the window the figures cover (RFC 3339) and its length ("15.2s"), as the API gives them. */
  timestamp?: string;
  window?: string;
}

export interface Polled<T> {
  /** The latest answer; kept through a failed refresh, so figures do not blink to "—". */
  value: T | undefined;
  /** False while discovery does not list metrics.k8s.io: every usage figure shows "—". */
  served: boolean;
  /** The API's own message when the last read failed (e.g. forbidden), other than a 404. */
  error: string | undefined;
}

let served: Promise<boolean> | undefined;

/** Discovery is asked once it has answered; a failed ask (the network, a restart) is asked again. */
function metricsServed(): Promise<boolean> {
  served ??= getJson<{ groups?: Array<{ name: string }> }>('/apis')
    .then((list) => (list.groups ?? []).some((g) => g.name === 'metrics.k8s.io'))
    .catch(() => {
      served = undefined;
      return false;
    });
  return served;
}

interface MetricsItem {
  metadata: { name: string; namespace?: string };
  timestamp?: string;
  window?: string;
  usage?: Record<string, string>;
  containers?: Array<{ usage?: Record<string, string> }>;
}

/** A node's usage, or a pod's as the sum over its containers (as kubectl top pod shows it). */
export function usageOf(item: MetricsItem): Usage {
  const parts = item.usage ? [item.usage] : (item.containers ?? []).map((c) => c.usage ?? {});
  const sum = parts.reduce((s, u) => ({ cpu: s.cpu + parseQuantity(u['cpu']), memory: s.memory + parseQuantity(u['memory']) }), { cpu: 0, memory: 0 });
  return { ...sum, ...(item.timestamp ? { timestamp: item.timestamp } : {}), ...(item.window ? { window: item.window } : {}) };
}

function byKey(list: { items?: MetricsItem[] }): Map<string, Usage> {
  const out = new Map<string, Usage>();
  for (const item of list.items ?? []) {
    out.set(item.metadata.namespace ? `${item.metadata.namespace}/${item.metadata.name}` : item.metadata.name, usageOf(item));
  }
  return out;
}

/**
 * `path` read every REFRESH_MS while the view is shown. A 404 is an answer (no figures yet: a pod
 * just started, or finished), so the value becomes undefined and no error shows.
 */
export function usePolled<T>(path: string | undefined, parse: (json: any) => T): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ value: undefined, served: false, error: undefined });
  useEffect(() => {
    setState({ value: undefined, served: false, error: undefined });
    if (!path) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      if (await metricsServed()) {
        try {
          const value = parse(await getJson(path));
          if (live) setState({ value, served: true, error: undefined });
        } catch (failure) {
          const missing = failure instanceof ApiStatusError && failure.code === 404;
          if (live) setState((last) => ({ value: missing ? undefined : last.value, served: true, error: missing ? undefined : errorMessage(failure) }));
        }
      }
      if (live) timer = setTimeout(() => void refresh(), REFRESH_MS);
    };
    void refresh();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path]);
  return state;
}

/** Every pod's usage by `namespace/name`: one list request per refresh. */
export function usePodMetrics(): Polled<Map<string, Usage>> {
  return usePolled(`${GROUP}/pods`, byKey);
}

/** Every node's usage by name. */
export function useNodeMetrics(): Polled<Map<string, Usage>> {
  return usePolled(`${GROUP}/nodes`, byKey);
}

/** One pod's usage (its own PodMetrics, not the whole list). */
export function usePodUsage(namespace: string, name: string): Polled<Usage> {
  return usePolled(`${GROUP}/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`, usageOf);
}

export interface HistoryPoint {
  /** Milliseconds since the epoch. */
  time: number;
  cpu: number;
  memory: number;
}

export interface UsageHistory {
  stepSeconds: number;
  points: HistoryPoint[];
}

interface RawPoint {
  timestamp: string;
  usage?: Record<string, string>;
}

function pointsOf(raw: RawPoint[] | undefined): HistoryPoint[] {
  return (raw ?? []).map((p) => ({ time: Date.parse(p.timestamp), cpu: parseQuantity(p.usage?.['cpu']), memory: parseQuantity(p.usage?.['memory']) }));
}

/**
 * A pod's history as one series: its containers' points summed per sampling round. A round
 * samples every container within the same moment, but the times are whole seconds and may fall
 * either side of one, so points are matched to the nearest step rather than the exact second.
 */
export function podSeries(stepSeconds: number, containers: Array<{ points?: RawPoint[] }>): HistoryPoint[] {
  const stepMs = Math.max(1, stepSeconds) * 1000;
  const rounds = new Map<number, HistoryPoint & { count: number }>();
  for (const container of containers) {
    for (const point of pointsOf(container.points)) {
      const slot = Math.round(point.time / stepMs);
      const sum = rounds.get(slot);
      if (sum) rounds.set(slot, { time: Math.max(sum.time, point.time), cpu: sum.cpu + point.cpu, memory: sum.memory + point.memory, count: sum.count + 1 });
      else rounds.set(slot, { ...point, count: 1 });
    }
  }
  // A round some container missed (it started or restarted since) would show a false dip: left out.
  return [...rounds.values()]
    .filter((r) => r.count === containers.length)
    .map(({ count: _, ...p }) => p)
    .sort((a, b) => a.time - b.time);
}

export function useNodeHistory(name: string | undefined): Polled<UsageHistory> {
  return usePolled(name ? `${GROUP}/nodes/${encodeURIComponent(name)}/history` : undefined, (h: { stepSeconds: number; points?: RawPoint[] }) => ({
    stepSeconds: h.stepSeconds,
    points: pointsOf(h.points),
  }));
}

export function usePodHistory(namespace: string, name: string): Polled<UsageHistory> {
  return usePolled(
    `${GROUP}/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/history`,
    (h: { stepSeconds: number; containers?: Array<{ points?: RawPoint[] }> }) => ({
      stepSeconds: h.stepSeconds,
      points: podSeries(h.stepSeconds, h.containers ?? []),
    }),
  );
}
