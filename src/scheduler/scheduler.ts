// The scheduler process loop: informers keep the cluster snapshot current, pending pods go
// through the framework one at a time (the scheduling cycle is synchronous and fast), and
// bindings run concurrently in the background, as kube-scheduler's binding cycle does.
// Pods that fit nowhere wait in an unschedulable set until the cluster changes. Members of a
// pod group (gang) are taken out of the arrival order and placed group by group, in the
// groups' order, each group's members one after another (see gang/). The queue takes higher
// priority first; a pod that fits nowhere may preempt lower-priority pods (see preemption/).
import { metaTime, type KubeObject } from '../api/meta.js';
import { EventRecorder, SharedInformerFactory, isConflict, objectKey, resources, type ApiClient, type Informer } from '../client/index.js';
import { apiBinder } from './api-binder.js';
import { createScheduler } from './index.js';
import { ClusterSnapshot } from './snapshot.js';
import type { ScheduleResult, Unschedulable } from './framework.js';
import { GangScheduling } from './gang/gang-scheduling.js';
import { groupKeyOf } from './gang/pod-group.js';
import { WaitingPods, type WaitingPod } from './waiting-pods.js';
import { messageOf } from './status.js';
import { podGroupAttempts, podSchedulingDuration, scheduleAttempts } from '../metrics/component-metrics.js';
import { podStartStages } from '../metrics/pod-start-stages.js';
import { podPriority } from '../api/scheduling/priority.js';
import { budgetOf } from './preemption/budgets.js';
import { Preemptor } from './preemption/preemptor.js';
import { VolumeBinding } from './volume-binding.js';
import type { Pod, PodSpec } from '../api/core/index.js';

export interface SchedulerConfig {
  api: ApiClient;
  /** Pods whose spec.schedulerName is this are ours. */
  schedulerName?: string;
  /** Bindings in flight at once. */
  bindConcurrency?: number;
  /** Unschedulable pods are retried at least this often even when nothing changes. */
  unschedulableRetryMs?: number;
  /**
   * Informers shared with other components of this process (the controllers of `drover
   * server`): one watch and one cache of every pod instead of two. Their owner starts and stops
   * them. Without it the scheduler keeps its own.
   */
  informers?: SharedInformerFactory;
}

export interface RunningScheduler {
  stop(): Promise<void>;
  /** Pods bound so far (for benchmarks and tests). */
  readonly bound: number;
}

export async function startScheduler(config: SchedulerConfig): Promise<RunningScheduler> {
  const loop = new SchedulingLoop(config);
  await loop.start();
  return loop;
}

class SchedulingLoop implements RunningScheduler {
  private readonly api: ApiClient;
  private readonly schedulerName: string;
  private readonly snapshot = new ClusterSnapshot();
  private readonly framework;
  private readonly recorder;
  private readonly nodes: Informer<KubeObject>;
  private readonly pods: Informer<KubeObject>;
  private readonly budgets: Informer<KubeObject>;
  private readonly preemptor: Preemptor;
  /** The shared informers given, or the scheduler's own. */
  private readonly informers: SharedInformerFactory;
  /** Keys of pending pods to try, in arrival order (a Set de-duplicates). */
  private readonly active = new Set<string>();
  /** Scheduling attempts per pod not yet bound (the attempts label of the latency metric). */
  private readonly attempts = new Map<string, number>();
  /** Pods that fit nowhere, waiting for a cluster change; key → time they were parked. */
  private readonly unschedulable = new Map<string, number>();
  /** Why each pod that fit nowhere does not: the message last set out to be written on it. */
  private readonly reporting = new Map<string, string>();
  /**
   * Pods whose message met a newer pod than the attempt saw (the cache behind the server, e.g.
   * behind this scheduler's own previous write): written on that version when it arrives, since
   * a parked pod's update does not bring it back to the queue.
   */
  private readonly unwritten = new Set<string>();
  /** Keys currently between the scheduling cycle and the end of their binding. */
  private readonly inFlight = new Set<string>();
  /** Pods held at permit (assumed on a node) until their gang is complete or gives up. */
  private readonly waiting = new WaitingPods();
  private readonly gang: GangScheduling;
  private readonly volumes: VolumeBinding;
  private readonly retryTimer: NodeJS.Timeout;
  private readonly unsubscribe: Array<() => void> = [];
  private scheduled = false;
  private stopped = false;
  private binding = 0;
  bound = 0;

