// Which revision a list reads, from `resourceVersion` and `resourceVersionMatch`, as Kubernetes
// defines them for lists:
//   unset                  the most recent state
//   "0"                    any state (Drover's is always the most recent)
//   R, NotOlderThan or -   a state at least as new as R: now, once the store has reached R
//   R, Exact               the state at R exactly (410 Expired once R is compacted)
// A revision the store has not reached is waited for briefly and is then 504, as kube-apiserver
// answers "Too large resource version".
import { ApiError, badRequest } from '../errors.js';

/** Where the newest revision is read (the registry). */
interface Revisions {
  currentRevision(): Promise<number>;
}

/** How long a list waits for a revision the store has not reached. */
const TOO_LARGE_WAIT_MS = 3_000;
const POLL_MS = 50;

export async function listRevision(store: Revisions, query: URLSearchParams): Promise<number | undefined> {
  const requested = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  const continued = (query.get('continue') ?? '') !== '';
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
    throw badRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
  }
  if (match !== '' && requested === '') throw badRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (continued && match !== '') throw badRequest('resourceVersionMatch is forbidden when continue is provided');
  if (continued && requested !== '' && requested !== '0') throw badRequest('specifying resource version is not allowed when using continue');
  if (requested === '' || requested === '0') {
    if (match === 'Exact') throw badRequest('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    return undefined;
  }
  if (!/^\d+$/.test(requested) || !Number.isSafeInteger(Number(requested))) {
    throw new ApiError(400, 'BadRequest', `invalid resource version: ${requested}`);
  }
  const revision = Number(requested);
  await reached(store, revision);
  return match === 'Exact' ? revision : undefined;
}

async function reached(store: Revisions, revision: number): Promise<void> {
  const deadline = Date.now() + TOO_LARGE_WAIT_MS;
  while ((await store.currentRevision()) < revision) {
    if (Date.now() >= deadline) {
      throw new ApiError(504, 'Timeout', `Too large resource version: ${revision}, current: ${await store.currentRevision()}`, {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
