// autoscaling/v1 ⇄ autoscaling/v2 HorizontalPodAutoscaler. v2 is stored; v1 is what kubectl
// autoscale (v1.32) posts, and Kubernetes still serves it. v1 holds only a CPU utilization
// target, so as in Kubernetes' conversion: v1's target is v2's cpu Resource metric with type
// Utilization (80% when there is no metric at all), and v2 reads back as v1 through that metric's
// figures. What v1 cannot express (other metrics, behavior, their status, conditions) travels in
// the annotations Kubernetes uses for it, so a v1 client that reads, changes and writes back
// keeps them, and both conversions are pure.
import { isObject, type KubeObject } from '../meta.js';
import { DEFAULT_CPU_UTILIZATION } from '../defaults/hpa-defaults.js';

type Obj = Record<string, unknown>;

const asObj = (value: unknown): Obj => (isObject(value) ? value : {});

/** v2's parts without a v1 field, carried in v1's annotations. */
const CARRIED = {
  metrics: 'autoscaling.alpha.kubernetes.io/metrics',
  behavior: 'autoscaling.alpha.kubernetes.io/behavior',
  currentMetrics: 'autoscaling.alpha.kubernetes.io/current-metrics',
  conditions: 'autoscaling.alpha.kubernetes.io/conditions',
} as const;

function isCpuUtilization(metric: unknown): boolean {
  const resource = asObj(asObj(metric)['resource']);
  return asObj(metric)['type'] === 'Resource' && resource['name'] === 'cpu' && asObj(resource['target'])['type'] === 'Utilization';
}

function cpuMetric(percent: number): Obj {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } } };
}

function isCpuResource(metric: unknown): boolean {
  return asObj(metric)['type'] === 'Resource' && asObj(asObj(metric)['resource'])['name'] === 'cpu';
}

/** Reads and removes the carried annotations of a v1 object (a copy of its metadata). */
function takeCarried(v1: KubeObject): { metadata: KubeObject['metadata']; carried: Partial<Record<keyof typeof CARRIED, unknown>> } {
  const annotations = { ...(v1.metadata.annotations ?? {}) };
  const carried: Partial<Record<keyof typeof CARRIED, unknown>> = {};
  for (const [field, annotation] of Object.entries(CARRIED) as Array<[keyof typeof CARRIED, string]>) {
    const text = annotations[annotation];
    if (text === undefined) continue;
    delete annotations[annotation];
    try {
      carried[field] = JSON.parse(text);
    } catch {
      // Not ours to read (set by hand): dropped, as Kubernetes drops an annotation it cannot parse.
    }
  }
  const metadata: KubeObject['metadata'] = { ...v1.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete metadata.annotations;
  return { metadata, carried };
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A v1 object as v2: its CPU target and what the annotations carried. */
export function hpaV1ToV2(v1: KubeObject): KubeObject {
  const spec = asObj(v1['spec']);
  const { metadata, carried } = takeCarried(v1);
  const target = spec['targetCPUUtilizationPercentage'];
  const metrics = [...(typeof target === 'number' ? [cpuMetric(target)] : []), ...list(carried.metrics)];
  const v2Spec: Obj = {
    scaleTargetRef: spec['scaleTargetRef'],
    ...(spec['minReplicas'] === undefined ? {} : { minReplicas: spec['minReplicas'] }),
    maxReplicas: spec['maxReplicas'],
    metrics: metrics.length ? metrics : [cpuMetric(DEFAULT_CPU_UTILIZATION)],
    ...(carried.behavior === undefined ? {} : { behavior: carried.behavior }),
  };
  const out: KubeObject = { ...v1, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata, spec: v2Spec };
  if (v1['status'] !== undefined) {
    const status = asObj(v1['status']);
    const current = status['currentCPUUtilizationPercentage'];
    const currentMetrics = [
      ...(typeof current === 'number' ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }] : []),
      ...list(carried.currentMetrics),
    ];
    out['status'] = {
      ...(status['observedGeneration'] === undefined ? {} : { observedGeneration: status['observedGeneration'] }),
      ...(status['lastScaleTime'] === undefined ? {} : { lastScaleTime: status['lastScaleTime'] }),
      currentReplicas: status['currentReplicas'] ?? 0,
      desiredReplicas: status['desiredReplicas'] ?? 0,
      ...(currentMetrics.length ? { currentMetrics } : {}),
      ...(carried.conditions === undefined ? {} : { conditions: carried.conditions }),
    };
  }
  return out;
}

/** A v2 object as v1: its CPU utilization metric as v1's target, the rest in the carried annotations. */
export function hpaV2ToV1(v2: KubeObject): KubeObject {
  const spec = asObj(v2['spec']);
  const status = asObj(v2['status']);
  const metrics = list(spec['metrics']);
  const cpu = metrics.find(isCpuUtilization);
  const target = cpu === undefined ? undefined : asObj(asObj(asObj(cpu)['resource'])['target'])['averageUtilization'];
  const currentMetrics = list(status['currentMetrics']);
  const currentCpu = currentMetrics.find(isCpuResource);
  const currentUtilization = currentCpu === undefined ? undefined : asObj(asObj(asObj(currentCpu)['resource'])['current'])['averageUtilization'];
  const annotations: Record<string, string> = { ...(v2.metadata.annotations ?? {}) };
  const carry = (annotation: string, value: unknown) => {
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) annotations[annotation] = JSON.stringify(value);
  };
  carry(
    CARRIED.metrics,
    metrics.filter((m) => m !== cpu),
  );
  carry(CARRIED.behavior, spec['behavior']);
  carry(
    CARRIED.currentMetrics,
    currentMetrics.filter((m) => m !== currentCpu),
  );
  carry(CARRIED.conditions, status['conditions']);
  const metadata: KubeObject['metadata'] = { ...v2.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  return {
    ...v2,
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata,
    spec: {
      scaleTargetRef: spec['scaleTargetRef'],
      ...(spec['minReplicas'] === undefined ? {} : { minReplicas: spec['minReplicas'] }),
      maxReplicas: spec['maxReplicas'],
      ...(typeof target === 'number' ? { targetCPUUtilizationPercentage: target } : {}),
    },
    status: {
      ...(status['observedGeneration'] === undefined ? {} : { observedGeneration: status['observedGeneration'] }),
      ...(status['lastScaleTime'] === undefined ? {} : { lastScaleTime: status['lastScaleTime'] }),
      currentReplicas: status['currentReplicas'] ?? 0,
      desiredReplicas: status['desiredReplicas'] ?? 0,
      ...(typeof currentUtilization === 'number' ? { currentCPUUtilizationPercentage: currentUtilization } : {}),
    },
  };
}
