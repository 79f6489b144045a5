// ttlSecondsAfterFinished (Kubernetes' TTL-after-finished controller): a finished Job is
// deleted once its TTL has passed since it finished (controllers/shape/ttl-after-finished.ts).
import { resources, type ApiClient } from '../../client/index.js';
import { deleteAfterTtl } from '../shape/ttl-after-finished.js';
import { finishedAt } from './job-status.js';
import type { Job } from './types.js';

/** Milliseconds until the Job expires (look again then); undefined when it never will or was deleted now. */
export async function expireAfterFinished(api: ApiClient, job: Readonly<Job>, now: number): Promise<number | undefined> {
  const result = await deleteAfterTtl(api.resource<Job>(resources.jobs, job.metadata.namespace), job, (j) => remainingMs(j, now));
  return result === 'deleted' ? undefined : result;
}

function remainingMs(job: Readonly<Job>, now: number): number | undefined {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null) return undefined;
  const finished = finishedAt(job.status);
  if (finished === undefined) return undefined;
  return finished + ttl * 1000 - now;
}
