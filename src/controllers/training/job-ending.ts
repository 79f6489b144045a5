// How a training job's objects go: cleanPodPolicy when the job ends (every way it ends — success,
// a failed replica, backoffLimit, the deadline: kubeflow/trainer#3419 skipped it on the backoff
// path), everything when it is suspended, the job itself ttlSecondsAfterFinished after it ended.
// And the one status write of the controller.
import type { KubeObject } from '../../api/meta.js';
import { metaTime } from '../../api/meta.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { ApiClient } from '../../client/index.js';
import type { WrittenStatus } from '../job/written-status.js';
import type { FrameworkController } from './framework.js';
import { deleteAfterTtl } from '../shape/ttl-after-finished.js';
import { deletePodGroup } from './pod-group.js';
import type { ReplicaActions } from './replica-actions.js';
import type { TrainingJob, TrainingJobStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

interface EndingDeps {
  api: ApiClient;
  actions: ReplicaActions;
}

interface Objects {
  pods: readonly Readonly<Pod>[];
  services: readonly Readonly<KubeObject>[];
  podGroup: Readonly<KubeObject> | undefined;
}

const live = <T extends KubeObject>(objects: readonly Readonly<T>[]) => objects.filter((o) => !o.metadata.deletionTimestamp);

/** The pods cleanPodPolicy removes from an ended job: All, Running (pending or running ones) or None. */
export function podsToClean(job: Readonly<TrainingJob>, pods: readonly Readonly<Pod>[]): Readonly<Pod>[] {
  const policy = job.spec.runPolicy?.cleanPodPolicy ?? 'None';
  if (policy === 'None') return [];
  const candidates = live(pods);
  if (policy === 'All') return candidates;
  return candidates.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
}

/** cleanPodPolicy on an ended job: the pods it names go, each with its Service (as Kubeflow); the PodGroup goes. */
export async function cleanUp(deps: EndingDeps, job: Readonly<TrainingJob>, objects: Objects): Promise<unknown[]> {
  const pods = podsToClean(job, objects.pods);
  const names = new Set(pods.map((p) => p.metadata.name));
  const all = job.spec.runPolicy?.cleanPodPolicy === 'All';
  const services = live(objects.services).filter((s) => all || names.has(s.metadata.name));
  const errors: unknown[] = [];
  if (pods.length > 0) errors.push(...(await deps.actions.delete(job, 'pods', pods)));
  if (services.length > 0) errors.push(...(await deps.actions.delete(job, 'services', services)));
  await deletePodGroup(deps.api, job, objects.podGroup).catch((error: unknown) => errors.push(error));
  return errors;
}

/** Suspension: every pod and service and the PodGroup go. */
export async function deleteEverything(deps: EndingDeps, job: Readonly<TrainingJob>, objects: Objects): Promise<unknown[]> {
  const errors: unknown[] = [];
  const pods = live(objects.pods);
  const services = live(objects.services);
  if (pods.length > 0) errors.push(...(await deps.actions.delete(job, 'pods', pods)));
  if (services.length > 0) errors.push(...(await deps.actions.delete(job, 'services', services)));
  await deletePodGroup(deps.api, job, objects.podGroup).catch((error: unknown) => errors.push(error));
  return errors;
}

function ttlRemainingMs(job: Readonly<TrainingJob>, now: number): number | undefined {
  const ttl = job.spec.runPolicy?.ttlSecondsAfterFinished;
  const done = Date.parse(job.status?.completionTime ?? '');
  if (ttl === undefined || ttl === null || !Number.isFinite(done)) return undefined;
  return done + ttl * 1000 - now;
}

/** Deletes the job once its TTL passed (controllers/shape/ttl-after-finished.ts); else ms until then, or 'deleted'. */
export function expireAfterFinished(api: ApiClient, fc: FrameworkController, job: Readonly<TrainingJob>, now: number): Promise<number | 'deleted' | undefined> {
  return deleteAfterTtl(api.resource<TrainingJob>(fc.resource, job.metadata.namespace), job, (j) => ttlRemainingMs(j, now));
}

function comparable(status: Readonly<TrainingJobStatus> | undefined): Partial<TrainingJobStatus> {
  const { lastReconcileTime: _ignored, ...rest } = status ?? {};
  return rest;
}

/** Writes the status through the status subresource when it changed (lastReconcileTime alone is no change). */
export async function writeStatus(
  deps: { api: ApiClient; written: WrittenStatus<TrainingJob> },
  fc: FrameworkController,
  base: Readonly<TrainingJob>,
  status: TrainingJobStatus,
  now: Date,
): Promise<Readonly<TrainingJob>> {
  if (jsonEqual(comparable(status), comparable(base.status))) return base;
  status.lastReconcileTime = metaTime(now);
  const written = await deps.api
    .resource<TrainingJob>(fc.resource, base.metadata.namespace)
    .updateStatus({ ...base, status: structuredClone(status) } as TrainingJob);
  deps.written.wrote(base, written);
  return written;
}
