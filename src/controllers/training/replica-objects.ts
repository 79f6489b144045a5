// The pod and the headless Service of one replica, as Kubeflow's ReconcilePods/ReconcileServices
// build them: `<job>-<type>-<index>`, the training.kubeflow.org labels, the job as controlling
// owner, the replica's restart policy over the template's, the gang's pod-group label and
// priority class, the framework's cluster env, and on the host network the replica's own port.
import type { OwnerReference } from '../../api/meta.js';
import { newControllerRef } from '../../api/owner-references.js';
import { POD_GROUP_LABEL } from '../../api/schemas/scheduling.js';
import type { KubeObject } from '../../api/meta.js';
import type { FrameworkController } from './framework.js';
import { replicaLabels, replicaName } from './names.js';
import { hostPortOf, replicaPort } from './ports.js';
import { LABEL_JOB_ROLE, type ReplicaSpec, type TrainingJob } from './types.js';
import type { Pod, PodTemplateSpec, RestartPolicy } from '../../api/core/index.js';

export function jobOwnerRef(fc: FrameworkController, job: Readonly<TrainingJob>): OwnerReference {
  return newControllerRef(job, { apiVersion: 'kubeflow.org/v1', kind: fc.framework.kind });
}

/**
 * The pod's restartPolicy: the replica's, with ExitCode run as Never (the controller decides by
 * exit code), and Never under restartScope Gang (a failed member restarts the whole gang, so no
 * member may restart alone in place).
 */
export function podRestartPolicy(job: Readonly<TrainingJob>, spec: Readonly<ReplicaSpec>, fc: FrameworkController): RestartPolicy {
  const policy = spec.restartPolicy ?? fc.framework.defaultRestartPolicy;
  if (policy === 'ExitCode' || job.spec.runPolicy?.restartScope === 'Gang') return 'Never';
  return policy;
}

function roleLabels(fc: FrameworkController, job: Readonly<TrainingJob>, type: string, index: number): Record<string, string> {
  return { ...replicaLabels(fc.framework, job, type, index), ...(fc.isMasterRole(job, type) ? { [LABEL_JOB_ROLE]: 'master' } : {}) };
}

/** Declares the replica's host port (containerPort = hostPort) on the framework's container. */
function declareHostPort(fc: FrameworkController, template: PodTemplateSpec, port: number): void {
  const container = template.spec?.containers?.find((c) => c.name === fc.framework.containerName);
  if (!container) return;
  const ports = (container.ports ?? []).filter((p) => p.name !== fc.framework.portName);
  container.ports = [...ports, { name: fc.framework.portName, containerPort: port, hostPort: port, protocol: 'TCP' }];
}

export interface NewPod {
  pod: Pod;
  /** The template's own restartPolicy, when the replica's overwrote a different one. */
  overwrotePolicy?: string;
}

export function newReplicaPod(fc: FrameworkController, job: Readonly<TrainingJob>, type: string, index: number, spec: Readonly<ReplicaSpec>): NewPod {
  const template: PodTemplateSpec = structuredClone(spec.template ?? {});
  const podSpec = (template.spec ??= { containers: [] });
  const restartPolicy = podRestartPolicy(job, spec, fc);
  const overwrote = podSpec.restartPolicy !== undefined && podSpec.restartPolicy !== restartPolicy ? podSpec.restartPolicy : undefined;
  podSpec.restartPolicy = restartPolicy;
  const priorityClass = job.spec.runPolicy?.schedulingPolicy?.priorityClass;
  if (priorityClass && !podSpec.priorityClassName) podSpec.priorityClassName = priorityClass;
  const hostPort = hostPortOf(fc.framework, job, type, index);
  if (hostPort !== undefined) declareHostPort(fc, template, hostPort);
  fc.setClusterSpec(job, template, type, index);
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: replicaName(job.metadata.name!, type, index),
      namespace: job.metadata.namespace!,
      labels: { ...template.metadata?.labels, ...roleLabels(fc, job, type, index), [POD_GROUP_LABEL]: job.metadata.name! },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [jobOwnerRef(fc, job)],
    },
    spec: podSpec,
  };
  return overwrote === undefined ? { pod } : { pod, overwrotePolicy: overwrote };
}

export function newReplicaService(fc: FrameworkController, job: Readonly<TrainingJob>, type: string, index: number): KubeObject {
  const port = replicaPort(fc.framework, job, type, index);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: replicaName(job.metadata.name!, type, index),
      namespace: job.metadata.namespace!,
      labels: roleLabels(fc, job, type, index),
      ownerReferences: [jobOwnerRef(fc, job)],
    },
    spec: {
      clusterIP: 'None',
      selector: replicaLabels(fc.framework, job, type, index),
      ports: [{ name: fc.framework.portName, port, targetPort: port, protocol: 'TCP' }],
    },
  };
}
