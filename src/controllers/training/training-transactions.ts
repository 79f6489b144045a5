// A training job's Transactions, observed rather than called from the reconcile: 'launch' begun
// when the written status shows a new startTime (a start, or a resume), advanced as running
// replicas of all replicas (read from the pods' informer, since the status counts no running
// pods), ended by the Succeeded or Failed condition; 'restart' begun by the Restarting
// condition and ended by Running (or the job's end); 'delete' when the controller deleted the
// job at its ttlSecondsAfterFinished and it left no dependents for the garbage collector (which
// records those). Only the farm member that owns the job's key records them.
import type { KubeObject } from '../../api/meta.js';
import { objectKey, type Informer } from '../../client/index.js';
import { ofOwnedKeys } from '../shape/owned-events.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import type { BeginOptions, TransactionRecorder } from '../transactions/recorder.js';
import { conditionOf, finishedCondition, restartingWhy } from './conditions.js';
import { countPods } from './decide.js';
import type { FrameworkController } from './framework.js';
import { totalReplicas } from './names.js';
import { replicaOf } from './training-sync.js';
import type { TrainingJob } from './types.js';
import type { Pod } from '../../api/core/index.js';

/** What the observer reads besides the jobs. */
export interface ObservedObjects {
  pods: Informer<Pod>;
  services: Informer<KubeObject>;
  podGroups: Informer<KubeObject>;
}

export class TrainingOperations {
  private readonly kind: string;

  constructor(
    private readonly transactions: TransactionRecorder,
    private readonly fc: FrameworkController,
    private readonly objects: ObservedObjects,
  ) {
    this.kind = fc.framework.kind;
  }

  /** `owns`: whether this process reconciles the key. */
  observe(jobs: Informer<TrainingJob>, owns: (key: string) => boolean): void {
    jobs.addEventHandler(
      ofOwnedKeys(owns, {
        onAdd: (job) => {
          this.catchUp(job);
          this.settle(job);
        },
        onUpdate: (old, job) => {
          this.begin(old, job);
          this.catchUp(job);
          this.settle(job);
        },
        onDelete: (job) => this.deleted(job),
      }),
    );
    // Pods going Running change no status field: the launch's progress follows the pods themselves.
    const progress = (pod: Readonly<Pod>) => {
      const ref = pod.metadata.ownerReferences?.find((r) => r.controller === true && r.kind === this.kind);
      const job = ref && jobs.getByName(pod.metadata.namespace, ref.name);
      if (job && job.metadata.uid === ref.uid && owns(objectKey(job)) && !finishedCondition(job)) this.progress(job);
    };
    this.objects.pods.addEventHandler({ onAdd: progress, onUpdate: (_old, pod) => progress(pod), onDelete: progress });
  }

  /** A new startTime begins the launch; a Restarting condition written anew, a restart. */
  private begin(old: Readonly<TrainingJob>, job: Readonly<TrainingJob>): void {
    const start = job.status?.startTime;
    if (start && start !== old.status?.startTime) {
      void this.transactions.begin(job, 'launch', this.launchOf(job));
    }
    const restarting = conditionOf(job.status, 'Restarting');
    const before = conditionOf(old.status, 'Restarting');
    if (!restarting || (before?.message === restarting.message && before?.lastUpdateTime === restarting.lastUpdateTime)) return;
    const why = restartingWhy(this.kind, job, restarting.message ?? '');
    if (why !== undefined) void this.transactions.begin(job, 'restart', { reason: why, total: this.restartTotal(job, why), done: 0 });
  }

  /** A running job whose (re)start nobody recorded (it began while no member watched it: a restart, a shard taken over) begins it now. */
  private catchUp(job: Readonly<TrainingJob>): void {
    const start = job.status?.startTime;
    if (start && !finishedCondition(job)) this.transactions.beginUnlessRecordedSince(job, 'launch', start, this.launchOf(job));
  }

  private launchOf(job: Readonly<TrainingJob>): BeginOptions {
    return { reason: `${this.kind} started`, total: totalReplicas(this.fc.framework, job), done: 0 };
  }

  /** The job's end ends both; Running ends a restart; a running job's launch advances. */
  private settle(job: Readonly<TrainingJob>): void {
    const name = `${this.kind} ${job.metadata.namespace}/${job.metadata.name}`;
    const finished = finishedCondition(job);
    if (finished) {
      const message = conditionOf(job.status, finished)?.message ?? '';
      if (this.transactions.isOpen(job, 'restart')) void this.transactions.finish(job, 'restart', finished, message);
      if (this.transactions.isOpen(job, 'launch')) void this.transactions.finish(job, 'launch', finished, message);
      return;
    }
    if (conditionOf(job.status, 'Running') && this.transactions.isOpen(job, 'restart')) {
      void this.transactions.finish(job, 'restart', 'Succeeded', `${name} is running again`);
    }
    this.progress(job);
  }

  /** Running replicas of all, while the job runs (a suspended one's pods going are no progress). */
  private progress(job: Readonly<TrainingJob>): void {
    if (job.spec.runPolicy?.suspend === true || !this.transactions.isOpen(job, 'launch')) return;
    const facts = this.objects.pods.byIndex(CONTROLLER_UID_INDEX, job.metadata.uid ?? '').flatMap((pod) => {
      const replica = replicaOf(this.fc, pod);
      return replica ? [{ pod, ...replica, newRestarts: 0, failureCounted: false }] : [];
    });
    const running = Object.values(countPods(this.fc, job, facts)).reduce((sum, c) => sum + c.running, 0);
    void this.transactions.progress(job, 'launch', running, totalReplicas(this.fc.framework, job));
  }

  /** Pods recreated: the whole gang, or the failed pods the reason names. */
  private restartTotal(job: Readonly<TrainingJob>, why: string): number {
    if (job.spec.runPolicy?.restartScope === 'Gang') return totalReplicas(this.fc.framework, job);
    return why.slice(why.indexOf(': ') + 2).split(', ').length;
  }

  /**
   * Deleted past its ttlSecondsAfterFinished: the controller's deletion. Its dependents (still
   * in the caches, deleted in the background) make it the garbage collector's to record.
   */
  private deleted(job: Readonly<TrainingJob>): void {
    const ttl = job.spec.runPolicy?.ttlSecondsAfterFinished;
    const completed = Date.parse(job.status?.completionTime ?? '');
    if (ttl === undefined || ttl === null || !finishedCondition(job) || !(completed + ttl * 1000 <= Date.now())) return;
    const uid = job.metadata.uid ?? '';
    const live = (objects: readonly Readonly<KubeObject>[]) => objects.some((o) => !o.metadata.deletionTimestamp);
    const group = this.objects.podGroups.get(objectKey(job));
    const dependents =
      live(this.objects.pods.byIndex(CONTROLLER_UID_INDEX, uid)) ||
      live(this.objects.services.byIndex(CONTROLLER_UID_INDEX, uid)) ||
      (group !== undefined && !group.metadata.deletionTimestamp);
    if (dependents) return;
    const reason = `ttlSecondsAfterFinished (${ttl}s) passed`;
    void this.transactions.once(job, 'delete', { reason }, 'Succeeded', `${this.kind} ${job.metadata.namespace}/${job.metadata.name} deleted`);
  }
}
