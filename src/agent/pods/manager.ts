// The pods bound to this node: an informer (fieldSelector spec.nodeName=<node>) whose handlers
// only enqueue pod uids, and workers that sync one pod at a time per uid (the work queue never
// hands a key to two workers). Keys are uids, not names, so a pod deleted and re-created under
// the same name is two pods. A pod being deleted is ended off the workers (endOffWorker), as
// the kubelet's per-pod goroutines end theirs. Runtime objects of pods the API no longer has
// are cleaned up, after a restart as well: that, with adoption by labels in every sync, is the
// whole of "restart without duplicates".
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BucketRateLimiter,
  ExponentialRateLimiter,
  Informer,
  logRetry,
  WorkQueue,
  resources,
  runController,
  type ApiClient,
  type Logger,
  type RunningController,
} from '../../client/index.js';
import { ownerFilter } from '../agent-labels.js';
import type { KernelLog } from '../node/kernel-log.js';
import { oomKilledContainers } from '../node/kernel-oom-log.js';
import { startLoop, type Loop } from '../util/loop.js';
import { KeyedBackoff } from '../../util/keyed-backoff.js';
import { podUidsInRuntime } from './observe.js';
import type { PodDeps } from './deps.js';
import { PodRecord } from './record.js';
import { syncPod, terminatePod } from './sync/sync-pod.js';
import { followRuntimeEvents } from './runtime-events.js';
import { cleanUpPod } from './sync/clean-up.js';
import type { Pod } from '../../api/core/index.js';
import { podStartStages } from '../../metrics/pod-start-stages.js';

export interface PodManagerOptions {
  deps: PodDeps;
  api: ApiClient;
  logger: Logger;
  workers?: number;
  /** How often runtime objects of unknown pods are looked for. */
  housekeepingMs?: number;
  /** The agent's kernel log follower (started by the agent), read for OOM kills Docker missed. */
  kernelLog: KernelLog;
}

/**
 * Pods synced at once. Docker's own concurrency is bounded where it costs, at container creates
 * and starts (runtime/docker/engine-starts.ts), so the workers only need to be enough for every
 * pod of a burst to be on its way: 50 pods at once, alternating runs of 3 rounds, 2 cores: 16
 * workers 5.3-5.9 s (a pod waited 1.5 s for a worker, median), 48 workers 4.8-5.7 s.
 */
const POD_WORKERS = 48;

/**
 * How fast endings begin: ENDINGS_BURST at once, then ENDINGS_PER_SECOND. Ending a pod costs the
 * Engine lists, stops and removals: 90 begun at once (a Deployment scaled from 100 to 10) took the
 * CPU the control plane needed to see the scale done, 1.1-1.7 s. Bounding how many run at once
 * (16) spared it, but a pod whose process waits out its grace period (30 s by default) held its
 * place all that time: the 17th pod got its stop signal only when one of the first 16 had ended,
 * and 90 such pods took six grace periods. Begun at a bounded rate, every pod of the 90 has its
 * stop signal within 5 s and its grace period runs beside the others'. 16 a second is what 16 at
 * once gave pods of a 1 s grace period (bench:workloads' scale to 10: 0.6-1.1 s, against
 * 0.75-0.95 s with 16 at once; at 32 a second, 1.0-1.6 s).
 */
export const ENDINGS_BURST = 16;
export const ENDINGS_PER_SECOND = 16;

/** Grace for containers of a pod the API no longer has (force-deleted, or unknown). */
const ORPHAN_GRACE_S = 2;

export class PodManager {
  readonly informer: Informer<Pod>;
  private readonly queue = new WorkQueue<string>({ rateLimiter: new ExponentialRateLimiter<string>(500, 30_000) });
  private readonly pods = new Map<string, Readonly<Pod>>();
  private readonly gone = new Map<string, Readonly<Pod>>();
  private readonly records = new Map<string, PodRecord>();
  private readonly abort = new AbortController();
  private controller: RunningController | undefined;
  private housekeeping: Loop | undefined;
  private eventLoops: Array<Promise<void>> = [];
  /** Pods being ended (stopped within their grace period, removed), by uid: see endOffWorker. */
  private readonly ending = new Map<string, Promise<void>>();
  private readonly endingStarts = new BucketRateLimiter<string>(ENDINGS_PER_SECOND, ENDINGS_BURST);
  /** Pods heard of while being ended: looked at again once they are. */
  private readonly heardWhileEnding = new Set<string>();
  /** Back-off of pods whose ending failed: the workers' own forgets each key as its sync returns, before the ending has. */
  private readonly endingBackoff = new KeyedBackoff({ initialMs: 500, maxMs: 30_000, forgetAfterMs: Infinity });

