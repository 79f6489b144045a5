// The coscheduling permit plugin (scheduler-plugins' Coscheduling, the same shape): PreFilter
// turns a member away while its group is missing or has fewer members than minMember; Permit
// holds each member (assumed, its resources reserved) until minMember members of the group have
// places, counting members already bound, then allows every waiting sibling at once; Unreserve
// of one member rejects its waiting siblings, and so does the group's timeout: all or none.
// Pods without the group label pass every stage untouched, for the price of one label lookup.
import { podGroupAttempts } from '../../metrics/component-metrics.js';
import { pass, reject, type Plugin, type PreFilterResult } from '../plugin.js';
import { SUCCESS, unschedulable, waitStatus, withPlugin, type Status } from '../status.js';
import type { PodInfo } from '../pod-info.js';
import type { ClusterSnapshot } from '../snapshot.js';
import type { WaitingPods } from '../waiting-pods.js';
import { parsePodGroup, POD_GROUP_LABEL } from './pod-group.js';
import type { PodGroupManager } from './pod-group-manager.js';

const PASS = pass(undefined, { skipFilter: true, skipScore: true });

export function groupKeyOfInfo(pod: PodInfo): string | undefined {
  const name = pod.labels[POD_GROUP_LABEL];
  return name ? `${pod.namespace}/${name}` : undefined;
}

export class Coscheduling implements Plugin<undefined> {
  readonly name = 'Coscheduling';
  /** Groups whose waiting members are being rejected now: their unreserve must not cascade. */
  private readonly rejecting = new Set<string>();

  constructor(
    private readonly manager: PodGroupManager,
    private readonly waiting: WaitingPods,
    private readonly now: () => number = Date.now,
  ) {}

  preFilter(pod: PodInfo, ctx: { snapshot: ClusterSnapshot }): PreFilterResult<undefined> {
    const group = groupKeyOfInfo(pod);
    if (group === undefined) return PASS;
    const gate = this.manager.gate(group, ctx.snapshot);
    return gate.ok ? PASS : reject(gate.message);
  }

  permit(pod: PodInfo, _nodeName: string, snapshot: ClusterSnapshot): Status {
    const group = groupKeyOfInfo(pod);
    if (group === undefined) return SUCCESS;
    const object = this.manager.sources.group(group);
    if (object === undefined) return withPlugin(unschedulable(`pod group ${group} not found`), this.name);
    const spec = parsePodGroup(object);
    // This pod is assumed already, so it counts itself.
    const placed = this.manager.placedCount(group, snapshot);
    if (placed >= spec.minMember) {
      if (placed - 1 < spec.minMember) this.release(group);
      return SUCCESS;
    }
    const state = this.manager.state(group);
    if (state.deadline === undefined) state.deadline = this.now() + spec.timeoutSeconds * 1000;
    return waitStatus(Math.max(0, state.deadline - this.now()));
  }

  unreserve(pod: PodInfo): void {
    const group = groupKeyOfInfo(pod);
    if (group === undefined || this.rejecting.has(group) || this.waiting.groupKeys(group).length === 0) return;
    this.rejectGroup(group, `pod group ${group}: member ${pod.name} lost its place, so the waiting members give theirs up`);
  }

  /** The group's wait ran out: every waiting member is rejected and unreserved. */
  timeout(group: string, snapshot: ClusterSnapshot): void {
    const object = this.manager.sources.group(group);
    const minMember = object ? parsePodGroup(object).minMember : 0;
    const seconds = object ? parsePodGroup(object).timeoutSeconds : 0;
    const message = `pod group ${group}: ${this.manager.placedCount(group, snapshot)} of ${minMember} members have places (timed out after ${seconds}s)`;
    podGroupAttempts.inc({ result: 'timeout' });
    this.manager.timedOut(group, message, seconds);
    this.rejectGroup(group, message);
  }

  rejectGroup(group: string, message: string): void {
    this.rejecting.add(group);
    try {
      for (const key of this.waiting.groupKeys(group)) this.waiting.reject(key, message, this.name);
    } finally {
      this.rejecting.delete(group);
      this.manager.state(group).deadline = undefined;
    }
  }

  private release(group: string): void {
    podGroupAttempts.inc({ result: 'scheduled' });
    this.manager.quorumReached(group);
    for (const key of this.waiting.groupKeys(group)) this.waiting.allow(key);
  }
}
