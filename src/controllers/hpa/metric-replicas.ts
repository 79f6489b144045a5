// The replicas each of an autoscaler's metrics asks for, and what status.currentMetrics says
// of them; the greatest proposal wins (Kubernetes' computeReplicasForMetrics).
import { formatQuantity } from '../../api/quota/quantity.js';
import type { KubeObject } from '../../api/meta.js';
import type { PodSpec, PodStatus } from '../../api/core/index.js';
import { podCondition } from '../../api/core/pod-conditions.js';
import { milliValue, figuresOf, type PodMetricsList } from './pod-metrics.js';
import { resourceReplicas, type PodFacts, type Target } from './replica-calculator.js';
import type { MetricSpec, MetricStatus } from './types.js';

export interface MetricsOutcome {
  replicas: number;
  /** The metric whose proposal won, as messages name it ("cpu resource utilization (percentage of request)"). */
  metricName: string;
  statuses: MetricStatus[];
  /** One per metric that could not be used: event reason and message. */
  errors: Array<{ reason: string; message: string }>;
}

/** What the calculator needs of a pod, with its request of `resource` (of `container` only, when given). */
export function podFacts(pod: Readonly<KubeObject>, resource: string, container?: string): PodFacts {
  const spec: Partial<PodSpec> = (pod['spec'] ?? {}) as PodSpec;
  const status = (pod['status'] ?? {}) as PodStatus;
  let request: number | undefined = 0;
  for (const c of spec.containers ?? []) {
    if (container !== undefined && c.name !== container) continue;
    const text = c.resources?.requests?.[resource];
    const milli = text === undefined ? undefined : milliValue(String(text));
    request = milli === undefined || request === undefined ? undefined : request + milli;
  }
  const ready = podCondition({ status }, 'Ready');
  return {
    name: pod.metadata.name ?? '',
    phase: status.phase ?? 'Pending',
    deleting: pod.metadata.deletionTimestamp !== undefined,
    ...(ready ? { ready: { status: ready.status, lastTransition: Date.parse(ready.lastTransitionTime ?? '') || 0 } } : {}),
    ...(status.startTime ? { startTime: Date.parse(status.startTime) } : {}),
    ...(request === undefined ? {} : { request }),
  };
}

const milliQuantity = (milli: number) => formatQuantity({ nano: BigInt(Math.round(milli)) * 1_000_000n, format: 'DecimalSI' });

export function metricNameOf(metric: MetricSpec): string {
  const source = metric.resource ?? metric.containerResource;
  const container = metric.type === 'ContainerResource' ? ' container' : '';
  if (!source) return `${metric.type} metric`;
  return source.target.type === 'Utilization'
    ? `${source.name}${container} resource utilization (percentage of request)`
    : `${source.name}${container} resource`;
}

export function computeMetricReplicas(
  metrics: readonly MetricSpec[],
  currentReplicas: number,
  pods: readonly Readonly<KubeObject>[],
  podMetrics: PodMetricsList | Error,
  now: number,
): MetricsOutcome {
  const outcome: MetricsOutcome = { replicas: 0, metricName: '', statuses: [], errors: [] };
  for (const metric of metrics) {
    try {
      const source = metric.type === 'Resource' ? metric.resource : metric.type === 'ContainerResource' ? metric.containerResource : undefined;
      if (!source)
        throw Object.assign(new Error(`unsupported metric source type: ${metric.type} (Drover reads only Resource and ContainerResource metrics)`), {
          reason: `FailedGet${metric.type}Metric`,
        });
      const container = metric.type === 'ContainerResource' ? metric.containerResource?.container : undefined;
      const what = source.target.type === 'Utilization' ? 'utilization' : 'resource metric value';
      if (podMetrics instanceof Error)
        throw new Error(
          `failed to get ${source.name} ${what}: unable to get metrics for resource ${source.name}: unable to fetch metrics from resource metrics API: ${podMetrics.message}`,
        );
      let target: Target;
      if (source.target.type === 'Utilization' && source.target.averageUtilization !== undefined) target = { utilization: source.target.averageUtilization };
      else if (source.target.type === 'AverageValue' && source.target.averageValue !== undefined)
        target = { averageValue: milliValue(String(source.target.averageValue)) ?? 0 };
      else throw new Error(`invalid ${source.name} target: must be Utilization or AverageValue`);
      const figures = figuresOf(podMetrics, source.name, container);
      if (figures.size === 0)
        throw new Error(
          `failed to get ${source.name} ${what}: unable to get metrics for resource ${source.name}: no metrics returned from resource metrics API`,
        );
      const facts = pods.map((pod) => podFacts(pod, source.name, container));
      let proposal;
      try {
        proposal = resourceReplicas(currentReplicas, facts, figures, target, source.name === 'cpu', now);
      } catch (error) {
        throw new Error(`failed to get ${source.name} ${what}: ${(error as Error).message}`);
      }
      const current = {
        ...(proposal.utilization === undefined ? {} : { averageUtilization: proposal.utilization }),
        averageValue: milliQuantity(proposal.average),
      };
      outcome.statuses.push(
        metric.type === 'Resource'
          ? { type: 'Resource', resource: { name: source.name, current } }
          : { type: 'ContainerResource', containerResource: { name: source.name, container: container ?? '', current } },
      );
      if (proposal.replicas > outcome.replicas || outcome.metricName === '') {
        outcome.replicas = Math.max(outcome.replicas, proposal.replicas);
        outcome.metricName = metricNameOf(metric);
      }
    } catch (error) {
      const reason =
        (error as { reason?: string }).reason ?? (metric.type === 'ContainerResource' ? 'FailedGetContainerResourceMetric' : 'FailedGetResourceMetric');
      outcome.errors.push({ reason, message: (error as Error).message });
      outcome.statuses.push({ type: metric.type });
    }
  }
  return outcome;
}
