// What check (d) asks of bench:gpu's PyTorchJob run: it Succeeded; the controller made its gang
// (a PodGroup of both replicas, each pod labelled into it); the master saw exactly the GPU it was
// given, by UUID, and the worker none (or, on a node of 2+ GPUs, one of its own); and the training
// really was shared: the same loss on both ranks, lower than before, with weights in step.
import { POD_GROUP_LABEL } from '../src/api/schemas/scheduling.js';
import type { ReplicaReport } from './gpu-train-program.js';
import type { ReplicaRun, TrainingRun } from './gpu-training.js';

/**
 * Weights in step: every rank applied the same mean gradient, so they differ from rank 0's by
 * float rounding at most (cuda and cpu may round a step apart); gradients of each rank's own
 * data alone would set them apart by orders of magnitude more.
 */
const MAX_WEIGHT_DRIFT = 1e-5;

export interface TrainingVerdict {
  problems: string[];
  /** Why the training itself could not be judged: the dry run's stand-in python3 said so. */
  skipped?: string;
}

function devicesOf(r: ReplicaReport): string {
  return `rank ${r.rank} on ${r.device}: torch.cuda.device_count()=${r.deviceCount}, CUDA_VISIBLE_DEVICES=${JSON.stringify(r.cudaVisibleDevices)}, NVIDIA_VISIBLE_DEVICES=${JSON.stringify(r.nvidiaVisibleDevices)}`;
}

/** A replica given one GPU: it saw exactly that one, one of the node's by UUID. */
function oneGpuProblems(r: ReplicaReport, uuids: readonly string[]): string[] {
  const cuda = r.cudaVisibleDevices ?? '';
  if (r.deviceCount === 1 && r.device === 'cuda' && uuids.includes(cuda) && r.nvidiaVisibleDevices === cuda) return [];
  return [`${devicesOf(r)}; want 1 device, on cuda, one of nvidia-smi's UUIDs in both variables`];
}

function noGpuProblems(r: ReplicaReport): string[] {
  return r.deviceCount === 0 && r.device === 'cpu' ? [] : [`${devicesOf(r)}; want 0 devices, on cpu`];
}

function gangProblems(run: TrainingRun): string[] {
  const group = run.podGroup;
  if (!group) return [`no PodGroup ${run.name} was seen while the job ran`];
  const problems: string[] = [];
  const minMember = (group['spec'] as { minMember?: number } | undefined)?.minMember;
  if (minMember !== run.replicas.length) problems.push(`PodGroup minMember ${minMember}, want ${run.replicas.length} (every replica)`);
  if (!group.metadata.ownerReferences?.some((o) => o.kind === 'PyTorchJob' && o.name === run.name))
    problems.push(`PodGroup not owned by PyTorchJob ${run.name}`);
  for (const r of run.replicas)
    if (r.labels[POD_GROUP_LABEL] !== run.name) problems.push(`pod ${r.pod} has ${POD_GROUP_LABEL}=${r.labels[POD_GROUP_LABEL] ?? '(none)'}`);
  return problems;
}

function trainingProblems(master: ReplicaReport, worker: ReplicaReport): string[] {
  const problems: string[] = [];
  if (!Number.isFinite(master.loss) || master.loss !== worker.loss) problems.push(`final losses differ: rank 0 ${master.loss}, rank 1 ${worker.loss}`);
  if (!(master.loss! < master.firstLoss!)) problems.push(`the loss did not fall: ${master.firstLoss} → ${master.loss}`);
  for (const r of [master, worker])
    if (!(r.weightDrift! <= MAX_WEIGHT_DRIFT)) problems.push(`rank ${r.rank}'s weights are ${r.weightDrift} from rank 0's (want ≤ ${MAX_WEIGHT_DRIFT})`);
  return problems;
}

export function judgeTraining(run: TrainingRun, uuids: readonly string[], workerGpus: number): TrainingVerdict {
  const problems: string[] = [];
  if (run.finished !== 'Succeeded') problems.push(`the job ended ${run.finished ?? 'not in time'}`);
  problems.push(...gangProblems(run));
  const report = (type: ReplicaRun['type']) => run.replicas.find((r) => r.type === type)?.report;
  const [master, worker] = [report('Master'), report('Worker')];
  if (!master || !worker) return { problems: [...problems, `no JSON line from the ${master ? 'worker' : 'master'} in its log`] };
  const world = run.replicas.length;
  if (master.rank !== 0 || worker.rank !== 1 || master.worldSize !== world || worker.worldSize !== world)
    problems.push(`ranks ${master.rank} and ${worker.rank} of ${master.worldSize}/${worker.worldSize}, want 0 and 1 of ${world}`);
  problems.push(...oneGpuProblems(master, uuids));
  if (workerGpus === 0) problems.push(...noGpuProblems(worker));
  else {
    problems.push(...oneGpuProblems(worker, uuids));
    if (master.cudaVisibleDevices === worker.cudaVisibleDevices) problems.push(`both ranks were given ${master.cudaVisibleDevices}`);
  }
  const standIn = master.standIn ?? worker.standIn;
  if (standIn) return { problems, skipped: standIn };
  return { problems: [...problems, ...trainingProblems(master, worker)] };
}