  constructor(private readonly config: SchedulerConfig) {
    this.api = config.api;
    this.schedulerName = config.schedulerName ?? 'default-scheduler';
    this.recorder = new EventRecorder(this.api, this.schedulerName);
    this.informers = config.informers ?? new SharedInformerFactory(this.api);
    this.nodes = this.informers.informerFor(resources.nodes);
    this.pods = this.informers.informerFor(resources.pods);
    this.gang = new GangScheduling(
      this.api,
      this.informers,
      this.pods,
      this.snapshot,
      this.waiting,
      this.recorder,
      (pod) => this.isOurs(pod),
      this.schedulerName === 'default-scheduler',
    );
    this.volumes = new VolumeBinding(this.api, this.informers);
    // VolumeBinding's bind stage annotates late-binding claims, then hands the pod to the binder.
    this.framework = createScheduler({}, [this.gang.plugin, this.volumes.plugin, apiBinder(this.api)]);
    this.budgets = this.informers.informerFor(resources.poddisruptionbudgets);
    this.preemptor = new Preemptor({
      api: this.api,
      framework: this.framework,
      recorder: this.recorder,
      schedulerName: this.schedulerName,
      budgets: () => this.budgets.list().map(budgetOf),
    });
    this.gang.manager.onUnblock = () => this.retrySoon();
    this.waiting.handlers = {
      onAllow: (w) => this.bindPod(w.key, w.pod, w.node),
      onReject: (w, status) => this.rejectWaiting(w, messageOf(status)),
      onTimeout: (w) => (w.group === undefined ? this.waiting.reject(w.key, 'timed out waiting at permit') : this.gang.plugin.timeout(w.group, this.snapshot)),
    };
    const retryMs = config.unschedulableRetryMs ?? 30_000;
    this.retryTimer = setInterval(() => this.retryUnschedulable(), retryMs);
    this.retryTimer.unref();
  }

