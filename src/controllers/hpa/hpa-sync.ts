// One pass of the HPA controller over one autoscaler (Kubernetes' reconcileAutoscaler): read the
// target's scale, propose replicas from the metrics, stabilize and rate-limit by the behavior,
// rescale through the scale subresource, and write status with its conditions and events.
import { groupVersionPath, parseApiVersion } from '../../api/group-version.js';
import { findByKind } from '../../api/registry.js';
import { parseLabelSelector } from '../../api/selectors/index.js';
import type { KubeObject } from '../../api/meta.js';
import type { ApiClient, EventRecorder } from '../../client/index.js';
import { resources } from '../../client/index.js';
import { completeRules, defaultScaleDownRules, defaultScaleUpRules } from '../../api/defaults/hpa-defaults.js';
import { normalize, recordScale, type Behavior, type ScalingRecord } from './behavior.js';
import { computeMetricReplicas } from './metric-replicas.js';
import { fetchPodMetrics } from './pod-metrics.js';
import type { Hpa, HpaCondition, HpaStatus, Scale } from './types.js';
import { jsonEqual } from '../../util/json-equal.js';

export interface SyncDeps {
  api: ApiClient;
  recorder: EventRecorder;
  /** The pods of a namespace, from the shared informer. */
  podsIn(namespace: string): readonly Readonly<KubeObject>[];
  record(uid: string): ScalingRecord;
  now(): number;
}

/** The behavior the controller applies: the spec's, completed with the defaults (also when none is given). */
export function behaviorOf(hpa: Hpa): Behavior {
  const given = hpa.spec.behavior ?? {};
  return {
    scaleUp: completeRules(given['scaleUp'], defaultScaleUpRules()) as unknown as Behavior['scaleUp'],
    scaleDown: completeRules(given['scaleDown'], defaultScaleDownRules()) as unknown as Behavior['scaleDown'],
  };
}

function setCondition(status: HpaStatus, type: HpaCondition['type'], value: boolean, reason: string, message: string, now: string): void {
  const conditions = (status.conditions ??= []);
  const wanted = value ? 'True' : 'False';
  const existing = conditions.find((c) => c.type === type);
  if (existing) {
    if (existing.status !== wanted) existing.lastTransitionTime = now;
    Object.assign(existing, { status: wanted, reason, message });
  } else {
    conditions.push({ type, status: wanted, lastTransitionTime: now, reason, message });
  }
}

/** The target's scale subresource path, from its apiVersion and kind. */
function scalePath(hpa: Hpa): string {
  const ref = hpa.spec.scaleTargetRef;
  const { group, version } = parseApiVersion(ref.apiVersion ?? 'v1');
  const def = findByKind(group, version, ref.kind);
  if (!def) throw new Error(`no matches for kind "${ref.kind}" in group "${group}"`);
  if (!def.subresources.scale) throw new Error(`${ref.kind} has no scale subresource`);
  return `${groupVersionPath({ group, version })}/namespaces/${encodeURIComponent(hpa.metadata.namespace ?? '')}/${def.plural}/${encodeURIComponent(ref.name)}/scale`;
}

/**
 * The replicas the metrics ask for, stabilized and rate-limited by the behavior, with the
 * ScalingActive, AbleToScale and ScalingLimited conditions set; undefined (and ScalingActive
 * False, events recorded) when no metric could be read.
 */
