// A training job's Transactions, observed rather than called from the reconcile: 'launch' begun
// when the written status shows a new startTime (a start, or a resume), advanced as running
// replicas of all replicas (read from the pods' informer, since the status counts no running
// pods), ended by the Succeeded or Failed condition; 'restart' begun by the Restarting
// condition, advanced as the recreated replicas run and ended when all of them do (or by the
// job's end) — not by the Running condition, which comes back as soon as the master runs,
// often before a recreated worker is even created; 'delete' when the controller deleted the
// job at its ttlSecondsAfterFinished and it left no dependents for the garbage collector (which
// records those). Only the farm member that owns the job's key records them.
import type { KubeObject } from '../../api/meta.js';
import { controllerRefOf } from '../../api/owner-references.js';
import { objectKey, type Informer } from '../../client/index.js';
import { observeOwned, type OwnedObserver } from '../shape/owned-events.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import type { BeginOptions, TransactionRecorder } from '../transactions/recorder.js';
import { conditionOf, finishedCondition, restartingWhy } from './conditions.js';
import { countPods } from './decide.js';
import type { FrameworkController } from './framework.js';
import { replicaName, replicasOf, replicaSpecsOf, totalReplicas } from './names.js';
import { replicaOf } from './training-sync.js';
import type { TrainingJob } from './types.js';
import type { Pod } from '../../api/core/index.js';

/** What the observer reads besides the jobs. */
export interface ObservedObjects {
  pods: Informer<Pod>;
  services: Informer<KubeObject>;
  podGroups: Informer<KubeObject>;
}

export class TrainingOperations implements OwnedObserver<TrainingJob> {
  private readonly kind: string;
  /** The replicas (pod names) each job's open restart recreates, by job uid; set when its Restarting condition is seen. */
  private readonly restarted = new Map<string, readonly string[]>();

  constructor(
    private readonly transactions: TransactionRecorder,
    private readonly fc: FrameworkController,
    private readonly objects: ObservedObjects,
  ) {
    this.kind = fc.framework.kind;
  }

  /** `owns`: whether this process reconciles the key. */
  observe(jobs: Informer<TrainingJob>, owns: (key: string) => boolean): void {
    observeOwned(jobs, owns, this);
    // Pods going Running change no status field: the launch's progress follows the pods themselves.
    const progress = (pod: Readonly<Pod>) => {
      const ref = controllerRefOf(pod);
      if (ref?.kind !== this.kind) return;
      const job = jobs.getByName(pod.metadata.namespace, ref.name);
      if (job && job.metadata.uid === ref.uid && owns(objectKey(job)) && !finishedCondition(job)) this.progress(job);
    };
    this.objects.pods.addEventHandler({ onAdd: progress, onUpdate: (_old, pod) => progress(pod), onDelete: progress });
  }

  /** A new startTime begins the launch; a Restarting condition written anew, a restart. */
  begin(old: Readonly<TrainingJob>, job: Readonly<TrainingJob>): void {
    const start = job.status?.startTime;
    if (start && start !== old.status?.startTime) {
      void this.transactions.begin(job, 'launch', this.launchOf(job));
    }
    const restarting = conditionOf(job.status, 'Restarting');
    const before = conditionOf(old.status, 'Restarting');
    if (!restarting || (before?.message === restarting.message && before?.lastUpdateTime === restarting.lastUpdateTime)) return;
    const why = restartingWhy(this.kind, job, restarting.message ?? '');
    if (why === undefined) return;
    // A failure while a restart is still open joins it (the recorder keeps one Running restart).
    const uid = job.metadata.uid ?? '';
    const joined = this.transactions.isOpen(job, 'restart') ? (this.restarted.get(uid) ?? []) : [];
    const replicas = [...new Set([...joined, ...this.restartedReplicas(job, why)])];
    this.restarted.set(uid, replicas);
    void this.transactions.begin(job, 'restart', { reason: why, total: replicas.length, done: 0 });
  }

