// The pod-group manager: what the scheduler knows about each gang beyond its PodGroup object.
// It answers the questions coscheduling asks — does the group exist, do enough members exist,
// how many members have places (bound or reserved) — and decides whether a group is admitted
// to placement: only when the cluster's free capacity can hold the members it still needs,
// judged by an aggregate check and a first-fit trial on a scratch view before anything is
// reserved. That admission rule is what keeps two half-placed gangs from holding each other
// forever (scheduler-plugins#114/#117). It also fails a group fast when it can never fit.
import type { KubeObject } from '../../api/meta.js';
import { podInfoOf } from '../pod-info.js';
import type { ClusterSnapshot } from '../snapshot.js';
import { amountText, clusterCapacity, firstFit, fitsNoEmptyNode, formatAmount, requestAmounts, shortfall, sumAmounts, type Amounts } from './capacity.js';
import { isTerminalPod, parsePodGroup, podPriority, type ParsedPodGroup } from './pod-group.js';

/** Where the scheduler reads groups and their member pods (informers in the loop, arrays in tests). */
export interface GangSources {
  group(key: string): Readonly<KubeObject> | undefined;
  /** Every pod labelled with the group, in any state. */
  members(key: string): readonly Readonly<KubeObject>[];
}

/** Why a group is not being placed; the status writer turns it into the PodGroup's condition. */
export type WaitReason = 'PodGroupNotFound' | 'NotEnoughMembers' | 'WaitingForCapacity' | 'NotEnoughResources' | 'Timeout';

export interface GroupState {
  /** First time the scheduler tried to place the group (status.scheduleStartTime). */
  firstAttempt?: number;
  /** The last reason it could not be placed; cleared when its quorum is reached. */
  waiting?: { reason: WaitReason; message: string };
  /** Set when the group can never fit the cluster as it is (phase Failed). */
  failed?: string;
  /** When the members waiting at permit are all rejected. */
  deadline?: number;
  /** After a timeout the group is not admitted again before this (coscheduling's podGroupBackoff). */
  backoffUntil?: number;
  /** Members bound since the quorum was last reached; the wait is observed once it reaches minMember. */
  boundSinceQuorum: number;
  quorumAt?: number;
}

/** A closed gate's `message` has the figures (PreFilter's verdict); `steady` says the same without them, for the member pods. */
export type Gate =
  { readonly ok: true; readonly spec: ParsedPodGroup } | { readonly ok: false; readonly reason: WaitReason; readonly message: string; readonly steady: string };

/**
 * A refusal's `message` goes on every member pod (its PodScheduled condition and event), so it
 * stays the same while the free capacity moves: a changing text would be one write per member
 * per retry. `detail`, with the changing figures, goes on the PodGroup's condition only.
 */
export type Admission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly reason: WaitReason; readonly message: string; readonly detail?: string; readonly retryAfterMs?: number };

export class PodGroupManager {
  private readonly states = new Map<string, GroupState>();
  /**
   * Groups refused for want of free capacity, by pod priority: a group of lower priority is not
   * admitted past them, so small low-priority gangs cannot starve a big important one by
   * always fitting first (volcano#2052). Equal priorities backfill (no reservation by age).
   */
  private readonly blocking = new Map<string, number>();
  /** Called whenever a group's state changes (the status writer enqueues it). */
  onChange: (groupKey: string) => void = () => {};
  /** Called when a group stops holding lower-priority groups back: they may be tried again. */
  onUnblock: () => void = () => {};

  constructor(
    readonly sources: GangSources,
    private readonly now: () => number = Date.now,
  ) {}

  state(groupKey: string): GroupState {
    let state = this.states.get(groupKey);
    if (state === undefined) this.states.set(groupKey, (state = { boundSinceQuorum: 0 }));
    return state;
  }

  peek(groupKey: string): Readonly<GroupState> | undefined {
    return this.states.get(groupKey);
  }

  forgetGroup(groupKey: string): void {
    this.states.delete(groupKey);
    this.unblock(groupKey);
  }

  /** Members that still count: not finished and not being deleted. */
  liveMembers(groupKey: string): Readonly<KubeObject>[] {
    return this.sources.members(groupKey).filter((pod) => !pod.metadata.deletionTimestamp && !isTerminalPod(pod));
  }

  /** Live members with a place in the snapshot: bound, or assumed (reserved, maybe waiting at permit). */
  placedCount(groupKey: string, snapshot: ClusterSnapshot): number {
    let placed = 0;
    for (const pod of this.liveMembers(groupKey)) if (snapshot.nodeOf(pod) !== undefined) placed++;
    return placed;
  }

