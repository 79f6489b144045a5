// PyTorchJob (Kubeflow's pytorch/envvar.go, master.go): every container of every replica learns
// the rendezvous (MASTER_ADDR:MASTER_PORT, the master's Service name and port), the world size
// (replicas × nprocPerNode) and its rank (master 0, worker i → i+1), in the torch.distributed
// spelling and torchrun's PET_* one. The job succeeds when the Master succeeds.
import { PYTORCH } from '../../api/training-frameworks.js';
import { resources } from '../../client/index.js';
import { leaderOrWorkerRunning, setEnv, type CountsByType, type FrameworkController } from './framework.js';
import { replicaName, totalReplicas } from './names.js';
import { replicaPort } from './ports.js';
import type { TrainingJob } from './types.js';
import type { PodTemplateSpec } from '../../api/core/index.js';

/** nprocPerNode as a number: `auto`, `cpu`, `gpu` (or nothing usable) count as 1, as in Kubeflow. */
export function nprocPerNode(job: Readonly<TrainingJob>): number {
  const text = job.spec.nprocPerNode ?? '';
  return /^[1-9]\d*$/.test(text) ? Number(text) : 1;
}

function nnodes(job: Readonly<TrainingJob>, total: number): string {
  const elastic = job.spec.elasticPolicy;
  if (elastic?.minReplicas !== undefined && elastic.maxReplicas !== undefined) return `${elastic.minReplicas}:${elastic.maxReplicas}`;
  return String(total);
}

export const pytorchController: FrameworkController = {
  framework: PYTORCH,
  resource: resources.pytorchjobs,
  isMasterRole: (_job, type) => type === 'Master',

  setClusterSpec(job: Readonly<TrainingJob>, template: PodTemplateSpec, type: string, index: number): void {
    const vars: Array<[string, string]> = [['PYTHONUNBUFFERED', '1']];
    const specs = job.spec.pytorchReplicaSpecs as Record<string, unknown> | undefined;
    if (specs?.['Master'] !== undefined) {
      const total = totalReplicas(PYTORCH, job);
      const rank = type === 'Worker' ? index + 1 : index;
      const addr = replicaName(job.metadata.name!, 'Master', 0);
      const port = String(replicaPort(PYTORCH, job, 'Master', 0));
      vars.push(
        ['MASTER_ADDR', addr],
        ['MASTER_PORT', port],
        ['WORLD_SIZE', String(total * nprocPerNode(job))],
        ['RANK', String(rank)],
        ['PET_MASTER_ADDR', addr],
        ['PET_MASTER_PORT', port],
        ['PET_NNODES', nnodes(job, total)],
        ['PET_NODE_RANK', String(rank)],
        ['PET_NPROC_PER_NODE', job.spec.nprocPerNode ?? 'auto'],
      );
    }
    // Kubeflow sets these on every container of the pod, not only on `pytorch`.
    for (const container of template.spec?.containers ?? []) setEnv(container, vars);
  },

  succeeded(_job: Readonly<TrainingJob>, counts: CountsByType): boolean {
    const master = counts['Master'];
    if (master) return master.succeeded >= master.expected && master.expected > 0;
    const worker = counts['Worker'];
    return worker !== undefined && worker.expected > 0 && worker.succeeded >= worker.expected;
  },

  ignoresFailures: () => false,
  running: (_job, counts) => leaderOrWorkerRunning(counts, ['Master']),
};