  /** A running job whose (re)start nobody recorded (it began while no member watched it: a restart, a shard taken over) begins it now. */
  catchUp(job: Readonly<TrainingJob>): void {
    const start = job.status?.startTime;
    if (start && !finishedCondition(job)) this.transactions.beginUnlessRecordedSince(job, 'launch', start, this.launchOf(job));
  }

  private launchOf(job: Readonly<TrainingJob>): BeginOptions {
    return { reason: `${this.kind} started`, total: totalReplicas(this.fc.framework, job), done: 0 };
  }

  /** The job's end ends both; otherwise the pods say how far each has got. */
  settle(job: Readonly<TrainingJob>): void {
    const finished = finishedCondition(job);
    if (finished) {
      const message = conditionOf(job.status, finished)?.message ?? '';
      if (this.transactions.isOpen(job, 'restart')) void this.transactions.finish(job, 'restart', finished, message);
      if (this.transactions.isOpen(job, 'launch')) void this.transactions.finish(job, 'launch', finished, message);
      this.restarted.delete(job.metadata.uid ?? '');
      return;
    }
    this.progress(job);
  }

  /**
   * The launch: running replicas of all. A restart: recreated replicas running of those it
   * recreates, ended when all run. Nothing while suspended (its pods going are no progress).
   */
  private progress(job: Readonly<TrainingJob>): void {
    if (job.spec.runPolicy?.suspend === true) return;
    const pods = this.objects.pods.byIndex(CONTROLLER_UID_INDEX, job.metadata.uid ?? '');
    if (this.transactions.isOpen(job, 'launch')) {
      const facts = pods.flatMap((pod) => {
        const replica = replicaOf(this.fc, pod);
        return replica ? [{ pod, ...replica, newRestarts: 0, failureCounted: false }] : [];
      });
      const running = Object.values(countPods(this.fc, job, facts)).reduce((sum, c) => sum + c.running, 0);
      void this.transactions.progress(job, 'launch', running, totalReplicas(this.fc.framework, job));
    }
    if (this.transactions.isOpen(job, 'restart')) {
      // A failed pod stays Failed and a replaced one is deleted first: a live pod of the name that
      // runs (or already ran to its end) is the new one.
      const started = (p: Readonly<Pod>) => p.status?.phase === 'Running' || p.status?.phase === 'Succeeded';
      const live = new Set(pods.filter((p) => !p.metadata.deletionTimestamp && started(p)).map((p) => p.metadata.name));
      // Another member began it (a shard taken over): the whole job running again ends it.
      const replicas = this.restarted.get(job.metadata.uid ?? '') ?? this.allReplicas(job);
      const running = replicas.filter((name) => live.has(name)).length;
      void this.transactions.progress(job, 'restart', running, replicas.length);
      if (running < replicas.length) return;
      this.restarted.delete(job.metadata.uid ?? '');
      void this.transactions.finish(job, 'restart', 'Succeeded', `${this.kind} ${job.metadata.namespace}/${job.metadata.name} is running again`);
    }
  }

  /** Pods recreated: the whole gang, or the failed pods the reason names. */
  private restartedReplicas(job: Readonly<TrainingJob>, why: string): string[] {
    if (job.spec.runPolicy?.restartScope === 'Gang') return this.allReplicas(job);
    return why.slice(why.indexOf(': ') + 2).split(', ');
  }

  private allReplicas(job: Readonly<TrainingJob>): string[] {
    return replicaSpecsOf(this.fc.framework, job).flatMap(([type, spec]) =>
      Array.from({ length: replicasOf(spec) }, (_, index) => replicaName(job.metadata.name!, type, index)),
    );
  }

  /**
   * Deleted past its ttlSecondsAfterFinished: the controller's deletion. Its dependents (still
   * in the caches, deleted in the background) make it the garbage collector's to record.
   */
  deleted(job: Readonly<TrainingJob>): void {
    this.restarted.delete(job.metadata.uid ?? '');
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
