// The job's scheduling.x-k8s.io PodGroup (what Kubeflow makes for coscheduling): named after the
// job, owned by it, minMember = schedulingPolicy.minAvailable or every replica, minResources and
// scheduleTimeoutSeconds from the policy. This controller owns its metadata and spec only; the
// scheduler writes its status. It goes when the job ends or is suspended (and with the job, by
// the garbage collector).
import type { KubeObject } from '../../api/meta.js';
import { isAlreadyExists, isNotFound, resources, type ApiClient } from '../../client/index.js';
import type { FrameworkController } from './framework.js';
import { jobLabels, totalReplicas } from './names.js';
import { jobOwnerRef } from './replica-objects.js';
import type { TrainingJob } from './types.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { PodGroupSpec } from '../../api/scheduling/pod-group.js';

export function desiredPodGroupSpec(fc: FrameworkController, job: Readonly<TrainingJob>): PodGroupSpec {
  const policy = job.spec.runPolicy?.schedulingPolicy ?? {};
  const spec: PodGroupSpec = { minMember: policy.minAvailable ?? totalReplicas(fc.framework, job) };
  if (policy.minResources && Object.keys(policy.minResources).length > 0) spec.minResources = { ...policy.minResources };
  if (policy.scheduleTimeoutSeconds !== undefined) spec.scheduleTimeoutSeconds = policy.scheduleTimeoutSeconds;
  return spec;
}

function sameSpec(a: Readonly<PodGroupSpec>, b: unknown): boolean {
  const o = (b ?? {}) as Record<string, unknown>;
  return (
    a.minMember === o['minMember'] &&
    jsonEqual(a.minResources ?? null, o['minResources'] ?? null) &&
    (a.scheduleTimeoutSeconds ?? null) === (o['scheduleTimeoutSeconds'] ?? null)
  );
}

/** Creates the PodGroup, or brings its spec in line with the job's policy; true when it wrote. */
export async function ensurePodGroup(
  api: ApiClient,
  fc: FrameworkController,
  job: Readonly<TrainingJob>,
  current: Readonly<KubeObject> | undefined,
): Promise<boolean> {
  const spec = desiredPodGroupSpec(fc, job);
  const client = api.resource(resources.podgroups, job.metadata.namespace);
  if (current && current.metadata.ownerReferences?.some((r) => r.uid === job.metadata.uid)) {
    if (sameSpec(spec, current['spec'])) return false;
    // A merge patch of the spec alone: the status is the scheduler's.
    await client.patch(job.metadata.name!, 'merge', { spec: { minResources: null, scheduleTimeoutSeconds: null, ...spec } });
    return true;
  }
  if (current) return false; // someone else's group of that name: leave it
  try {
    await client.create({
      apiVersion: 'scheduling.x-k8s.io/v1alpha1',
      kind: 'PodGroup',
      metadata: { name: job.metadata.name!, namespace: job.metadata.namespace!, labels: jobLabels(fc.framework, job), ownerReferences: [jobOwnerRef(fc, job)] },
      spec,
    });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  return true;
}

export async function deletePodGroup(api: ApiClient, job: Readonly<TrainingJob>, current: Readonly<KubeObject> | undefined): Promise<void> {
  if (!current || current.metadata.deletionTimestamp || !current.metadata.ownerReferences?.some((r) => r.uid === job.metadata.uid)) return;
  try {
    await api.resource(resources.podgroups, job.metadata.namespace).delete(current.metadata.name!, { preconditions: { uid: current.metadata.uid! } });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
