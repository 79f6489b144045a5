// The pods' figures, read from metrics.k8s.io as Kubernetes' HPA reads them (its resource
// metrics client): one PodMetricsList per namespace and selector, summed per pod over its
// containers (or the one container a ContainerResource metric names), in milli-units.
import { parseQuantity } from '../../api/quota/quantity.js';
import type { ApiClient } from '../../client/index.js';
import type { PodFigure } from './replica-calculator.js';

interface PodMetrics {
  metadata: { name: string };
  timestamp: string;
  window: string;
  containers: Array<{ name: string; usage: Record<string, string> }>;
}

/** A Go time.Duration string ("15.012s", "1m0.5s", "250ms") in milliseconds. */
export function parseGoDuration(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };
  let total = 0;
  for (const [, number, unit] of text.matchAll(/([\d.]+)(h|ms|m|s|us|µs|ns)/g)) total += Number(number) * (units[unit!] ?? 0);
  return total;
}

/** A quantity in milli-units: millicores for cpu, bytes × 1000 for memory. */
export function milliValue(quantity: string): number | undefined {
  const parsed = parseQuantity(quantity);
  return parsed === undefined ? undefined : Number(parsed.nano / 1_000_000n);
}

export type PodMetricsList = PodMetrics[];

export async function fetchPodMetrics(api: ApiClient, namespace: string, selector: string): Promise<PodMetricsList> {
  const query = new URLSearchParams(selector ? { labelSelector: selector } : {});
  const list = await api.request<{ items?: PodMetrics[] }>('GET', `/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods`, { query });
  return list.items ?? [];
}

/** Pod name → its usage of `resource` (of `container` only, when given). */
export function figuresOf(list: PodMetricsList, resource: string, container?: string): Map<string, PodFigure> {
  const figures = new Map<string, PodFigure>();
  for (const pod of list) {
    const containers = container === undefined ? pod.containers : pod.containers.filter((c) => c.name === container);
    if (containers.length === 0) continue;
    let value = 0;
    let complete = true;
    for (const c of containers) {
      const usage = c.usage[resource];
      const milli = usage === undefined ? undefined : milliValue(usage);
      if (milli === undefined) complete = false;
      else value += milli;
    }
    if (!complete) continue;
    figures.set(pod.metadata.name, { value, timestamp: Date.parse(pod.timestamp), windowMs: parseGoDuration(pod.window) });
  }
  return figures;
}