  async start(): Promise<void> {
    // A shared informer's resync re-delivers unchanged objects (old === new): nothing to do.
    this.unsubscribe.push(
      this.nodes.addEventHandler({
        onAdd: (node) => this.nodeChanged(node),
        onUpdate: (old, node) => old !== node && this.nodeChanged(node),
        onDelete: (node) => {
          this.snapshot.removeNode(node.metadata.name!);
          this.retryUnschedulable();
        },
      }),
    );
    this.unsubscribe.push(
      this.pods.addEventHandler({
        onAdd: (pod) => this.podChanged(pod, true),
        onUpdate: (old, pod) => old !== pod && this.podChanged(pod, false),
        onDelete: (pod) => this.podDeleted(pod),
      }),
    );
    this.gang.start((group) => this.requeueGroup(group));
    this.unsubscribe.push(...this.volumes.start(() => this.retryUnschedulable()));
    this.informers.start();
    await Promise.all([this.nodes.waitForSync(), this.pods.waitForSync(), this.gang.waitForSync(), this.volumes.waitForSync()]);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.retryTimer);
    this.waiting.clear();
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    await this.gang.stop();
    if (!this.config.informers) await this.informers.stop();
    await this.recorder.flush();
  }

  private nodeChanged(node: KubeObject): void {
    this.snapshot.updateNode(node);
    this.retryUnschedulable();
  }

  private isOurs(pod: KubeObject): boolean {
    const spec: PodSpec | undefined = (pod as Pod).spec;
    return (spec?.schedulerName ?? 'default-scheduler') === this.schedulerName;
  }

  private podChanged(pod: KubeObject, added: boolean): void {
    const spec: PodSpec | undefined = (pod as Pod).spec;
    const key = objectKey(pod);
    const group = groupKeyOf(pod);
    if (group !== undefined) this.gangMemberChanged(group, added);
    if (spec?.nodeName) {
      this.snapshot.addPod(pod);
      this.preemptor.forget(key);
      this.active.delete(key);
      this.unschedulable.delete(key);
      this.forgetReport(key);
      this.attempts.delete(key);
      return;
    }
    if (pod.metadata.deletionTimestamp || !this.isOurs(pod) || this.inFlight.has(key) || this.waiting.has(key)) return;
    if (added) podStartStages.mark(pod, 'schedulerSeen');
    if (this.unschedulable.has(key)) {
      if (this.unwritten.has(key)) void this.reportUnschedulable(pod, this.reporting.get(key)!);
      return;
    }
    this.active.add(key);
    this.kick();
  }

  private podDeleted(pod: KubeObject): void {
    const key = objectKey(pod);
    this.attempts.delete(key);
    this.active.delete(key);
    this.unschedulable.delete(key);
    this.forgetReport(key);
    this.preemptor.forget(key);
    this.waiting.reject(key, 'the pod was deleted');
    const group = groupKeyOf(pod);
    if (group !== undefined) this.gang.podChanged(group);
    if ((pod as Pod).spec?.nodeName) {
      this.snapshot.removePod(pod);
      // Freed resources may fit a waiting pod.
      this.retryUnschedulable();
    }
  }

  private retryUnschedulable(): void {
    if (this.unschedulable.size === 0) return;
    for (const key of this.unschedulable.keys()) this.active.add(key);
    this.unschedulable.clear();
    this.kick();
  }

  /** Schedules the active pods in a macrotask, yielding between batches so I/O keeps flowing. */
  private kick(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    const maxBindings = this.config.bindConcurrency ?? 64;
    let budget = 256;
    let groups: Set<string> | undefined;
    for (const key of this.byPriority()) {
      if (this.stopped || budget-- === 0 || this.binding >= maxBindings) break;
      this.active.delete(key);
      const pod = this.pods.get(key);
      if (!pod || (pod as Pod).spec.nodeName || pod.metadata.deletionTimestamp) continue;
      const group = groupKeyOf(pod);
      // A member of a group that has its quorum (a replacement pod) is placed on its own.
      if (group !== undefined && !this.gang.manager.isSatisfied(group, this.snapshot)) (groups ??= new Set()).add(group);
      else this.scheduleOne(key, pod);
    }
    if (groups !== undefined) for (const group of this.gang.manager.order(groups)) this.scheduleGroup(group);
    if (this.active.size > 0 && this.binding < maxBindings) this.kick();
  }

  /**
   * The active keys, higher priority first and in arrival order within a priority (kube-
   * scheduler's PrioritySort). Bucketed by priority rather than sorted: a cluster has a handful
   * of priorities and may have tens of thousands of pending pods. With a single priority the
   * set itself is returned (drain deletes the key it is at, which a Set's iterator allows).
   */
  private byPriority(): Iterable<string> {
    const buckets = new Map<number, string[]>();
    for (const key of this.active) {
      const pod = this.pods.get(key);
      const priority = pod === undefined ? 0 : podPriority(pod);
      let bucket = buckets.get(priority);
      if (bucket === undefined) buckets.set(priority, (bucket = []));
      bucket.push(key);
    }
    if (buckets.size <= 1) return this.active;
    return [...buckets.keys()].sort((a, b) => b - a).flatMap((priority) => buckets.get(priority)!);
  }

  /**
   * One gang: admitted only when its free-capacity check and trial placement pass, then its
   * members are placed one after another, so the quorum is reached in one go when it fits.
   */
  private scheduleGroup(group: string): void {
    const pending: Array<[string, KubeObject]> = [];
    for (const pod of this.gang.unboundMembers(group)) {
      const key = objectKey(pod);
      if (!this.isOurs(pod) || this.inFlight.has(key) || this.waiting.has(key)) continue;
      this.active.delete(key);
      this.unschedulable.delete(key);
      pending.push([key, pod]);
    }
    if (pending.length === 0) return;
    const admission = this.gang.manager.admit(
      group,
      pending.map(([, pod]) => pod),
      this.snapshot,
    );
    podGroupAttempts.inc({ result: admission.admitted ? 'admitted' : admission.reason === 'NotEnoughResources' ? 'failed' : 'unschedulable' });
    if (!admission.admitted) {
      // One retry timer for the group is enough: a retry takes every parked pod. A member that
      // already says why is parked quietly: a gang is retried on every change in the cluster.
      pending.forEach(([key, pod], i) => {
        const retry = i === 0 && admission.retryAfterMs !== undefined ? { retryAfterMs: admission.retryAfterMs } : {};
        if (retry.retryAfterMs === undefined && unschedulableMessage(pod) === admission.message) this.unschedulable.set(key, Date.now());
        else this.markUnschedulable(key, pod, { unschedulable: true, message: admission.message, reasonsPerNode: {}, ...retry });
      });
      return;
    }
    for (const [key, pod] of pending) this.scheduleOne(key, pod);
  }

  /** A member changed (its group's status may say so); a new one may complete a group parked for too few members. */
  private gangMemberChanged(group: string, added: boolean): void {
    this.gang.podChanged(group);
    if (added) this.requeueGroup(group);
  }

  private requeueGroup(group: string): void {
    let moved = false;
    for (const pod of this.gang.unboundMembers(group)) {
      const key = objectKey(pod);
      if (this.unschedulable.delete(key)) (this.active.add(key), (moved = true));
    }
    if (moved) this.kick();
  }

  private scheduleOne(key: string, pod: KubeObject): void {
    // Room that preemption made for pods of at least this priority is not this pod's to take.
    const release = this.preemptor.holdRoomFor(key, pod, this.snapshot);
    this.attempts.set(key, (this.attempts.get(key) ?? 0) + 1);
    let result: ScheduleResult;
    try {
      result = this.framework.schedulePod(pod, this.snapshot, this.preemptor.nominatedNode(key));
      // Fits nowhere: make room by preemption if it may; it comes back once the victims are gone.
      if ('unschedulable' in result) this.preemptor.preempt(key, pod, this.snapshot);
    } finally {
      release();
    }
    if ('unschedulable' in result) return this.markUnschedulable(key, pod, result);
    if (result.permit === 'wait') {
      // Held by a permit plugin (a gang not yet complete), which allows or rejects it later.
      this.waiting.add({ key, pod, node: result.node, group: groupKeyOf(pod) }, result.timeoutMs);
      return;
    }
    this.bindPod(key, pod, result.node);
  }

  /** A waiting pod lost its place (its gang timed out or a sibling was rejected): unreserve, park. */
  private rejectWaiting(waiting: WaitingPod, message: string): void {
    this.framework.abandon(waiting.pod, waiting.node, this.snapshot);
    const pod = this.pods.get(waiting.key);
    if (pod !== undefined && !pod.metadata.deletionTimestamp) this.markUnschedulable(waiting.key, pod, { unschedulable: true, message, reasonsPerNode: {} });
    if (waiting.group !== undefined) this.gang.podChanged(waiting.group);
    // The places it held may fit someone else now.
    this.retrySoon();
  }

  private retrySoon(): void {
    setImmediate(() => this.retryUnschedulable());
  }

  private bindPod(key: string, pod: KubeObject, node: string): void {
    const group = groupKeyOf(pod);
    this.inFlight.add(key);
    this.binding++;
    podStartStages.mark(pod, 'bindSent');
    this.framework
      .bind(pod, node)
      .then(
        () => {
          this.bound++;
          this.recordScheduled(key, pod);
          if (group !== undefined) this.gang.memberBound(group);
          void this.recorder.record(pod, 'Normal', 'Scheduled', `Successfully assigned ${key} to ${node}`);
        },
        (error: unknown) => {
          this.framework.abandon(pod, node, this.snapshot);
          scheduleAttempts.inc({ result: 'error', profile: this.schedulerName });
          // The pod may have been bound or deleted meanwhile; the informer will tell. Else retry.
          if (this.pods.get(key)) this.unschedulable.set(key, Date.now());
          console.error(`scheduler: binding ${key} to ${node} failed: ${(error as Error).message}`);
        },
      )
      .finally(() => {
        this.inFlight.delete(key);
        this.binding--;
        this.kick();
      });
  }

  private recordScheduled(key: string, pod: KubeObject): void {
    scheduleAttempts.inc({ result: 'scheduled', profile: this.schedulerName });
    const created = Date.parse(pod.metadata.creationTimestamp ?? '');
    const attempts = String(this.attempts.get(key) ?? 1);
    this.attempts.delete(key);
    if (Number.isFinite(created)) podSchedulingDuration.observe({ attempts }, Math.max(0, Date.now() - created) / 1000);
  }

  private markUnschedulable(key: string, pod: KubeObject, result: Unschedulable): void {
    scheduleAttempts.inc({ result: 'unschedulable', profile: this.schedulerName });
    this.unschedulable.set(key, Date.now());
    if (result.retryAfterMs !== undefined) setTimeout(() => this.retryUnschedulable(), result.retryAfterMs).unref();
    void this.recorder.record(pod, 'Warning', 'FailedScheduling', result.message);
    void this.reportUnschedulable(pod, result.message);
  }

  /** PodScheduled=False/Unschedulable with the reason, as kube-scheduler writes it. */
  private async reportUnschedulable(pod: KubeObject, message: string): Promise<void> {
    const key = objectKey(pod);
    this.reporting.set(key, message);
    this.unwritten.delete(key);
    if (unschedulableMessage(pod) === message) return;
    const condition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null, lastTransitionTime: metaTime() };
    // On the pod as this attempt saw it: one bound meanwhile (by hand, or by another scheduler)
    // must not be marked unschedulable after the fact; a newer unbound one gets the message (reportOnNewer).
    const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion }, status: { conditions: [condition] } };
    try {
      await this.api.resource(resources.pods, pod.metadata.namespace).patch(pod.metadata.name!, 'strategic', patch, { subresource: 'status' });
    } catch (error) {
      // A later attempt's message supersedes this one.
      if (isConflict(error)) {
        if (this.reporting.get(key) === message) this.reportOnNewer(key, pod, message);
      } else console.error(`scheduler: status of ${key}: ${(error as Error).message}`);
    }
  }

  private forgetReport(key: string): void {
    this.reporting.delete(key);
    this.unwritten.delete(key);
  }

  /** The server has a newer pod than `seen`: the message is written on it once the cache has it (a bound one there ends this). */
  private reportOnNewer(key: string, seen: KubeObject, message: string): void {
    const cached = this.pods.get(key);
    if (cached === undefined || cached.metadata.resourceVersion === seen.metadata.resourceVersion) this.unwritten.add(key);
    else if (this.unschedulable.has(key) && !(cached as Pod).spec?.nodeName) void this.reportUnschedulable(cached, message);
  }
}

/** The message of the pod's PodScheduled=False condition, if it has one. */
function unschedulableMessage(pod: KubeObject): string | undefined {
  const status = (pod as Pod).status;
  const current = status?.conditions?.find((c) => c.type === 'PodScheduled');
  return current?.status === 'False' ? current.message : undefined;
}