async function proposeReplicas(
  deps: SyncDeps,
  hpa: Hpa,
  scale: Scale,
  status: HpaStatus,
  replicas: { current: number; min: number; max: number },
  nowMs: number,
): Promise<{ desired: number; rescaleReason: string } | undefined> {
  const now = new Date(nowMs).toISOString().replace(/\.\d+Z$/, 'Z');
  const { current, min, max } = replicas;
  const selectorText = scale.status?.selector ?? '';
  const selector = parseLabelSelector(selectorText);
  const pods = deps.podsIn(hpa.metadata.namespace ?? '').filter((pod) => selector.matches(pod.metadata.labels));
  const podMetrics = await fetchPodMetrics(deps.api, hpa.metadata.namespace ?? '', selectorText).catch((error: unknown) => error as Error);
  const outcome = computeMetricReplicas(hpa.spec.metrics ?? [], current, pods, podMetrics, nowMs);
  status.currentMetrics = outcome.statuses;
  for (const error of outcome.errors) await deps.recorder.record(hpa, 'Warning', error.reason, error.message);
  if (outcome.errors.length === (hpa.spec.metrics ?? []).length) {
    const first = outcome.errors[0];
    setCondition(
      status,
      'ScalingActive',
      false,
      first?.reason ?? 'FailedGetResourceMetric',
      `the HPA was unable to compute the replica count: ${first?.message ?? 'no metrics'}`,
      now,
    );
    await deps.recorder.record(
      hpa,
      'Warning',
      'FailedComputeMetricsReplicas',
      `invalid metrics (${outcome.errors.length} invalid out of ${outcome.errors.length}), first error is: ${first?.message ?? ''}`,
    );
    return undefined;
  }
  setCondition(status, 'ScalingActive', true, 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${outcome.metricName}`, now);
  // With some metrics unreadable, never scale down: the unread one might want more.
  const proposal = outcome.errors.length > 0 && outcome.replicas < current ? current : outcome.replicas;
  const normalized = normalize(deps.record(hpa.metadata.uid ?? ''), behaviorOf(hpa), { min, max }, current, proposal, nowMs);
  if (normalized.stabilized) setCondition(status, 'AbleToScale', true, normalized.stabilized.reason, normalized.stabilized.message, now);
  else setCondition(status, 'AbleToScale', true, 'ReadyForNewScale', 'recommended size matches current size', now);
  setCondition(status, 'ScalingLimited', normalized.limited, normalized.reason, normalized.message, now);
  const desired = normalized.replicas;
  return { desired, rescaleReason: desired > current ? `${outcome.metricName} above target` : 'All metrics below target' };
}

async function writeStatus(deps: SyncDeps, hpa: Hpa, status: HpaStatus): Promise<void> {
  if (jsonEqual(status, hpa.status ?? {})) return;
  await deps.api.resource<Hpa>(resources.horizontalpodautoscalers, hpa.metadata.namespace).updateStatus({ ...hpa, status });
}

export async function syncHpa(deps: SyncDeps, hpa: Hpa): Promise<void> {
  const nowMs = deps.now();
  const now = new Date(nowMs).toISOString().replace(/\.\d+Z$/, 'Z');
  const status: HpaStatus = structuredClone(hpa.status ?? { desiredReplicas: 0 });
  if (hpa.metadata.generation !== undefined) status.observedGeneration = hpa.metadata.generation;
  const reference = `${hpa.spec.scaleTargetRef.kind}/${hpa.spec.scaleTargetRef.name}`;
  let path: string;
  let scale: Scale;
  try {
    path = scalePath(hpa);
    scale = await deps.api.request<Scale>('GET', path);
  } catch (error) {
    const message = `the HPA controller was unable to get the target's current scale: ${(error as Error).message}`;
    setCondition(status, 'AbleToScale', false, 'FailedGetScale', message, now);
    await deps.recorder.record(hpa, 'Warning', 'FailedGetScale', `${(error as Error).message} (${reference})`);
    return writeStatus(deps, hpa, status);
  }
  setCondition(status, 'AbleToScale', true, 'SucceededGetScale', "the HPA controller was able to get the target's current scale", now);
  const current = scale.spec?.replicas ?? 0;
  const min = hpa.spec.minReplicas ?? 1;
  const max = hpa.spec.maxReplicas;
  status.currentReplicas = current;
  let desired: number;
  let rescaleReason = '';
  if (current === 0 && min !== 0) {
    desired = 0;
    setCondition(status, 'ScalingActive', false, 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', now);
  } else if (current > max) {
    desired = max;
    rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
  } else if (current < min) {
    desired = min;
    rescaleReason = 'Current number of replicas below Spec.MinReplicas';
  } else {
    const proposed = await proposeReplicas(deps, hpa, scale, status, { current, min, max }, nowMs);
    if (!proposed) return writeStatus(deps, hpa, { ...status, desiredReplicas: current });
    ({ desired, rescaleReason } = proposed);
  }
  if (desired !== current) {
    try {
      await deps.api.request('PUT', path, {
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: hpa.spec.scaleTargetRef.name, namespace: hpa.metadata.namespace },
          spec: { replicas: desired },
        },
      });
    } catch (error) {
      setCondition(
        status,
        'AbleToScale',
        false,
        'FailedUpdateScale',
        `the HPA controller was unable to update the target scale: ${(error as Error).message}`,
        now,
      );
      await deps.recorder.record(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${rescaleReason}; error: ${(error as Error).message}`);
      return writeStatus(deps, hpa, { ...status, desiredReplicas: desired });
    }
    setCondition(status, 'AbleToScale', true, 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`, now);
    await deps.recorder.record(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${rescaleReason}`);
    recordScale(deps.record(hpa.metadata.uid ?? ''), behaviorOf(hpa), current, desired, nowMs);
    status.lastScaleTime = now;
  }
  status.desiredReplicas = desired;
  await writeStatus(deps, hpa, status);
}