  constructor(private readonly opts: PodManagerOptions) {
    const { deps, logger } = opts;
    this.informer = new Informer<Pod>(opts.api, resources.pods, { fieldSelector: `spec.nodeName=${deps.owner.nodeName}`, logger });
    this.informer.addEventHandler({
      onAdd: (pod) => this.observed(pod),
      onUpdate: (_old, pod) => this.observed(pod),
      onDelete: (pod) => {
        const uid = pod.metadata.uid ?? '';
        this.pods.delete(uid);
        this.seen.delete(uid);
        this.firstSeen.delete(uid);
        this.gone.set(uid, pod);
        this.queue.add(uid);
      },
    });
  }

  /** Told how long a pod took from first seen here to Running (kubelet_pod_start_duration_seconds). */
  onPodStarted: ((seconds: number) => void) | undefined;
  /** When each pod not yet Running was first seen; pods already running when the agent started are not timed. */
  private readonly firstSeen = new Map<string, number>();
  private readonly seen = new Set<string>();

  private observed(pod: Readonly<Pod>): void {
    const uid = pod.metadata.uid ?? '';
    this.pods.set(uid, pod);
    this.timeStart(uid, pod);
    // Our own status write coming back changes nothing worth a sync.
    const written = this.records.get(uid)?.written;
    if (written && written.resourceVersion === pod.metadata.resourceVersion) return;
    this.queue.add(uid);
  }

  private timeStart(uid: string, pod: Readonly<Pod>): void {
    const running = pod.status?.phase === 'Running';
    if (!this.seen.has(uid)) {
      this.seen.add(uid);
      if (running) return;
      this.firstSeen.set(uid, performance.now());
      podStartStages.markIfStarting(pod, 'agentSeen');
      return;
    }
    const since = this.firstSeen.get(uid);
    if (since === undefined || !running) return;
    this.firstSeen.delete(uid);
    this.onPodStarted?.((performance.now() - since) / 1000);
  }

  /** The pods bound to this node, as last seen (with the status this agent wrote). */
  bound(): Iterable<Readonly<Pod>> {
    return this.pods.values();
  }

  async start(): Promise<void> {
    const { deps, logger } = this.opts;
    this.informer.start();
    await this.informer.waitForSync();
    deps.devices.retain(new Set(this.pods.keys()));
    this.controller = runController({
      name: 'pod-workers',
      queue: this.queue,
      workers: this.opts.workers ?? POD_WORKERS,
      logger,
      reconcile: (uid) => this.reconcile(uid),
    });
    for (const runtime of deps.runtimes.all()) {
      this.eventLoops.push(
        followRuntimeEvents(
          runtime,
          deps.owner,
          (uid, event) => {
            // Docker marks a container OOMKilled when the kernel's OOM event reaches it, which
            // can be after the exit was seen and its inspection cached: read it again.
            if (event.type === 'oom') deps.cache.sawOomKill(event.id);
            // Killed by SIGKILL: perhaps by the OOM killer in a way Docker missed (kernel-oom-log.ts).
            if (event.type === 'die' && event.exitCode === 137) this.opts.kernelLog.kick();
            this.queue.add(uid);
          },
          this.abort.signal,
          logger,
        ),
      );
    }
    this.opts.kernelLog.consume(async (messages) => {
      const killed = await this.ownContainers(oomKilledContainers(messages));
      for (const id of killed) deps.cache.sawOomKill(id);
      if (killed.length > 0) this.resyncAll();
    });
    this.housekeeping = startLoop('orphan clean-up', this.opts.housekeepingMs ?? 30_000, () => this.findOrphans(), logger);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.housekeeping?.stop();
    await this.informer.stop();
    await this.controller?.stop();
    await Promise.allSettled(this.ending.values());
    await Promise.all(this.eventLoops);
    for (const uid of this.records.keys()) this.opts.deps.probes.removePod(uid);
  }

  /** The pod is synced again soon (a probe result changed). */
  resync(uid: string): void {
    if (this.pods.has(uid)) this.queue.add(uid);
  }

  /** Every pod is synced again (the runtime came back). */
  resyncAll(): void {
    for (const uid of this.pods.keys()) this.queue.add(uid);
  }

  /** A pod bound here, by namespace and name, from the cache. */
  podByUid(uid: string): Readonly<Pod> | undefined {
    return this.pods.get(uid);
  }

  pod(namespace: string, name: string): Readonly<Pod> | undefined {
    return this.informer.getByName(namespace, name);
  }