  /** The group has reached its quorum: a new member (a replacement) is placed on its own (scheduler-plugins#358). */
  isSatisfied(groupKey: string, snapshot: ClusterSnapshot): boolean {
    const group = this.sources.group(groupKey);
    return group !== undefined && this.placedCount(groupKey, snapshot) >= parsePodGroup(group).minMember;
  }

  /** Coscheduling's PreFilter: the group exists, and enough members exist to ever reach minMember. */
  gate(groupKey: string, snapshot: ClusterSnapshot): Gate {
    const group = this.sources.group(groupKey);
    if (group === undefined) {
      const message = `pod group ${groupKey} not found (waiting for it to be created)`;
      return { ok: false, reason: 'PodGroupNotFound', message, steady: message };
    }
    const spec = parsePodGroup(group);
    const live = this.liveMembers(groupKey).length;
    if (live < spec.minMember && this.placedCount(groupKey, snapshot) < spec.minMember) {
      // Members arrive one by one: a count on every member pod would be rewritten on each arrival.
      return {
        ok: false,
        reason: 'NotEnoughMembers',
        message: `pod group ${groupKey}: ${live}/${spec.minMember} members exist`,
        steady: `pod group ${groupKey}: fewer than minMember ${spec.minMember} members exist (waiting for more)`,
      };
    }
    return { ok: true, spec };
  }

  /**
   * Admission of the group's pending members to placement: enough of them to reach minMember
   * must fit in the free capacity now. Records why not (and fails the group fast when it can
   * never fit); the caller places the members only when admitted.
   */
  admit(groupKey: string, pending: readonly Readonly<KubeObject>[], snapshot: ClusterSnapshot): Admission {
    const state = this.state(groupKey);
    state.firstAttempt ??= this.now();
    const gate = this.gate(groupKey, snapshot);
    if (!gate.ok) {
      this.unblock(groupKey);
      return this.refuse(groupKey, gate.reason, gate.steady, gate.message);
    }
    const backoff = (state.backoffUntil ?? 0) - this.now();
    if (backoff > 0 && state.waiting !== undefined)
      return { admitted: false, reason: state.waiting.reason, message: state.waiting.message, retryAfterMs: backoff };
    const priority = pending[0] ? podPriority(pending[0]) : 0;
    const ahead = this.higherPriorityWaiting(groupKey, priority);
    if (ahead !== undefined) return this.refuse(groupKey, 'WaitingForCapacity', `pod group ${groupKey} waits behind higher-priority pod group ${ahead}`);
    const verdict = this.judge(groupKey, gate.spec, pending, snapshot);
    if (verdict.admitted) {
      this.unblock(groupKey);
      if (state.failed !== undefined || state.waiting !== undefined) ((state.failed = undefined), (state.waiting = undefined), this.onChange(groupKey));
      return verdict;
    }
    if (verdict.reason === 'WaitingForCapacity') this.blocking.set(groupKey, priority);
    else this.unblock(groupKey);
    return this.refuse(groupKey, verdict.reason, verdict.message, verdict.detail);
  }

  private higherPriorityWaiting(groupKey: string, priority: number): string | undefined {
    for (const [key, other] of this.blocking) {
      if (other <= priority || key === groupKey) continue;
      if (this.sources.group(key) !== undefined) return key;
      this.blocking.delete(key);
    }
    return undefined;
  }

  private unblock(groupKey: string): void {
    if (this.blocking.delete(groupKey)) this.onUnblock();
  }

