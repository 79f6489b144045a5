// ttlSecondsAfterFinished (Kubernetes' TTL-after-finished controller): a finished Job is
// deleted, with propagationPolicy Background, once its TTL has passed since it finished. Before
// deleting, the Job is read afresh, since its TTL may have changed since the cache saw it.
import { isConflict, isNotFound, resources, type ApiClient } from '../../client/index.js';
import { finishedAt } from './job-status.js';
import type { Job } from './types.js';

/** Milliseconds until the Job expires (look again then); undefined when it never will or was deleted now. */
export async function expireAfterFinished(api: ApiClient, job: Readonly<Job>, now: number): Promise<number | undefined> {
  const left = remainingMs(job, now);
  if (left === undefined || left > 0) return left;
  const client = api.resource<Job>(resources.jobs, job.metadata.namespace);
  let fresh: Job;
  try {
    fresh = await client.get(job.metadata.name!);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  if (fresh.metadata.uid !== job.metadata.uid || fresh.metadata.deletionTimestamp) return undefined;
  const freshLeft = remainingMs(fresh, now);
  if (freshLeft === undefined || freshLeft > 0) return freshLeft;
  try {
    await client.delete(fresh.metadata.name!, {
      propagationPolicy: 'Background',
      preconditions: { uid: fresh.metadata.uid!, resourceVersion: fresh.metadata.resourceVersion! },
    });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    if (isConflict(error)) return 0; // changed meanwhile: look again
    throw error;
  }
  return undefined;
}

function remainingMs(job: Readonly<Job>, now: number): number | undefined {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null) return undefined;
  const finished = finishedAt(job.status);
  if (finished === undefined) return undefined;
  return finished + ttl * 1000 - now;
}
