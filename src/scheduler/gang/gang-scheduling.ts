// Gang scheduling's part of the scheduler process: the PodGroup informer, the pod index by
// group, the pod-group manager and the coscheduling plugin over them, and the PodGroup status
// writer (a work queue of group keys: handlers only enqueue, the worker re-reads the caches).
import type { KubeObject } from '../../api/meta.js';
import {
  isNotFound,
  objectKey,
  resources,
  runController,
  WorkQueue,
  type ApiClient,
  type EventRecorder,
  type Informer,
  type RunningController,
  type SharedInformerFactory,
} from '../../client/index.js';
import { podGroupsByPhase, podGroupWait } from '../../metrics/component-metrics.js';
import type { ClusterSnapshot } from '../snapshot.js';
import type { WaitingPods } from '../waiting-pods.js';
import { Coscheduling } from './coscheduling.js';
import { PodGroupManager } from './pod-group-manager.js';
import { desiredStatus, sameStatus } from './pod-group-status.js';
import type { PodGroupPhase } from '../../api/scheduling/pod-group.js';
import { boundNode, groupKeyOf, parsePodGroup } from './pod-group.js';
import { jsonEqual } from '../../util/json-equal.js';

const POD_GROUP_INDEX = 'scheduling.x-k8s.io/pod-group';

/** Module-level, so every component adding the index to a shared informer passes the same function. */
function podGroupIndex(pod: Readonly<KubeObject>): string[] {
  const key = groupKeyOf(pod);
  return key === undefined ? [] : [key];
}

export class GangScheduling {
  readonly manager: PodGroupManager;
  readonly plugin: Coscheduling;
  private readonly groups: Informer<KubeObject>;
  private readonly queue = new WorkQueue<string>();
  private running: RunningController | undefined;
  private readonly phases = new Map<string, PodGroupPhase>();
  /** The last Warning recorded on each PodGroup, so a repeated verdict is not recorded again. */
  private readonly warned = new Map<string, string>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly api: ApiClient,
    informers: SharedInformerFactory,
    private readonly pods: Informer<KubeObject>,
    private readonly snapshot: ClusterSnapshot,
    waiting: WaitingPods,
    private readonly recorder: EventRecorder,
    /** Another scheduler (another spec.schedulerName) writes the status of groups whose pods are its own. */
    private readonly isOurs: (pod: Readonly<KubeObject>) => boolean = () => true,
    private readonly isDefault = true,
  ) {
    this.groups = informers.informerFor(resources.podgroups);
    pods.addIndexer(POD_GROUP_INDEX, podGroupIndex);
    this.manager = new PodGroupManager({
      group: (key) => this.groups.get(key),
      members: (key) => this.pods.byIndex(POD_GROUP_INDEX, key),
    });
    this.manager.onChange = (key) => this.changed(key);
    this.plugin = new Coscheduling(this.manager, waiting);
  }

  /** `groupChanged` is told when a PodGroup appears or changes, so its parked members are retried. */
  start(groupChanged: (groupKey: string) => void): void {
    this.unsubscribe = this.groups.addEventHandler({
      onAdd: (group) => (this.queue.add(objectKey(group)), groupChanged(objectKey(group))),
      onUpdate: (old, group) => {
        if (old === group) return;
        this.queue.add(objectKey(group));
        // Status writes (our own) and nudges change nothing the placement depends on.
        if (!jsonEqual(old['spec'], group['spec'])) groupChanged(objectKey(group));
      },
      onDelete: (group) => {
        this.queue.add(objectKey(group));
        this.plugin.rejectGroup(objectKey(group), `pod group ${objectKey(group)} was deleted`);
      },
    });
    this.running = runController({ name: 'podgroup-status', queue: this.queue, workers: 2, reconcile: (key) => this.writeStatus(key) });
  }

  waitForSync(): Promise<void> {
    return this.groups.waitForSync();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.running?.stop();
    // Another scheduler of this process (a benchmark's next phase) counts its own groups.
    for (const key of [...this.phases.keys()]) this.setPhase(key, undefined);
  }

  /** A member pod changed: its group's status may have to say so. */
  podChanged(groupKey: string): void {
    this.queue.add(groupKey);
  }

  /** Members of the group that wait for a place: unbound and not being deleted. */
  unboundMembers(groupKey: string): Readonly<KubeObject>[] {
    return this.manager.sources.members(groupKey).filter((pod) => boundNode(pod) === undefined && !pod.metadata.deletionTimestamp);
  }

  /** A member was bound: once minMember are, the group's wait is observed. */
  memberBound(groupKey: string): void {
    const group = this.groups.get(groupKey);
    if (group === undefined) return;
    const waited = this.manager.memberBound(groupKey, parsePodGroup(group).minMember);
    if (waited !== undefined) podGroupWait.observe(waited);
  }

  private changed(groupKey: string): void {
    this.queue.add(groupKey);
    const state = this.manager.peek(groupKey);
    const verdict = state?.waiting;
    const group = this.groups.get(groupKey);
    if (group === undefined || verdict === undefined || (verdict.reason !== 'NotEnoughResources' && verdict.reason !== 'Timeout')) return;
    if (this.warned.get(groupKey) === verdict.message) return;
    this.warned.set(groupKey, verdict.message);
    void this.recorder.record(group, 'Warning', verdict.reason === 'Timeout' ? 'FailedScheduling' : 'NotEnoughResources', verdict.message);
  }

  private async writeStatus(groupKey: string): Promise<void> {
    const group = this.groups.get(groupKey);
    if (group === undefined) {
      this.setPhase(groupKey, undefined);
      this.manager.forgetGroup(groupKey);
      this.warned.delete(groupKey);
      return;
    }
    const members = this.manager.sources.members(groupKey);
    // One writer per group: the scheduler of its pods (the default scheduler while it has none).
    if (members.length === 0 ? !this.isDefault : !members.some(this.isOurs)) return;
    const bound = members.filter((pod) => boundNode(pod) !== undefined && !pod.metadata.deletionTimestamp).length;
    const reserved = Math.max(0, this.manager.placedCount(groupKey, this.snapshot) - bound);
    const desired = desiredStatus(group, members, this.manager.peek(groupKey), reserved);
    this.setPhase(groupKey, desired.phase);
    if (sameStatus(group, desired)) return;
    try {
      await this.api
        .resource(resources.podgroups, group.metadata.namespace)
        .patch(group.metadata.name!, 'merge', { status: desired }, { subresource: 'status' });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  private setPhase(groupKey: string, phase: PodGroupPhase | undefined): void {
    const previous = this.phases.get(groupKey);
    if (previous === phase) return;
    if (previous !== undefined) podGroupsByPhase.dec({ phase: previous });
    if (phase === undefined) this.phases.delete(groupKey);
    else (this.phases.set(groupKey, phase), podGroupsByPhase.inc({ phase }));
  }
}
