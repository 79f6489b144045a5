// autoscaling/v1 ⇄ autoscaling/v2 HorizontalPodAutoscaler. v2 is stored; v1 is what kubectl
// autoscale (v1.32) posts, and Kubernetes still serves it. v1 holds only a CPU utilization
// target, so as in Kubernetes' conversion: v1's target is v2's cpu Resource metric with type
// Utilization (80% when unset), and v2 reads back as v1 through that metric's figures. What v1
// cannot express (other metrics, behavior) is kept in v2 when a v1 client updates: an update
// through v1 changes only v1's fields.
import { isObject, type KubeObject } from '../meta.js';
import { DEFAULT_CPU_UTILIZATION } from '../defaults/hpa-defaults.js';

type Obj = Record<string, unknown>;

const asObj = (value: unknown): Obj => (isObject(value) ? value : {});

function isCpuUtilization(metric: unknown): boolean {
  const resource = asObj(asObj(metric)['resource']);
  return asObj(metric)['type'] === 'Resource' && resource['name'] === 'cpu' && asObj(resource['target'])['type'] === 'Utilization';
}

function cpuMetric(percent: number): Obj {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } } };
}

/** A v1 object as v2; `stored` is the v2 object it replaces, whose other metrics and behavior stay. */
export function hpaV1ToV2(v1: KubeObject, stored?: KubeObject): KubeObject {
  const spec = asObj(v1['spec']);
  const oldSpec = asObj(stored?.['spec']);
  const target = typeof spec['targetCPUUtilizationPercentage'] === 'number' ? spec['targetCPUUtilizationPercentage'] : DEFAULT_CPU_UTILIZATION;
  const others = (Array.isArray(oldSpec['metrics']) ? oldSpec['metrics'] : []).filter((m) => !isCpuUtilization(m));
  const v2Spec: Obj = {
    scaleTargetRef: spec['scaleTargetRef'],
    ...(spec['minReplicas'] === undefined ? {} : { minReplicas: spec['minReplicas'] }),
    maxReplicas: spec['maxReplicas'],
    metrics: [cpuMetric(target), ...others],
    ...(oldSpec['behavior'] === undefined ? {} : { behavior: oldSpec['behavior'] }),
  };
  const status = asObj(v1['status']);
  const out: KubeObject = { ...v1, apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: v2Spec };
  if (v1['status'] !== undefined) {
    const current = status['currentCPUUtilizationPercentage'];
    out['status'] = {
      ...(status['observedGeneration'] === undefined ? {} : { observedGeneration: status['observedGeneration'] }),
      ...(status['lastScaleTime'] === undefined ? {} : { lastScaleTime: status['lastScaleTime'] }),
      currentReplicas: status['currentReplicas'] ?? 0,
      desiredReplicas: status['desiredReplicas'] ?? 0,
      ...(typeof current === 'number' ? { currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }] } : {}),
    };
  }
  return out;
}

export function hpaV2ToV1(v2: KubeObject): KubeObject {
  const spec = asObj(v2['spec']);
  const status = asObj(v2['status']);
  const metrics = Array.isArray(spec['metrics']) ? spec['metrics'] : [];
  const cpu = metrics.find(isCpuUtilization);
  const target = cpu === undefined ? undefined : asObj(asObj(asObj(cpu)['resource'])['target'])['averageUtilization'];
  const currentCpu = (Array.isArray(status['currentMetrics']) ? status['currentMetrics'] : [])
    .map((m) => asObj(m))
    .find((m) => m['type'] === 'Resource' && asObj(m['resource'])['name'] === 'cpu');
  const currentUtilization = currentCpu ? asObj(asObj(currentCpu['resource'])['current'])['averageUtilization'] : undefined;
  const out: KubeObject = {
    ...v2, apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler',
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
  return out;
}
