// Pods of bench:gpu through the API (the project's own client; kubectl may be absent on a lent
// GPU machine): one run from create to its end, with the moments it was seen Running and done,
// its log from the pods/log API, and its deletion awaited so the next pod finds its GPU free.
import type { Pod } from '../src/api/core/index.js';
import type { KubeObject } from '../src/api/meta.js';
import { isNotFound, resources, type WatchHandle } from '../src/client/index.js';
import { rawRequest } from '../test/support/client/raw-request.js';
import { waitFor } from '../test/support/wait-for.js';
import type { GpuCluster } from './gpu-cluster.js';
import { PROBE_PROGRAM } from './gpu-probe.js';

export const GPU = 'nvidia.com/gpu';
const NAMESPACE = 'default';
/** A first run of PyTorch on a machine may load gigabytes of libraries from a cold disk. */
const POD_DONE_TIMEOUT_MS = 300_000;

/**
 * What the host's PyTorch may need from the environment that a host-process pod does not
 * inherit (it gets the node's PATH only): an image that finds the driver's or CUDA's libraries
 * through LD_LIBRARY_PATH would otherwise show the pod no GPU for a reason that is not Drover's.
 * A user of such a node writes them into the pod's env as this spec does.
 */
export const PASSED_FROM_HOST = ['LD_LIBRARY_PATH', 'PYTHONPATH'] as const;

/** PASSED_FROM_HOST as a container's env: what a spec of a host-process pod on this node writes. */
export function hostEnv(): Array<{ name: string; value: string }> {
  return PASSED_FROM_HOST.flatMap((name) => (process.env[name] ? [{ name, value: process.env[name]! }] : []));
}

/** The probe as a host-process pod; `gpus` undefined asks for none (no limit at all). */
export function probePod(name: string, gpus?: number): Pod {
  const env = hostEnv();
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NAMESPACE, labels: { app: 'drover-bench-gpu' } },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: 'probe',
          // The process runtime runs the host's python3; the image names nothing it pulls.
          image: 'drover-bench/host-python3:1',
          command: ['python3', '-c', PROBE_PROGRAM],
          ...(env.length ? { env } : {}),
          ...(gpus === undefined ? {} : { resources: { limits: { [GPU]: String(gpus) } } }),
        },
      ],
    },
  };
}

export interface PodRun {
  name: string;
  phase: string;
  createdAtMs: number;
  /** When a watch first reported phase Running; undefined if it went from Pending to done at once. */
  runningAtMs?: number;
  log: string;
  /** The pod's status and the agent's last lines, when it did not end in time. */
  problem?: string;
}

function pods(cluster: GpuCluster) {
  return cluster.api.resource<Pod>(resources.pods, NAMESPACE);
}

/** The container's output through GET .../pods/NAME/log, as `kubectl logs` reads it. */
export async function podLog(cluster: GpuCluster, name: string): Promise<string> {
  const answer = await rawRequest(cluster.server.url, cluster.server.tls, 'GET', `/api/v1/namespaces/${NAMESPACE}/pods/${name}/log`);
  if (answer.status !== 200) throw new Error(`pods/log of ${name}: ${answer.status} ${answer.text}`);
  return answer.text;
}

/** Creates the pod and follows it to Succeeded or Failed; the pod is deleted again before this returns. */
export async function runPod(cluster: GpuCluster, pod: Pod): Promise<PodRun> {
  const name = pod.metadata.name!;
  const seen: { phase: string; runningAtMs?: number; ended: boolean } = { phase: 'Pending', ended: false };
  const note = (object: Pod) => {
    seen.phase = object.status?.phase ?? seen.phase;
    if (seen.phase === 'Running' && seen.runningAtMs === undefined) seen.runningAtMs = Date.now();
  };
  const watch: WatchHandle = pods(cluster).watch({ name }, (event) => {
    if (event.type === 'ADDED' || event.type === 'MODIFIED') note(event.object);
  });
  void watch.done.then(() => (seen.ended = true));
  await watch.ready;
  const createdAtMs = Date.now();
  await pods(cluster).create(pod);
  let problem: string | undefined;
  try {
    await waitFor(
      `${name} Succeeded or Failed`,
      async () => {
        // A watch the server closed early: the object itself then says how far the pod got.
        if (seen.ended) note(await pods(cluster).get(name));
        return seen.phase === 'Succeeded' || seen.phase === 'Failed';
      },
      POD_DONE_TIMEOUT_MS,
    );
  } catch (error) {
    const status = await pods(cluster)
      .get(name)
      .then(
        (p) => JSON.stringify(p.status),
        (e: unknown) => String(e),
      );
    problem = `${String(error)}\nstatus: ${status}\nagent's last lines:\n${cluster.agent.output().slice(-3000)}`;
  } finally {
    watch.stop();
  }
  const log = await podLog(cluster, name).catch((e: unknown) => `(no log: ${String(e)})`);
  await deletePod(cluster, name);
  return {
    name,
    phase: seen.phase,
    createdAtMs,
    ...(seen.runningAtMs === undefined ? {} : { runningAtMs: seen.runningAtMs }),
    log,
    ...(problem ? { problem } : {}),
  };
}

/** Deletes the pod and waits until the agent has let it go (the API no longer has it). */
export async function deletePod(cluster: GpuCluster, name: string): Promise<void> {
  await pods(cluster)
    .delete(name)
    .catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
    });
  await waitFor(
    `${name} deleted`,
    () =>
      pods(cluster)
        .get(name)
        .then(
          () => false,
          (e: unknown) => {
            if (isNotFound(e)) return true;
            throw e;
          },
        ),
    120_000,
  );
}

interface CoreEvent extends KubeObject {
  reason?: string;
  message?: string;
}

/** A pod the scheduler cannot place: its FailedScheduling message, and the pod as it stands after it. */
export async function unschedulable(cluster: GpuCluster, pod: Pod): Promise<{ message: string | undefined; pod: Pod }> {
  const name = pod.metadata.name!;
  await pods(cluster).create(pod);
  const events = cluster.api.resource<CoreEvent>(resources.events, NAMESPACE);
  const message = await waitFor(
    'FailedScheduling',
    async () => {
      const list = await events.list({ fieldSelector: { 'involvedObject.name': name } });
      return list.items.find((e) => e.reason === 'FailedScheduling')?.message || undefined;
    },
    120_000,
  ).catch(() => undefined);
  return { message, pod: await pods(cluster).get(name) };
}
