// CPU and memory usage from metrics.k8s.io/v1beta1 (PodMetrics, NodeMetrics), when the server
// serves that group: discovery is asked once. The metrics API has no watch (it is a snapshot of
// the latest scrape), so its figures are re-read every REFRESH_MS while a view shows them.
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './client';
import { parseQuantity } from '../quantity';

const REFRESH_MS = 15_000;

export interface Usage {
  cpu: number;
  memory: number;
}

export interface MetricsSnapshot {
  /** False while discovery does not list metrics.k8s.io: every usage figure shows "—". */
  served: boolean;
  pods: Map<string, Usage>;
  nodes: Map<string, Usage>;
}

let served: Promise<boolean> | undefined;

function metricsServed(): Promise<boolean> {
  served ??= getJson<{ groups?: Array<{ name: string }> }>('/apis')
    .then((list) => (list.groups ?? []).some((g) => g.name === 'metrics.k8s.io'))
    .catch(() => false);
  return served;
}

interface MetricsItem {
  metadata: { name: string; namespace?: string };
  usage?: Record<string, string>;
  containers?: Array<{ usage?: Record<string, string> }>;
}

function usageOf(item: MetricsItem): Usage {
  const parts = item.usage ? [item.usage] : (item.containers ?? []).map((c) => c.usage ?? {});
  return parts.reduce<Usage>((sum, u) => ({ cpu: sum.cpu + parseQuantity(u['cpu']), memory: sum.memory + parseQuantity(u['memory']) }), { cpu: 0, memory: 0 });
}

async function read(path: string): Promise<Map<string, Usage>> {
  const list = await getJson<{ items?: MetricsItem[] }>(path);
  const out = new Map<string, Usage>();
  for (const item of list.items ?? []) {
    out.set(item.metadata.namespace ? `${item.metadata.namespace}/${item.metadata.name}` : item.metadata.name, usageOf(item));
  }
  return out;
}

export function useMetrics(): MetricsSnapshot {
  const [snapshot, setSnapshot] = useState<MetricsSnapshot>({ served: false, pods: new Map(), nodes: new Map() });
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      if (!(await metricsServed())) return;
      try {
        const [pods, nodes] = await Promise.all([read('/apis/metrics.k8s.io/v1beta1/pods'), read('/apis/metrics.k8s.io/v1beta1/nodes')]);
        if (live) setSnapshot({ served: true, pods, nodes });
      } catch {
        // a scrape not there yet: keep the last figures
      }
      if (live) timer = setTimeout(() => void refresh(), REFRESH_MS);
    };
    void refresh();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  return snapshot;
}