  /** Those of `ids` that are this agent's containers: the kernel logs every OOM kill on the machine, other clusters' too. */
  private async ownContainers(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const own = new Set<string>();
    for (const runtime of this.opts.deps.runtimes.all()) {
      for (const container of await runtime.listContainers(ownerFilter(this.opts.deps.owner))) own.add(container.id);
    }
    return ids.filter((id) => own.has(id));
  }

  /** The pod uids of this node's runtime objects, and whether the agent has, or is ending, each pod. */
  async inventory(): Promise<Array<{ uid: string; state: 'running' | 'terminating' | 'unknown' }>> {
    const uids = new Set<string>();
    for (const runtime of this.opts.deps.runtimes.all()) for (const uid of await podUidsInRuntime(runtime, this.opts.deps.owner)) uids.add(uid);
    return [...uids].sort().map((uid) => ({ uid, state: this.pods.has(uid) ? 'running' : this.gone.has(uid) ? 'terminating' : 'unknown' }));
  }

  /**
   * Cleans up the runtime objects of a pod the agent does not have (the data checker found the
   * API has none either) now rather than at the next housekeeping. A pod it has is left alone.
   */
  cleanUpUnknown(uid: string): 'queued' | 'known' {
    if (this.pods.has(uid)) return 'known';
    this.queue.add(uid);
    return 'queued';
  }

  private async findOrphans(): Promise<void> {
    for (const runtime of this.opts.deps.runtimes.all()) {
      const uids = await podUidsInRuntime(runtime, this.opts.deps.owner).catch(() => new Set<string>());
      for (const uid of uids) if (!this.pods.has(uid)) this.queue.add(uid);
    }
  }

  private predecessorCleaning(pod: Readonly<Pod>): boolean {
    if (this.records.has(pod.metadata.uid ?? '')) return false;
    for (const gone of this.gone.values()) {
      if (gone.metadata.name === pod.metadata.name && gone.metadata.namespace === pod.metadata.namespace) return true;
    }
    return false;
  }

  private async reconcile(uid: string): Promise<{ requeueAfterMs?: number } | void> {
    if (this.ending.has(uid)) {
      this.heardWhileEnding.add(uid);
      return;
    }
    const pod = this.pods.get(uid);
    if (!pod) {
      const last = this.gone.get(uid);
      this.endOffWorker(uid, async () => {
        await cleanUpPod(this.opts.deps, uid, last as Pod | undefined, last?.metadata.deletionGracePeriodSeconds ?? ORPHAN_GRACE_S);
        this.records.delete(uid);
        this.gone.delete(uid);
      });
      return;
    }
    // A pod recreated under the name of one just deleted (a training replica, a StatefulSet's)
    // waits until that one is cleaned up: its host ports and sandbox name are free only then.
    if (this.predecessorCleaning(pod)) return { requeueAfterMs: 100 };
    let record = this.records.get(uid);
    if (!record) this.records.set(uid, (record = new PodRecord(pod as Pod)));
    record.pod = pod as Pod;
    if (pod.metadata.deletionTimestamp) {
      const deleted = record;
      this.endOffWorker(uid, () => terminatePod(this.opts.deps, deleted));
      return;
    }
    podStartStages.markIfStarting(pod, 'syncStarted');
    return syncPod(this.opts.deps, record);
  }

  /**
   * Ends a pod without holding a worker: a grace period is 30 s by default, and all of it for a
   * process that ignores SIGTERM (`sleep` or a shell as PID 1). Held by workers, a wave of
   * deletions kept new pods from starting: a rolling update's old pods took most of the workers.
   * While it ends, the uid's syncs only note that they came; one more runs once it has ended.
   */
  private endOffWorker(uid: string, end: () => Promise<void>): void {
    const wait = this.endingStarts.when(uid);
    const ended = (wait > 0 ? sleep(wait) : Promise.resolve())
      .then(end)
      .then(
        () => this.endingBackoff.reset(uid),
        (error: unknown) => {
          logRetry(this.opts.logger, this.endingBackoff.failures(uid), 'ending a pod failed; retrying with back-off', { uid, error });
          this.endingBackoff.next(uid);
          this.queue.addAfter(uid, this.endingBackoff.delay(uid));
          // That retry looks at the pod afresh: what was heard meanwhile must not skip its back-off.
          this.heardWhileEnding.delete(uid);
        },
      )
      .finally(() => {
        this.ending.delete(uid);
        if (this.heardWhileEnding.delete(uid)) this.queue.add(uid);
      });
    this.ending.set(uid, ended);
  }
}
