// The agent's /metrics carries the container figures under cAdvisor's names and labels, and
// the kubelet's running-pod count, so dashboards and alerts written for a kubelet work as they are:
//   container_cpu_usage_seconds_total{container,pod,namespace}   counter, seconds of CPU
//   container_memory_working_set_bytes{container,pod,namespace}  gauge
//   kubelet_running_pods                                          gauge, the pods the agent runs
// The values are the sampler's newest (at most 15 s old), not a read per scrape.
import { Gauge, type Registry } from 'prom-client';
import type { ResourceSampler } from './resource-sampler.js';

const LABELS = ['container', 'pod', 'namespace'] as const;

/** `runningPods`: how many pods the agent runs now. */
export function registerContainerMetrics(registry: Registry, sampler: ResourceSampler, runningPods: () => Promise<number>): void {
  // A counter whose value is set from the kernel's: prom-client's Counter only increments, so a
  // gauge collects it, with the counter type announced (as cAdvisor's exporter does).
  const cpu = new Gauge({
    name: 'container_cpu_usage_seconds_total', help: 'Cumulative cpu time consumed in seconds.', labelNames: LABELS, registers: [registry],
    collect() {
      this.reset();
      for (const { pod, container, usage } of sampler.newestCounters()) {
        if (usage.usageCoreNanoSeconds !== undefined) this.set({ container, pod: pod.name, namespace: pod.namespace }, usage.usageCoreNanoSeconds / 1e9);
      }
    },
  });
  (cpu as unknown as { type: string }).type = 'counter';
  new Gauge({
    name: 'container_memory_working_set_bytes', help: 'Current working set in bytes.', labelNames: LABELS, registers: [registry],
    collect() {
      this.reset();
      for (const { pod, container, usage } of sampler.newestCounters()) {
        if (usage.workingSetBytes !== undefined) this.set({ container, pod: pod.name, namespace: pod.namespace }, usage.workingSetBytes);
      }
    },
  });
  new Gauge({
    name: 'kubelet_running_pods', help: 'Number of pods that have a running pod sandbox', registers: [registry],
    async collect() {
      this.set(await runningPods());
    },
  });
}
