// TFJob (Kubeflow's tensorflow/tensorflow.go, status.go): the `tensorflow` container of every
// replica gets TF_CONFIG, the whole cluster (every replica's `<svc>.<ns>.svc:<port>`, evaluators
// aside) and its own task; with enableDynamicWorker the sparse form, where a worker sees only
// itself. Success: the Chief (or Master) succeeds, or worker 0 when there is neither; with
// successPolicy AllWorkers, every worker. With enableDynamicWorker, worker failures are ignored.
import { TENSORFLOW } from '../../api/training-frameworks.js';
import { resources } from '../../client/index.js';
import { leaderOrWorkerRunning, setEnv, type CountsByType, type FrameworkController } from './framework.js';
import { replicaName, replicaSpecsOf, replicasOf, totalReplicas } from './names.js';
import { replicaPort } from './ports.js';
import type { TrainingJob } from './types.js';
import type { PodTemplateSpec } from '../../api/core/index.js';

const LEADERS = ['Chief', 'Master'];

function address(job: Readonly<TrainingJob>, type: string, index: number): string {
  const host = `${replicaName(job.metadata.name!, type, index)}.${job.metadata.namespace ?? 'default'}.svc`;
  return `${host}:${replicaPort(TENSORFLOW, job, type, index)}`;
}

/** TF_CONFIG's value for one replica (exported for tests). */
export function tfConfig(job: Readonly<TrainingJob>, type: string, index: number): string {
  const sparse = job.spec.enableDynamicWorker === true;
  const cluster: Record<string, string[] | Record<string, string>> = {};
  for (const [rtype, spec] of replicaSpecsOf(TENSORFLOW, job)) {
    if (rtype === 'Evaluator') continue; // not part of the training cluster
    const key = rtype.toLowerCase();
    if (sparse && rtype === 'Worker') {
      if (type === 'Worker') cluster[key] = { [String(index)]: address(job, rtype, index) };
      continue;
    }
    cluster[key] = Array.from({ length: replicasOf(spec) }, (_, i) => address(job, rtype, i));
  }
  return JSON.stringify({ cluster, task: { type: type.toLowerCase(), index }, environment: 'cloud' });
}

export const tensorflowController: FrameworkController = {
  framework: TENSORFLOW,
  resource: resources.tfjobs,
  isMasterRole: (_job, type) => LEADERS.includes(type),

  setClusterSpec(job: Readonly<TrainingJob>, template: PodTemplateSpec, type: string, index: number): void {
    // A job of one replica is local: Kubeflow gives it no TF_CONFIG.
    if (totalReplicas(TENSORFLOW, job) <= 1) return;
    const container = template.spec?.containers?.find((c) => c.name === TENSORFLOW.containerName);
    if (container) setEnv(container, [['TF_CONFIG', tfConfig(job, type, index)]]);
  },

  succeeded(job: Readonly<TrainingJob>, counts: CountsByType): boolean {
    const worker = counts['Worker'];
    if (job.spec.successPolicy === 'AllWorkers') return worker !== undefined && worker.expected > 0 && worker.succeeded >= worker.expected;
    const leader = LEADERS.map((t) => counts[t]).find((c) => c !== undefined);
    if (leader) return leader.expected > 0 && leader.succeeded >= leader.expected;
    return worker?.succeededIndexes.has(0) === true;
  },

  ignoresFailures: (job, type) => job.spec.enableDynamicWorker === true && type === 'Worker',
  running: (_job, counts) => leaderOrWorkerRunning(counts, LEADERS),
};
