// PodGroups whose status counts (scheduled, running, succeeded, failed) disagree with their
// member pods. The scheduler is the one writer of PodGroup status and recomputes it from the
// same counting rule (memberCounts); the repair only nudges the PodGroup, which makes the
// scheduler's status writer look at it again, so it runs every round.
import type { KubeObject } from '../../api/meta.js';
import { resources } from '../../client/index.js';
import { POD_GROUP_LABEL } from '../../api/schemas/scheduling.js';
import { memberCounts, type MemberCounts } from '../../scheduler/gang/pod-group-status.js';
import { liveObject, nudge } from '../live.js';
import { refOf, type Check, type Finding, type Snapshot } from '../types.js';
import type { Pod } from '../../api/core/index.js';

const COUNTED = ['scheduled', 'running', 'succeeded', 'failed'] as const;

function differences(group: Readonly<KubeObject>, counts: MemberCounts): string[] {
  const status = (group['status'] ?? {}) as Partial<Record<(typeof COUNTED)[number], number>>;
  return COUNTED.filter((field) => (status[field] ?? 0) !== counts[field]).map((field) => `${field} ${status[field] ?? 0}, pods say ${counts[field]}`);
}

/** A pod or group that changed within the settle time may still be on its way into the status. */
function settling(group: Readonly<KubeObject>, pods: readonly Readonly<KubeObject>[], snapshot: Snapshot, settleMs: number): boolean {
  const recent = (time: string | null | undefined) => typeof time === 'string' && snapshot.now - Date.parse(time) < settleMs;
  if (recent(group.metadata.creationTimestamp)) return true;
  return pods.some(
    (pod) =>
      recent(pod.metadata.creationTimestamp) ||
      recent(pod.metadata.deletionTimestamp) ||
      ((pod as Pod).status?.conditions ?? []).some((c) => recent(c.lastTransitionTime)) ||
      ((pod as Pod).status?.startTime !== undefined && recent((pod as Pod).status?.startTime)),
  );
}

export const podGroupCounts: Check = async (snapshot, { api, options }) => {
  const members = new Map<string, KubeObject[]>();
  for (const pod of snapshot.pods) {
    const group = pod.metadata.labels?.[POD_GROUP_LABEL];
    if (!group) continue;
    const key = `${pod.metadata.namespace ?? ''}/${group}`;
    members.set(key, [...(members.get(key) ?? []), pod]);
  }
  const findings: Finding[] = [];
  for (const group of snapshot.podGroups) {
    if (group.metadata.deletionTimestamp) continue;
    const pods = members.get(`${group.metadata.namespace ?? ''}/${group.metadata.name ?? ''}`) ?? [];
    if (settling(group, pods, snapshot, options.settleMs)) continue;
    const counts = memberCounts(pods);
    if (differences(group, counts).length === 0) continue;
    // Confirm with a fresh read: the status may have been written since the list.
    const live = await liveObject(api, resources.podgroups, group.metadata.namespace, group.metadata.name ?? '', group.metadata.uid);
    const gaps = live ? differences(live, counts) : [];
    if (gaps.length === 0) continue;
    const ref = refOf(group);
    findings.push({
      kind: 'PodGroupCountsMismatch',
      object: ref,
      message: `PodGroup ${ref.namespace}/${ref.name} status disagrees with its ${pods.length} member pod(s): ${gaps.join('; ')}`,
      repair: { action: 'nudge the PodGroup so that the scheduler writes its status again', nudge: true, run: (client) => nudge(client, ref) },
    });
  }
  return findings;
};
