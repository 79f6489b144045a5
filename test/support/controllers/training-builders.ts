// Builders of training jobs and their pods for the training controller's unit tests
// (src/controllers/training/).
import { LABEL_REPLICA_INDEX, LABEL_REPLICA_TYPE, type ReplicaSpec, type TrainingJob } from '../../../src/controllers/training/types.js';
import type { PodFacts } from '../../../src/controllers/training/decide.js';
import type { Pod, PodPhase } from '../../../src/api/core/index.js';

export function replica(container: string, extra: Partial<ReplicaSpec> = {}, podSpec: Record<string, unknown> = {}): ReplicaSpec {
  return { replicas: 1, template: { spec: { containers: [{ name: container, image: 'busybox' }], ...podSpec } }, ...extra };
}

export function pytorchJob(spec: Partial<TrainingJob['spec']> = {}, status: TrainingJob['status'] = {}): TrainingJob {
  return {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'mnist', namespace: 'ml', uid: 'job-uid-1' },
    spec: {
      pytorchReplicaSpecs: {
        Master: replica('pytorch', { restartPolicy: 'OnFailure' }),
        Worker: replica('pytorch', { replicas: 3, restartPolicy: 'OnFailure' }),
      },
      ...spec,
    },
    status: { startTime: new Date(1_000_000).toISOString(), ...status },
  };
}

export function tfJob(spec: Partial<TrainingJob['spec']> = {}): TrainingJob {
  return {
    apiVersion: 'kubeflow.org/v1',
    kind: 'TFJob',
    metadata: { name: 'dist', namespace: 'ml', uid: 'job-uid-2' },
    spec: { tfReplicaSpecs: { Chief: replica('tensorflow'), PS: replica('tensorflow'), Worker: replica('tensorflow', { replicas: 2 }) }, ...spec },
    status: { startTime: new Date(1_000_000).toISOString() },
  };
}

let serial = 0;

export interface PodOptions {
  phase?: PodPhase;
  exitCode?: number;
  container?: string;
  restarts?: number;
  newRestarts?: number;
  deleting?: boolean;
}

export function replicaPod(type: string, index: number, options: PodOptions = {}): PodFacts {
  serial++;
  const terminated = options.exitCode === undefined ? {} : { state: { terminated: { exitCode: options.exitCode } } };
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `mnist-${type.toLowerCase()}-${index}`,
      namespace: 'ml',
      uid: `pod-${serial}`,
      labels: { [LABEL_REPLICA_TYPE]: type.toLowerCase(), [LABEL_REPLICA_INDEX]: String(index) },
      ...(options.deleting ? { deletionTimestamp: new Date().toISOString() } : {}),
    },
    spec: { containers: [] },
    status: {
      phase: options.phase ?? 'Running',
      containerStatuses: [
        {
          name: options.container ?? 'pytorch',
          ready: false,
          restartCount: options.restarts ?? 0,
          image: 'i',
          imageID: '',
          state: {},
          lastState: {},
          ...terminated,
        },
      ],
    },
  };
  return { pod, type, index, newRestarts: options.newRestarts ?? 0, failureCounted: false };
}

/** Every replica of a PyTorchJob of 1 master and 3 workers, running, with some replaced. */
export function pytorchPods(...replaced: PodFacts[]): PodFacts[] {
  const all = [replicaPod('Master', 0), replicaPod('Worker', 0), replicaPod('Worker', 1), replicaPod('Worker', 2)];
  return all.map((p) => replaced.find((r) => r.type === p.type && r.index === p.index) ?? p);
}
