// bench:gpu's PyTorchJob (check (d)): a Master and one Worker as host processes, created through
// the API and followed to its end by watches on the job and on its PodGroup (which the controller
// deletes when the job ends, so it is caught while it lives). Its replicas' logs come through
// pods/log as the pods' do; the job and its pods are deleted again before the next step.
import type { KubeObject } from '../src/api/meta.js';
import type { Pod } from '../src/api/core/index.js';
import { PYTORCH } from '../src/api/training-frameworks.js';
import { isNotFound, resources, type WatchHandle } from '../src/client/index.js';
import { conditionOf, finishedCondition } from '../src/controllers/training/conditions.js';
import { replicaName } from '../src/controllers/training/names.js';
import type { ReplicaSpec, TrainingJob } from '../src/controllers/training/types.js';
import { waitFor } from '../test/support/wait-for.js';
import type { GpuCluster } from './gpu-cluster.js';
import { GPU, deletePod, hostEnv, podLog } from './gpu-pods.js';
import { TRAIN_PROGRAM, parseReplicaReport, type ReplicaReport } from './gpu-train-program.js';

const NAMESPACE = 'default';
/** As long as a pod's: each replica imports PyTorch, which a cold disk may make slow. */
const JOB_DONE_TIMEOUT_MS = 300_000;
/** A worker may still be printing its line when the master's success ends the job. */
const REPORT_TIMEOUT_MS = 30_000;
const REPLICA_TYPES = ['Master', 'Worker'] as const;

function replica(gpus: number): ReplicaSpec {
  return {
    replicas: 1,
    // A replica that fails fails the job at once: the check reports it rather than a retry.
    restartPolicy: 'Never',
    template: {
      metadata: { labels: { app: 'drover-bench-gpu' } },
      spec: {
        // Host processes: the controller gives the master a host port, and the agent puts the
        // node's address (loopback) into MASTER_ADDR.
        runtimeClassName: 'process',
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: PYTORCH.containerName,
            image: 'drover-bench/host-python3:1',
            command: ['python3', '-c', TRAIN_PROGRAM],
            // gloo's own connections on loopback too, never on an interface the hostname names.
            env: [...hostEnv(), { name: 'GLOO_SOCKET_IFNAME', value: 'lo' }],
            ...(gpus > 0 ? { resources: { limits: { [GPU]: String(gpus) } } } : {}),
          },
        ],
      },
    },
  };
}

/** A Master with one GPU and one Worker with `workerGpus` (0: none asked at all). */
export function trainingJob(name: string, workerGpus: number): TrainingJob {
  return {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name, namespace: NAMESPACE },
    spec: { pytorchReplicaSpecs: { Master: replica(1), Worker: replica(workerGpus) } },
  };
}

export interface ReplicaRun {
  type: (typeof REPLICA_TYPES)[number];
  pod: string;
  labels: Record<string, string>;
  log: string;
  report?: ReplicaReport;
}

export interface TrainingRun {
  name: string;
  createdAtMs: number;
  /** When a watch first saw the Running condition True. */
  runningAtMs?: number;
  finishedAtMs?: number;
  finished?: 'Succeeded' | 'Failed';
  /** The job as last seen. */
  job?: TrainingJob;
  /** The PodGroup as first seen, and its status.phase each time it changed. */
  podGroup?: KubeObject;
  podGroupPhases: string[];
  replicas: ReplicaRun[];
  /** The job's and its pods' status and the agent's last lines, when it did not end in time. */
  problem?: string;
}

