// What every workload controller is given, and the one way it runs its work queue.
//
// Controllers share one informer factory (one list+watch per kind per process), one event
// recorder and one transaction recorder. In a controller farm (several `drover
// controller-manager` processes) each member owns a set of shards; `ctx.run` reconciles only
// the keys of owned shards and re-enqueues every key of a shard the moment it is acquired.
import type { KubeObject } from '../api/meta.js';
import {
  objectKey,
  runController,
  WorkQueue,
  type ApiClient,
  type EventRecorder,
  type Informer,
  type Logger,
  type ReconcileResult,
  type RunningController,
  type SharedInformerFactory,
} from '../client/index.js';
import type { TransactionRecorder } from './transactions/recorder.js';

/** Which keys this process may reconcile (a farm member's shards; everything when alone). */
export interface ShardOwnership {
  owns(key: string): boolean;
  /** Called with no argument whenever the set of owned shards grows. */
  onAcquire(listener: () => void): () => void;
}

export const ownsEverything: ShardOwnership = { owns: () => true, onAcquire: () => () => {} };

export interface ControllerContext {
  api: ApiClient;
  factory: SharedInformerFactory;
  /** The event recorder of one component (`replicaset-controller`, ...), made once per name. */
  recorder(component: string): EventRecorder;
  transactions: TransactionRecorder;
  shards: ShardOwnership;
  logger(name: string): Logger;
  /** Tunables of single controllers, as kube-controller-manager's flags set them. */
  settings?: ControllerSettings;
}

export interface ControllerSettings {
  /** --horizontal-pod-autoscaler-sync-period: how often each autoscaler is passed (default 15 s). */
  hpaSyncPeriodMs?: number;
}

export interface QueueSpec {
  name: string;
  /** The informer of the kind the queue's keys name: re-read on shard acquisition. */
  primary: Pick<Informer<KubeObject>, 'list'>;
  queue: WorkQueue<string>;
  workers?: number;
  reconcile(key: string): Promise<ReconcileResult | void>;
}

/** A controller as the manager sees it. Construct (registering informers), then start after the factory synced. */
export interface Controller {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

/** Runs a controller's queue, reconciling only the keys this farm member owns. */
export function runOwnedQueue(ctx: ControllerContext, spec: QueueSpec): RunningController {
  const stopListening = ctx.shards.onAcquire(() => {
    for (const object of spec.primary.list()) {
      const key = objectKey(object);
      if (ctx.shards.owns(key)) spec.queue.add(key);
    }
  });
  const options: Parameters<typeof runController<string>>[0] = {
    name: spec.name,
    queue: spec.queue,
    workers: spec.workers ?? 2,
    logger: ctx.logger(spec.name),
    reconcile: async (key) => (ctx.shards.owns(key) ? spec.reconcile(key) : undefined),
  };
  const running = runController(options);
  return {
    done: running.done,
    stop: async () => {
      stopListening();
      await running.stop();
    },
  };
}
