// How each workload kind reads in the list: which pods are its own, its status word, ready/desired.
import { PATHS } from '../api/resources';
import type { KubeObject } from '../api/types';

export interface WorkloadKind {
  kind: string;
  title: string;
  path: string;
  /** The label selector of its pods (matchLabels / matchExpressions). */
  podSelector(object: KubeObject): unknown;
  status(object: KubeObject): string;
  ready(object: KubeObject): string;
  scalable: boolean;
  restartable: boolean;
}

type Condition = { type: string; status: string; reason?: string };

function conditions(object: KubeObject): Condition[] {
  return object.status?.conditions ?? [];
}

/** The newest condition that holds (training jobs: Created → Running → Succeeded/Failed). */
function latestTrue(object: KubeObject, fallback: string): string {
  const held = conditions(object).filter((c) => c.status === 'True');
  return held[held.length - 1]?.type ?? fallback;
}

function trainingKind(kind: string, title: string, path: string, specsField: string): WorkloadKind {
  return {
    kind,
    title,
    path,
    scalable: false,
    restartable: false,
    podSelector: (o) => ({ matchLabels: { 'training.kubeflow.org/job-name': o.metadata.name } }),
    status: (o) => latestTrue(o, 'Pending'),
    ready: (o) => {
      const specs: Record<string, { replicas?: number }> = o.spec?.[specsField] ?? {};
      const desired = Object.values(specs).reduce((s, r) => s + (r.replicas ?? 1), 0);
      const statuses: Record<string, { active?: number }> = o.status?.replicaStatuses ?? {};
      const active = Object.values(statuses).reduce((s, r) => s + (r.active ?? 0), 0);
      return `${active}/${desired}`;
    },
  };
}

export const KINDS: WorkloadKind[] = [
  {
    kind: 'Deployment',
    title: 'Deployments',
    path: PATHS.deployments,
    scalable: true,
    restartable: true,
    podSelector: (o) => o.spec?.selector,
    status: (o) => {
      const progressing = conditions(o).find((c) => c.type === 'Progressing');
      const available = conditions(o).find((c) => c.type === 'Available');
      if (progressing?.status === 'False') return progressing.reason ?? 'Stalled';
      if ((o.status?.updatedReplicas ?? 0) < (o.spec?.replicas ?? 0) || (o.status?.replicas ?? 0) > (o.spec?.replicas ?? 0)) return 'Progressing';
      return available?.status === 'True' ? 'Available' : 'Unavailable';
    },
    ready: (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
  },
  {
    kind: 'DaemonSet',
    title: 'DaemonSets',
    path: PATHS.daemonsets,
    scalable: false,
    restartable: true,
    podSelector: (o) => o.spec?.selector,
    status: (o) => ((o.status?.numberReady ?? 0) === (o.status?.desiredNumberScheduled ?? 0) ? 'Ready' : 'Progressing'),
    ready: (o) => `${o.status?.numberReady ?? 0}/${o.status?.desiredNumberScheduled ?? 0}`,
  },
  {
    kind: 'Job',
    title: 'Jobs',
    path: PATHS.jobs,
    scalable: false,
    restartable: false,
    podSelector: (o) => o.spec?.selector ?? { matchLabels: { 'batch.kubernetes.io/job-name': o.metadata.name } },
    status: (o) => {
      const done = conditions(o).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
      if (done) return done.type;
      return o.spec?.suspend ? 'Suspended' : 'Running';
    },
    ready: (o) => `${o.status?.succeeded ?? 0}/${o.spec?.completions ?? 1}`,
  },
  trainingKind('PyTorchJob', 'PyTorchJobs', PATHS.pytorchjobs, 'pytorchReplicaSpecs'),
  trainingKind('TFJob', 'TFJobs', PATHS.tfjobs, 'tfReplicaSpecs'),
  {
    kind: 'PodGroup',
    title: 'PodGroups',
    path: PATHS.podgroups,
    scalable: false,
    restartable: false,
    podSelector: (o) => ({ matchLabels: { 'scheduling.x-k8s.io/pod-group': o.metadata.name } }),
    status: (o) => String(o.status?.phase ?? 'Pending'),
    ready: (o) => `${o.status?.running ?? 0}/${o.spec?.minMember ?? 0}`,
  },
];
