// The scheduler process loop: informers keep the cluster snapshot current, pending pods go
// through the framework one at a time (the scheduling cycle is synchronous and fast), and
// bindings run concurrently in the background, as kube-scheduler's binding cycle does.
// Pods that fit nowhere wait in an unschedulable set until the cluster changes.
import { metaTime, type KubeObject } from '../api/meta.js';
import { EventRecorder, SharedInformerFactory, objectKey, resources, type ApiClient, type Informer } from '../client/index.js';
import { apiBinder } from './api-binder.js';
import { createScheduler } from './index.js';
import { ClusterSnapshot } from './snapshot.js';
import type { Unschedulable } from './framework.js';

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
  /** The shared informers given, or the scheduler's own. */
  private readonly informers: SharedInformerFactory;
  /** Keys of pending pods to try, in arrival order (a Set de-duplicates). */
  private readonly active = new Set<string>();
  /** Pods that fit nowhere, waiting for a cluster change; key → time they were parked. */
  private readonly unschedulable = new Map<string, number>();
  /** Keys currently between the scheduling cycle and the end of their binding. */
  private readonly inFlight = new Set<string>();
  private readonly retryTimer: NodeJS.Timeout;
  private readonly unsubscribe: Array<() => void> = [];
  private scheduled = false;
  private stopped = false;
  private binding = 0;
  bound = 0;

  constructor(private readonly config: SchedulerConfig) {
    this.api = config.api;
    this.schedulerName = config.schedulerName ?? 'default-scheduler';
    this.framework = createScheduler({}, [apiBinder(this.api)]);
    this.recorder = new EventRecorder(this.api, this.schedulerName);
    this.informers = config.informers ?? new SharedInformerFactory(this.api);
    this.nodes = this.informers.informerFor(resources.nodes);
    this.pods = this.informers.informerFor(resources.pods);
    const retryMs = config.unschedulableRetryMs ?? 30_000;
    this.retryTimer = setInterval(() => this.retryUnschedulable(), retryMs);
    this.retryTimer.unref();
  }

  async start(): Promise<void> {
    // A shared informer's resync re-delivers unchanged objects (old === new): nothing to do.
    this.unsubscribe.push(this.nodes.addEventHandler({
      onAdd: (node) => this.nodeChanged(node),
      onUpdate: (old, node) => old !== node && this.nodeChanged(node),
      onDelete: (node) => {
        this.snapshot.removeNode(node.metadata.name!);
        this.retryUnschedulable();
      },
    }));
    this.unsubscribe.push(this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (old, pod) => old !== pod && this.podChanged(pod),
      onDelete: (pod) => this.podDeleted(pod),
    }));
    this.informers.start();
    await Promise.all([this.nodes.waitForSync(), this.pods.waitForSync()]);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.retryTimer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    if (!this.config.informers) await this.informers.stop();
    await this.recorder.flush();
  }

  private nodeChanged(node: KubeObject): void {
    this.snapshot.updateNode(node);
    this.retryUnschedulable();
  }

  private isOurs(pod: KubeObject): boolean {
    const spec = pod['spec'] as { schedulerName?: string } | undefined;
    return (spec?.schedulerName ?? 'default-scheduler') === this.schedulerName;
  }

  private podChanged(pod: KubeObject): void {
    const spec = pod['spec'] as { nodeName?: string } | undefined;
    const key = objectKey(pod);
    if (spec?.nodeName) {
      this.snapshot.addPod(pod);
      this.active.delete(key);
      this.unschedulable.delete(key);
      return;
    }
    if (pod.metadata.deletionTimestamp || !this.isOurs(pod) || this.inFlight.has(key)) return;
    if (this.unschedulable.has(key)) return;
    this.active.add(key);
    this.kick();
  }

  private podDeleted(pod: KubeObject): void {
    const key = objectKey(pod);
    this.active.delete(key);
    this.unschedulable.delete(key);
    if ((pod['spec'] as { nodeName?: string } | undefined)?.nodeName) {
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
    for (const key of this.active) {
      if (this.stopped || budget-- === 0 || this.binding >= maxBindings) break;
      this.active.delete(key);
      const pod = this.pods.get(key);
      if (!pod || (pod['spec'] as { nodeName?: string }).nodeName || pod.metadata.deletionTimestamp) continue;
      this.scheduleOne(key, pod);
    }
    if (this.active.size > 0 && this.binding < maxBindings) this.kick();
  }

  private scheduleOne(key: string, pod: KubeObject): void {
    const result = this.framework.schedulePod(pod, this.snapshot);
    if ('unschedulable' in result) return this.markUnschedulable(key, pod, result);
    if (result.permit === 'wait') return; // held by a permit plugin (gang scheduling), which releases it
    this.inFlight.add(key);
    this.binding++;
    this.framework.bind(pod, result.node).then(
      () => {
        this.bound++;
        void this.recorder.record(pod, 'Normal', 'Scheduled', `Successfully assigned ${key} to ${result.node}`);
      },
      (error: unknown) => {
        this.framework.abandon(pod, result.node, this.snapshot);
        // The pod may have been bound or deleted meanwhile; the informer will tell. Else retry.
        if (this.pods.get(key)) this.unschedulable.set(key, Date.now());
        console.error(`scheduler: binding ${key} to ${result.node} failed: ${(error as Error).message}`);
      },
    ).finally(() => {
      this.inFlight.delete(key);
      this.binding--;
      this.kick();
    });
  }

  private markUnschedulable(key: string, pod: KubeObject, result: Unschedulable): void {
    this.unschedulable.set(key, Date.now());
    if (result.retryAfterMs !== undefined) setTimeout(() => this.retryUnschedulable(), result.retryAfterMs).unref();
    void this.recorder.record(pod, 'Warning', 'FailedScheduling', result.message);
    void this.reportUnschedulable(pod, result.message);
  }

  /** PodScheduled=False/Unschedulable with the reason, as kube-scheduler writes it. */
  private async reportUnschedulable(pod: KubeObject, message: string): Promise<void> {
    const status = pod['status'] as { conditions?: Array<{ type: string; status: string; message?: string }> } | undefined;
    const current = status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (current?.status === 'False' && current.message === message) return;
    const condition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null, lastTransitionTime: metaTime() };
    try {
      await this.api.resource(resources.pods, pod.metadata.namespace).patch(pod.metadata.name!, 'strategic', { status: { conditions: [condition] } }, { subresource: 'status' });
    } catch (error) {
      console.error(`scheduler: status of ${objectKey(pod)}: ${(error as Error).message}`);
    }
  }
}