  /** Groups in the order they get places: higher pod priority, then older PodGroup, then name. */
  order(groupKeys: Iterable<string>): string[] {
    const keyed = [...groupKeys].map((key) => {
      const group = this.sources.group(key);
      const first = this.sources.members(key)[0];
      return { key, priority: first ? podPriority(first) : 0, created: group ? parsePodGroup(group).created : Infinity };
    });
    keyed.sort((a, b) => b.priority - a.priority || a.created - b.created || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return keyed.map((k) => k.key);
  }

  /** The quorum was reached: the wait ends, the wait-time clock stops at the last binding. */
  quorumReached(groupKey: string): void {
    const state = this.state(groupKey);
    state.deadline = undefined;
    state.waiting = undefined;
    state.boundSinceQuorum = 0;
    state.quorumAt = this.now();
    this.onChange(groupKey);
  }

  /** One more member bound; returns the seconds the group waited once its quorum is bound, else undefined. */
  memberBound(groupKey: string, minMember: number): number | undefined {
    const state = this.states.get(groupKey);
    if (state?.quorumAt === undefined || ++state.boundSinceQuorum < minMember || state.firstAttempt === undefined) return undefined;
    const waited = (this.now() - state.firstAttempt) / 1000;
    state.quorumAt = undefined;
    state.firstAttempt = undefined;
    return waited;
  }

  /** The members waiting at permit gave their places up; the group backs off for its timeout (1–30 s). */
  timedOut(groupKey: string, message: string, timeoutSeconds: number): void {
    const state = this.state(groupKey);
    state.deadline = undefined;
    state.backoffUntil = this.now() + Math.min(30, Math.max(1, timeoutSeconds)) * 1000;
    state.waiting = { reason: 'Timeout', message };
    this.onChange(groupKey);
  }

  private refuse(groupKey: string, reason: WaitReason, message: string, detail = message): Admission {
    const state = this.state(groupKey);
    const failed = reason === 'NotEnoughResources' ? message : undefined;
    if (state.waiting?.message !== detail || state.failed !== failed) {
      state.waiting = { reason, message: detail };
      state.failed = failed;
      this.onChange(groupKey);
    }
    return detail === message ? { admitted: false, reason, message } : { admitted: false, reason, message, detail };
  }

  private judge(groupKey: string, spec: ParsedPodGroup, pending: readonly Readonly<KubeObject>[], snapshot: ClusterSnapshot): Admission {
    const members = [...pending].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1)).map((pod) => requestAmounts(podInfoOf(pod)));
    const placedPods = this.liveMembers(groupKey).filter((pod) => snapshot.nodeOf(pod) !== undefined);
    const needed = Math.max(0, spec.minMember - placedPods.length);
    if (needed === 0) return { admitted: true };
    const capacity = clusterCapacity(snapshot);
    const held = sumAmounts(placedPods.map((pod) => requestAmounts(podInfoOf(pod))));
    const quorumNeeds = sumAmounts(members.slice(0, needed));
    const never = this.neverFits(groupKey, spec, members, sumAmounts([held, quorumNeeds]), capacity.allocatable, snapshot);
    if (never !== undefined) return { admitted: false, reason: 'NotEnoughResources', message: never };
    const minResources = spec.minResources === undefined ? undefined : remaining(spec.minResources, held);
    const short = shortfall(quorumNeeds, capacity.free) ?? (minResources && shortfall(minResources, capacity.free));
    if (short !== undefined) {
      const needs = `pod group ${groupKey} needs ${formatAmount(short.resource, short.needed)}`;
      return {
        admitted: false,
        reason: 'WaitingForCapacity',
        message: `${needs}, more than is free now (waiting for capacity)`,
        detail: `${needs}, ${amountText(short.resource, short.available)} free now (waiting for capacity)`,
      };
    }
    const trial = firstFit(members, capacity);
    if (trial >= needed) return { admitted: true };
    const have = placedPods.length + trial;
    return {
      admitted: false,
      reason: 'WaitingForCapacity',
      message: `pod group ${groupKey}: fewer than ${spec.minMember} members have places in the free capacity (waiting for capacity)`,
      detail: `pod group ${groupKey}: only ${have} of ${spec.minMember} members have places in the free capacity (waiting for capacity)`,
    };
  }

  private neverFits(
    groupKey: string,
    spec: ParsedPodGroup,
    members: readonly Amounts[],
    total: Amounts,
    allocatable: Amounts,
    snapshot: ClusterSnapshot,
  ): string | undefined {
    const short = shortfall(total, allocatable) ?? (spec.minResources && shortfall(spec.minResources, allocatable));
    if (short !== undefined) {
      return `pod group ${groupKey} needs ${formatAmount(short.resource, short.needed)}, the cluster has ${amountText(short.resource, short.available)} allocatable`;
    }
    const lone = members.find((member) => fitsNoEmptyNode(member, snapshot));
    if (lone !== undefined) {
      const wants = [...lone]
        .filter(([name]) => name !== 'pods')
        .map(([name, amount]) => formatAmount(name, amount))
        .join(', ');
      return `pod group ${groupKey}: a member needs ${wants}, more than any node has allocatable`;
    }
    return undefined;
  }
}

function remaining(total: ReadonlyMap<string, number>, held: Amounts): Amounts {
  const out: Amounts = new Map();
  for (const [name, amount] of total) if (amount - (held.get(name) ?? 0) > 0) out.set(name, amount - (held.get(name) ?? 0));
  return out;
}
