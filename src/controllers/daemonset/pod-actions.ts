// Carries out a DaemonSet's plan: creates daemon pods (in slow-start batches) and deletes pods,
// keeping the expectations that stop the next pass from counting a lagging cache, and
// recording SuccessfulCreate / SuccessfulDelete events as Kubernetes does.
import { isNotFound, objectKey, resources, type ApiClient, type EventRecorder, type Expectations } from '../../client/index.js';
import { slowStartBatch } from '../slow-start.js';
import { newDaemonPod } from './daemon-pod.js';
import type { PodDeletion } from './manage.js';
import type { DaemonSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface PodActionsDeps {
  api: ApiClient;
  recorder: EventRecorder;
  expectations: Expectations;
}

export async function carryOut(
  deps: PodActionsDeps,
  ds: Readonly<DaemonSet>,
  createOn: readonly string[],
  deletions: readonly PodDeletion[],
  hash: string,
): Promise<void> {
  const owner = ds.metadata.uid!;
  if (deletions.length > 0) {
    deps.expectations.expectDeletions(
      owner,
      deletions.map((d) => objectKey(d.pod)),
    );
    if (createOn.length > 0) deps.expectations.raise(owner, createOn.length);
  } else {
    deps.expectations.expectCreations(owner, createOn.length);
  }
  const errors = [...(await deletePods(deps, ds, deletions)), ...(await createPods(deps, ds, createOn, hash))];
  if (errors.length > 0) {
    const first = errors[0] instanceof Error ? errors[0].message : String(errors[0]);
    throw new Error(`daemon set ${objectKey(ds)}: ${errors.length} pod operation(s) failed; first: ${first}`, { cause: errors[0] });
  }
}

async function createPods(deps: PodActionsDeps, ds: Readonly<DaemonSet>, createOn: readonly string[], hash: string): Promise<unknown[]> {
  const owner = ds.metadata.uid!;
  const client = deps.api.resource<Pod>(resources.pods, ds.metadata.namespace);
  const result = await slowStartBatch(createOn, 1, async (nodeName) => {
    try {
      const created = await client.create(newDaemonPod(ds, nodeName, hash));
      void deps.recorder.record(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    } catch (error) {
      deps.expectations.creationObserved(owner); // it will never be observed
      void deps.recorder.record(ds, 'Warning', 'FailedCreate', `Error creating: ${(error as Error).message}`);
      throw error;
    }
  });
  for (let i = 0; i < result.skipped; i++) deps.expectations.creationObserved(owner);
  return result.errors;
}

async function deletePods(deps: PodActionsDeps, ds: Readonly<DaemonSet>, deletions: readonly PodDeletion[]): Promise<unknown[]> {
  const owner = ds.metadata.uid!;
  const client = deps.api.resource<Pod>(resources.pods, ds.metadata.namespace);
  const outcomes = await Promise.allSettled(
    deletions.map(async ({ pod, force }) => {
      const name = pod.metadata.name!;
      try {
        await client.delete(name, { preconditions: { uid: pod.metadata.uid! }, ...(force ? { gracePeriodSeconds: 0 } : {}) });
        void deps.recorder.record(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
      } catch (error) {
        deps.expectations.deletionObserved(owner, objectKey(pod));
        if (isNotFound(error)) return;
        void deps.recorder.record(ds, 'Warning', 'FailedDelete', `Error deleting: ${(error as Error).message}`);
        throw error;
      }
    }),
  );
  return outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
}
