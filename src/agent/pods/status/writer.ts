// Writes a pod's status through pods/status, only when it changed. The write is a PUT with
// the resourceVersion the agent read, so a pod deleted and re-created under the same name
// (another uid) is never given the old pod's status; on a conflict the pod is read again.
import { isConflict, isNotFound, resources, type ApiClient } from '../../../client/index.js';
import type { PodRecord } from '../record.js';
import { jsonEqual } from '../../../util/json-equal.js';
import type { Pod, PodStatus } from '../../../api/core/index.js';

const OWN_FIELDS = [
  'phase',
  'conditions',
  'message',
  'reason',
  'hostIP',
  'hostIPs',
  'podIP',
  'podIPs',
  'startTime',
  'initContainerStatuses',
  'containerStatuses',
  'qosClass',
] as const;

function ownPart(status: PodStatus | undefined): Partial<PodStatus> {
  const out: Record<string, unknown> = {};
  for (const field of OWN_FIELDS) if (status?.[field] !== undefined) out[field] = status[field];
  return out as Partial<PodStatus>;
}

function newer(a: string | undefined, b: string | undefined): boolean {
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) ? x > y : a !== b;
}

/** The newest status known: our last write, unless the informer has seen a later change. */
export function latestStatus(record: PodRecord): PodStatus | undefined {
  const written = record.written;
  if (written && !newer(record.pod.metadata.resourceVersion, written.resourceVersion)) return written.status;
  return record.pod.status;
}

export function statusUnchanged(record: PodRecord, status: PodStatus): boolean {
  const pod = record.pod;
  if (jsonEqual(ownPart(pod.status), ownPart(status))) return true;
  const written = record.written;
  // The informer has not caught up with our own write yet: compare with what was written.
  return written !== undefined && jsonEqual(ownPart(written.status), ownPart(status)) && !newer(pod.metadata.resourceVersion, written.resourceVersion);
}

function withStatus(pod: Pod, status: PodStatus): Pod {
  const rest: Record<string, unknown> = { ...(pod.status ?? {}) };
  for (const field of OWN_FIELDS) delete rest[field];
  return { ...pod, status: { ...rest, ...status } };
}

/** Writes the status unless it is what the API already has; false when the pod is gone. */
export async function writePodStatus(api: ApiClient, record: PodRecord, status: PodStatus): Promise<boolean> {
  if (statusUnchanged(record, status)) return true;
  const pods = api.resource<Pod>(resources.pods, record.pod.metadata.namespace);
  // Our last write is newer than the informer's copy more often than not: start from it.
  const written = record.written;
  const fresher = written && newer(written.resourceVersion, record.pod.metadata.resourceVersion);
  let base: Pod = fresher ? { ...record.pod, metadata: { ...record.pod.metadata, resourceVersion: written.resourceVersion } } : record.pod;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const updated = await pods.updateStatus(withStatus(base, status));
      record.written = { status, resourceVersion: updated.metadata.resourceVersion ?? '' };
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      if (!isConflict(error)) throw error;
    }
    try {
      base = await pods.get(record.pod.metadata.name ?? '');
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
    if (base.metadata.uid !== record.pod.metadata.uid) return false;
  }
  throw new Error(`status of pod ${record.pod.metadata.namespace ?? ''}/${record.pod.metadata.name ?? ''}: too many conflicts`);
}
