// The agent's /metrics carries the container figures under cAdvisor's names and labels, the
// kubelet's own series, and the restarts under kube-state-metrics' name, so dashboards and alerts
// written for a Kubernetes node work as they are:
//   container_cpu_usage_seconds_total{container,pod,namespace}   counter, seconds of CPU
//   container_memory_working_set_bytes{container,pod,namespace}  gauge
//   kubelet_running_pods                                          gauge, the pods the agent runs
//   kubelet_pod_start_duration_seconds                            histogram, first seen → Running
//   kube_pod_container_status_restarts_total{namespace,pod,container}  counter, from the pods' status
// The figures are the sampler's newest (at most 15 s old), not a read per scrape.
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Pod } from '../../api/core/index.js';
import type { ResourceSampler } from './resource-sampler.js';

/** What the pods' series are read from: the agent's pod manager. */
export interface NodePods {
  /** How many pods the agent runs now. */
  running(): Promise<number>;
  /** The pods bound to this node, with the status the agent last wrote. */
  bound(): Iterable<Readonly<Pod>>;
}

/** kubelet_pod_start_duration_seconds' buckets, as the kubelet's. */
const POD_START_BUCKETS = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];

const LABELS = ['container', 'pod', 'namespace'] as const;

/** Registers the series; returns where a pod's start (seconds from first seen to Running) is told. */
export function registerContainerMetrics(registry: Registry, sampler: ResourceSampler, pods: NodePods): { podStarted(seconds: number): void } {
  // A counter whose value is set from the kernel's: prom-client's Counter only increments, so a
  // gauge collects it, with the counter type announced (as cAdvisor's exporter does).
  const cpu = new Gauge({
    name: 'container_cpu_usage_seconds_total',
    help: 'Cumulative cpu time consumed in seconds.',
    labelNames: LABELS,
    registers: [registry],
    collect() {
      this.reset();
      for (const { pod, container, usage } of sampler.newestCounters()) {
        if (usage.usageCoreNanoSeconds !== undefined) this.set({ container, pod: pod.name, namespace: pod.namespace }, usage.usageCoreNanoSeconds / 1e9);
      }
    },
  });
  (cpu as unknown as { type: string }).type = 'counter';
  new Gauge({
    name: 'container_memory_working_set_bytes',
    help: 'Current working set in bytes.',
    labelNames: LABELS,
    registers: [registry],
    collect() {
      this.reset();
      for (const { pod, container, usage } of sampler.newestCounters()) {
        if (usage.workingSetBytes !== undefined) this.set({ container, pod: pod.name, namespace: pod.namespace }, usage.workingSetBytes);
      }
    },
  });
  new Gauge({
    name: 'kubelet_running_pods',
    help: 'Number of pods that have a running pod sandbox',
    registers: [registry],
    async collect() {
      this.set(await pods.running());
    },
  });
  const restarts = new Gauge({
    name: 'kube_pod_container_status_restarts_total',
    help: 'The number of container restarts per container.',
    labelNames: ['namespace', 'pod', 'container'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const pod of pods.bound()) {
        for (const status of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
          this.set({ namespace: pod.metadata.namespace ?? '', pod: pod.metadata.name ?? '', container: status.name }, status.restartCount ?? 0);
        }
      }
    },
  });
  (restarts as unknown as { type: string }).type = 'counter';
  const podStart = new Histogram({
    name: 'kubelet_pod_start_duration_seconds',
    help: 'Duration in seconds from the agent seeing a pod for the first time to the pod starting to run',
    buckets: POD_START_BUCKETS,
    registers: [registry],
  });
  return { podStarted: (seconds) => podStart.observe(seconds) };
}