/** Creates the job, follows it to Succeeded or Failed, reads its replicas, and deletes it all. */
export async function runTrainingJob(cluster: GpuCluster, job: TrainingJob): Promise<TrainingRun> {
  const name = job.metadata.name!;
  const jobs = cluster.api.resource<TrainingJob>(resources.pytorchjobs, NAMESPACE);
  const groups = cluster.api.resource(resources.podgroups, NAMESPACE);
  const run: TrainingRun = { name, createdAtMs: 0, podGroupPhases: [], replicas: [] };
  const noteJob = (object: TrainingJob) => {
    run.job = object;
    if (run.runningAtMs === undefined && conditionOf(object.status, 'Running')) run.runningAtMs = Date.now();
    const finished = finishedCondition(object);
    if (finished && !run.finished) [run.finished, run.finishedAtMs] = [finished, Date.now()];
  };
  const noteGroup = (group: KubeObject) => {
    run.podGroup ??= group;
    const phase = (group['status'] as { phase?: string } | undefined)?.phase;
    if (phase && run.podGroupPhases.at(-1) !== phase) run.podGroupPhases.push(phase);
  };
  const ended = { job: false, group: false };
  const watches: WatchHandle[] = [
    jobs.watch({ name }, (e) => {
      if (e.type === 'ADDED' || e.type === 'MODIFIED') noteJob(e.object);
    }),
    groups.watch({ name }, (e) => {
      if (e.type === 'ADDED' || e.type === 'MODIFIED') noteGroup(e.object);
    }),
  ];
  void watches[0]!.done.then(() => (ended.job = true));
  void watches[1]!.done.then(() => (ended.group = true));
  await Promise.all(watches.map((w) => w.ready));
  run.createdAtMs = Date.now();
  await jobs.create(job).catch((error: unknown) => {
    for (const watch of watches) watch.stop();
    throw error;
  });
  try {
    await waitFor(
      `PyTorchJob ${name} Succeeded or Failed`,
      async () => {
        // A watch the server closed early: the objects themselves then say how far the job got.
        if (ended.job) noteJob(await jobs.get(name));
        if (ended.group && !run.finished) await groups.get(name).then(noteGroup, (e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
        return run.finished !== undefined;
      },
      JOB_DONE_TIMEOUT_MS,
    );
  } catch (error) {
    run.problem = `${String(error)}\njob status: ${JSON.stringify(run.job?.status)}\n${await podStatuses(cluster, name)}agent's last lines:\n${cluster.agent.output().slice(-3000)}`;
  } finally {
    for (const watch of watches) watch.stop();
  }
  for (const type of REPLICA_TYPES) run.replicas.push(await readReplica(cluster, name, type, run.finished !== undefined));
  await deleteJob(cluster, name);
  return run;
}

async function podStatuses(cluster: GpuCluster, job: string): Promise<string> {
  const pods = cluster.api.resource<Pod>(resources.pods, NAMESPACE);
  let text = '';
  for (const type of REPLICA_TYPES) {
    const pod = replicaName(job, type, 0);
    text += `pod ${pod}: ${await pods.get(pod).then(
      (p) => JSON.stringify(p.status),
      (e: unknown) => String(e),
    )}\n`;
  }
  return text;
}

/** Its labels and log; once the job has ended, the log is read until it holds the replica's line. */
async function readReplica(cluster: GpuCluster, job: string, type: ReplicaRun['type'], ended: boolean): Promise<ReplicaRun> {
  const pod = replicaName(job, type, 0);
  const labels = await cluster.api
    .resource<Pod>(resources.pods, NAMESPACE)
    .get(pod)
    .then(
      (p) => p.metadata.labels ?? {},
      () => ({}),
    );
  const read = () => podLog(cluster, pod).catch((e: unknown) => `(no log: ${String(e)})`);
  let log = await read();
  if (ended && !parseReplicaReport(log))
    await waitFor(`${pod}'s JSON line`, async () => !!parseReplicaReport((log = await read())), REPORT_TIMEOUT_MS).catch(() => undefined);
  const report = parseReplicaReport(log);
  return { type, pod, labels, log, ...(report ? { report } : {}) };
}

/** Deletes the job (so nothing recreates its pods), then its pods, and waits until they are gone. */
async function deleteJob(cluster: GpuCluster, name: string): Promise<void> {
  await cluster.api
    .resource(resources.pytorchjobs, NAMESPACE)
    .delete(name)
    .catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
    });
  for (const type of REPLICA_TYPES) await deletePod(cluster, replicaName(name, type, 0));
}
