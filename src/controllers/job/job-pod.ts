// The pods a Job runs: its template, the Job's labels, the tracking finalizer and, for Indexed
// jobs, the completion index (annotation, label, JOB_COMPLETION_INDEX in every container, and
// the hostname `<job>-<index>`), as the Kubernetes Job controller builds them.
import type { OwnerReference } from '../../api/meta.js';
import { newControllerRef } from '../../api/owner-references.js';
import {
  COMPLETION_INDEX_ANNOTATION,
  COMPLETION_INDEX_ENV,
  COMPLETION_INDEX_LABEL,
  JOB_NAME_LABEL,
  JOB_TRACKING_FINALIZER,
  JOB_UID_LABEL,
  LEGACY_JOB_NAME_LABEL,
  LEGACY_JOB_UID_LABEL,
  type Job,
} from './types.js';
import type { Container, Pod, PodSpec } from '../../api/core/index.js';

export function controllerRef(job: Readonly<Job>): OwnerReference {
  return newControllerRef(job, { apiVersion: 'batch/v1', kind: 'Job' });
}

function withIndexEnv(container: Container): Container {
  const env = (container.env ?? []).filter((e) => e.name !== COMPLETION_INDEX_ENV);
  env.push({ name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } } });
  return { ...container, env };
}

export function newJobPod(job: Readonly<Job>, index: number | undefined): Pod {
  const template = structuredClone(job.spec.template ?? {});
  const name = job.metadata.name!;
  const uid = job.metadata.uid!;
  const labels: Record<string, string> = {
    ...template.metadata?.labels,
    [JOB_UID_LABEL]: uid,
    [JOB_NAME_LABEL]: name,
    [LEGACY_JOB_UID_LABEL]: uid,
    [LEGACY_JOB_NAME_LABEL]: name,
  };
  const annotations: Record<string, string> = { ...template.metadata?.annotations };
  const spec: PodSpec = template.spec ?? { containers: [] };
  if (index !== undefined) {
    annotations[COMPLETION_INDEX_ANNOTATION] = String(index);
    labels[COMPLETION_INDEX_LABEL] = String(index);
    if (spec.hostname === undefined) spec.hostname = `${name}-${index}`;
    if (spec.containers) spec.containers = spec.containers.map(withIndexEnv);
    if (spec.initContainers) spec.initContainers = spec.initContainers.map(withIndexEnv);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: index === undefined ? `${name}-` : `${name}-${index}-`,
      namespace: job.metadata.namespace!,
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [controllerRef(job)],
      finalizers: [JOB_TRACKING_FINALIZER],
    },
    spec,
  };
}
