// The PodGroup status the scheduler writes: it is the only writer of PodGroup status (the
// training-job controller writes spec and metadata only), because only the scheduler knows
// which members hold reserved places and why a group waits. Pure: the writer diffs it against
// the stored status and writes through the status subresource only when something changed.
import type { KubeObject } from '../../api/meta.js';
import { controllerRefOf } from '../../api/owner-references.js';
import { record, text } from '../object-access.js';
import type { GroupState } from './pod-group-manager.js';
import { boundNode, parsePodGroup } from './pod-group.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { PodGroupCondition, PodGroupPhase, PodGroupStatus } from '../../api/scheduling/pod-group.js';

/** The condition type that says why a group is not placed (volcano's name for it). */
export const UNSCHEDULABLE_CONDITION = 'Unschedulable';

export interface MemberCounts {
  scheduled: number;
  running: number;
  succeeded: number;
  failed: number;
  live: number;
  total: number;
}

/** Counts over the member pods, as the status reports them (and as the data checker recomputes them). */
export function memberCounts(members: readonly Readonly<KubeObject>[]): MemberCounts {
  const counts: MemberCounts = { scheduled: 0, running: 0, succeeded: 0, failed: 0, live: 0, total: 0 };
  for (const pod of members) {
    if (pod.metadata.deletionTimestamp) continue;
    counts.total++;
    const phase = text(record(pod['status'])['phase']);
    if (boundNode(pod) !== undefined) counts.scheduled++;
    if (phase === 'Running') counts.running++;
    else if (phase === 'Succeeded') counts.succeeded++;
    else if (phase === 'Failed') counts.failed++;
    if (phase !== 'Succeeded' && phase !== 'Failed') counts.live++;
  }
  return counts;
}

function occupiedBy(group: Readonly<KubeObject>): string | undefined {
  const owner = controllerRefOf(group) ?? group.metadata.ownerReferences?.[0];
  return owner ? `${group.metadata.namespace ?? ''}/${owner.name}` : undefined;
}

function phaseOf(minMember: number, counts: MemberCounts, state: Readonly<GroupState> | undefined, reserved: number): PodGroupPhase {
  if (state?.failed !== undefined) return 'Failed';
  if (counts.total > 0 && counts.live === 0) return counts.succeeded >= minMember ? 'Finished' : 'Failed';
  if (counts.running + counts.succeeded >= minMember && counts.running > 0) return 'Running';
  if (counts.scheduled >= minMember) return 'Scheduled';
  if (reserved > 0 || state?.deadline !== undefined) return 'Scheduling';
  return 'Pending';
}

function conditionsOf(
  current: readonly PodGroupCondition[],
  state: Readonly<GroupState> | undefined,
  phase: PodGroupPhase,
  now: string,
): PodGroupCondition[] | undefined {
  const previous = current.find((c) => c.type === UNSCHEDULABLE_CONDITION);
  let next: Omit<PodGroupCondition, 'lastTransitionTime'> | undefined;
  if (state?.waiting !== undefined && phase !== 'Scheduled' && phase !== 'Running' && phase !== 'Finished') {
    next = { type: UNSCHEDULABLE_CONDITION, status: 'True', reason: state.waiting.reason, message: state.waiting.message };
  } else if (previous !== undefined && phase !== 'Pending' && phase !== 'Scheduling') {
    next = { type: UNSCHEDULABLE_CONDITION, status: 'False', reason: 'Scheduled', message: 'minMember members have places' };
  } else if (previous !== undefined) {
    next = previous;
  }
  const others = current.filter((c) => c.type !== UNSCHEDULABLE_CONDITION);
  if (next === undefined) return others.length > 0 ? others : undefined;
  const transition = previous?.status === next.status && previous.lastTransitionTime ? previous.lastTransitionTime : now;
  return [...others, { ...next, lastTransitionTime: transition }];
}

/** What the group's status should say now; `reserved` counts members assumed but not yet bound. */
export function desiredStatus(
  group: Readonly<KubeObject>,
  members: readonly Readonly<KubeObject>[],
  state: Readonly<GroupState> | undefined,
  reserved: number,
  now = new Date(),
): PodGroupStatus {
  const current = record(group['status']) as Partial<PodGroupStatus>;
  const counts = memberCounts(members);
  const phase = phaseOf(parsePodGroup(group).minMember, counts, state, reserved);
  const status: PodGroupStatus = { phase, scheduled: counts.scheduled, running: counts.running, succeeded: counts.succeeded, failed: counts.failed };
  const owner = occupiedBy(group);
  if (owner !== undefined) status.occupiedBy = owner;
  const start = state?.firstAttempt !== undefined ? new Date(state.firstAttempt).toISOString().replace(/\.\d+Z$/, 'Z') : current.scheduleStartTime;
  if (start !== undefined) status.scheduleStartTime = current.scheduleStartTime ?? start;
  const conditions = conditionsOf(current.conditions ?? [], state, phase, now.toISOString().replace(/\.\d+Z$/, 'Z'));
  if (conditions !== undefined) status.conditions = conditions;
  return status;
}

/** True when the stored status already says what `desired` says. */
export function sameStatus(group: Readonly<KubeObject>, desired: PodGroupStatus): boolean {
  const current = record(group['status']);
  const keys: Array<keyof PodGroupStatus> = ['phase', 'occupiedBy', 'scheduled', 'running', 'succeeded', 'failed', 'scheduleStartTime'];
  for (const key of keys) if ((current[key] ?? undefined) !== (desired[key] ?? undefined) && !(current[key] === 0 && desired[key] === undefined)) return false;
  return jsonEqual(current['conditions'] ?? [], desired.conditions ?? []);
}
