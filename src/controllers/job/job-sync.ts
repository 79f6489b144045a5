// One pass over one Job (syncJob): count the pods that finished, decide whether the Job ends
// (backoffLimit, activeDeadlineSeconds, completions), create or delete pods, record outcomes
// through the tracking finalizer, write the status, and leave events. Its Transactions are read
// from the status written (job-transactions.ts).
import { metaTime } from '../../api/meta.js';
import { objectKey, resources, type ApiClient, type EventRecorder, type EventType, type Expectations, type ReconcileResult } from '../../client/index.js';
import type { FailureBackoff } from './failure-backoff.js';
import { formatIndexes, parseIndexes } from './indexes.js';
import { PodActionError, type JobPodActions } from './job-pod-actions.js';
import {
  completed,
  deadlineRemainingMs,
  failedBackoff,
  failedDeadline,
  newCondition,
  pastBackoffLimitOnFailure,
  REASON_BACKOFF_LIMIT,
  setCondition,
} from './job-status.js';
import { planJobPods } from './manage-pods.js';
import { classify, flushUncounted, recordUncounted, uncountedOf, type Classification, type Uncounted } from './pod-tracking.js';
import { expireAfterFinished } from './ttl.js';
import { jsonEqual } from '../../util/json-equal.js';
import {
  findCondition,
  finishedCondition,
  hasTrackingFinalizer,
  isActive,
  isFinished,
  isIndexed,
  type Job,
  type JobCondition,
  type JobStatus,
} from './types.js';
import type { WrittenStatus } from './written-status.js';
import type { Pod } from '../../api/core/index.js';
import { isPodReady } from '../../api/core/pod-conditions.js';

export interface SyncDeps {
  api: ApiClient;
  recorder: EventRecorder;
  expectations: Expectations;
  actions: JobPodActions;
  backoff: FailureBackoff;
  written: WrittenStatus;
}

type Event = [EventType, string, string];

export function syncJob(deps: SyncDeps, job: Readonly<Job>, pods: readonly Readonly<Pod>[]): Promise<ReconcileResult | void> {
  return new JobPass(deps, job, pods).run();
}

/** The facts one pass works from, and what it gathers on the way. */
class JobPass {
  private readonly now = new Date();
  private readonly nowMs = this.now.getTime();
  private readonly uid: string;
  private readonly completions: number | undefined;
  private readonly indexed: boolean;
  private readonly status: JobStatus;
  private readonly uncounted: Uncounted;
  private readonly recordedIndexes: Set<number>;
  private readonly alreadyFinished: boolean;
  private readonly suspended: boolean;
  private readonly active: Readonly<Pod>[];
  private readonly events: Event[] = [];
  private readonly errors: unknown[] = [];
  private current: Readonly<Job>;

  constructor(
    private readonly deps: SyncDeps,
    private readonly job: Readonly<Job>,
    private readonly pods: readonly Readonly<Pod>[],
  ) {
    this.current = job;
    this.uid = job.metadata.uid!;
    this.completions = job.spec.completions ?? undefined;
    this.indexed = isIndexed(job) && this.completions !== undefined;
    this.status = structuredClone(job.status ?? {});
    this.uncounted = uncountedOf(this.status);
    this.recordedIndexes = this.indexed ? parseIndexes(this.status.completedIndexes, this.completions!) : new Set<number>();
    this.alreadyFinished = finishedCondition(job) !== undefined;
    this.suspended = job.spec.suspend === true;
    this.active = pods.filter(isActive);
  }

  async run(): Promise<ReconcileResult | void> {
    let outcomes = this.classify(this.alreadyFinished);
    const succeededIndexes = new Set([...this.recordedIndexes, ...outcomes.newIndexes]);
    const succeeded = this.indexed ? succeededIndexes.size : (this.status.succeeded ?? 0) + this.uncounted.succeeded.size + outcomes.newSucceeded.length;
    const failed = (this.status.failed ?? 0) + this.uncounted.failed.size + outcomes.newFailed.length;
    this.deps.backoff.observe(this.uid, outcomes.newSucceeded.length + outcomes.newIndexes.length, outcomes.newFailed, this.nowMs);

    const finishing = this.alreadyFinished ? undefined : this.decideFinish(succeeded, failed);
    if (!this.alreadyFinished && !finishing) this.suspendOrStart();
    const { activeCount, requeueAfterMs } = await this.managePods(finishing !== undefined, succeeded, succeededIndexes);

    if (finishing) outcomes = this.classify(true); // every pod not succeeded now counts as failed
    const stillUncounted = await this.recordOutcomes(outcomes, succeededIndexes);

    // The rest of the status; the final condition only once every outcome is counted.
    const status = this.status;
    status.active = activeCount;
    status.ready = this.alreadyFinished || finishing ? 0 : this.active.filter(isPodReady).length;
    status.terminating = this.pods.filter((p) => p.metadata.deletionTimestamp && !isFinished(p)).length;
    const finishNow = finishing !== undefined && stillUncounted === 0;
    if (finishNow) {
      setCondition(status, finishing);
      if (finishing.type === 'Complete') status.completionTime = finishing.lastTransitionTime!;
      this.events.push(finishedEvent(finishing));
    }
    if (!jsonEqual(status, this.current.status ?? {})) this.current = await writeStatus(this.deps, this.current, status);

    for (const [type, reason, message] of this.events) void this.deps.recorder.record(this.current, type, reason, message);
    if (this.errors.length > 0) throw new PodActionError(this.errors, 'operation(s)');
    if (finishing && !finishNow) throw new Error(`job ${objectKey(this.job)}: ${stillUncounted} finished pod(s) not yet counted`);
    return this.nextLook(requeueAfterMs);
  }

  private classify(jobFinished: boolean): Classification {
    return classify({
      pods: this.pods,
      uncounted: this.uncounted,
      jobFinished,
      released: this.deps.actions.released.of(this.uid),
      ...(this.indexed ? { indexed: { completions: this.completions!, succeeded: this.recordedIndexes } } : {}),
    });
  }

  /** backoffLimit, then activeDeadlineSeconds, then completions. */
  private decideFinish(succeeded: number, failed: number): JobCondition | undefined {
    const job = this.job;
    if (failed > (job.spec.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, this.pods)) return failedBackoff(this.now);
    if ((deadlineRemainingMs(job, this.status.startTime, this.nowMs) ?? 1) <= 0) return failedDeadline(this.now);
    if (this.suspended) return undefined;
    const complete = this.completions === undefined ? succeeded > 0 && this.active.length === 0 : succeeded >= this.completions;
    return complete ? completed(this.now) : undefined;
  }

  /** The Suspended condition, and the start of the active period. */
  private suspendOrStart(): void {
    const condition = findCondition(this.job, 'Suspended');
    if (this.suspended) {
      if (condition?.status === 'True') return;
      setCondition(this.status, newCondition('Suspended', 'JobSuspended', 'Job suspended', this.now));
      this.events.push(['Normal', 'Suspended', 'Job suspended']);
      return;
    }
    if (condition?.status === 'True') {
      // activeDeadlineSeconds counts continuous activity: a resumed Job starts afresh.
      setCondition(this.status, newCondition('Suspended', 'JobResumed', 'Job resumed', this.now, 'False'));
      this.events.push(['Normal', 'Resumed', 'Job resumed']);
      this.status.startTime = metaTime(this.now);
    }
    this.status.startTime ??= metaTime(this.now);
  }

  /** The pods the pass plans (planJobPods), carried out; returns the active count that leaves. */
  private async managePods(
    finishing: boolean,
    succeeded: number,
    succeededIndexes: ReadonlySet<number>,
  ): Promise<{ activeCount: number; requeueAfterMs?: number }> {
    const { deps, job, active, uid } = this;
    const ending = this.alreadyFinished || finishing;
    if (!deps.expectations.satisfied(uid)) return { activeCount: ending ? 0 : active.length };
    const plan = planJobPods({
      job,
      active,
      succeeded,
      succeededIndexes,
      ending,
      suspended: this.suspended,
      backoffMs: deps.backoff.remainingMs(uid, this.nowMs),
    });
    const outcome = await deps.actions.carryOut(job, plan);
    this.errors.push(...outcome.errors);
    const activeCount = ending ? 0 : active.length - outcome.deleted.length + outcome.created.length;
    return plan.retryAfterMs === undefined ? { activeCount } : { activeCount, requeueAfterMs: plan.retryAfterMs };
  }

  /** Records new outcomes, releases their pods' finalizers, counts them; returns how many stay uncounted. */
  private async recordOutcomes(outcomes: Classification, succeededIndexes: ReadonlySet<number>): Promise<number> {
    const { deps, status, uncounted, uid } = this;
    const recorded = recordUncounted(status, uncounted, outcomes);
    if (this.indexed) {
      const text = formatIndexes(succeededIndexes);
      if (text) status.completedIndexes = text;
      else delete status.completedIndexes;
      status.succeeded = succeededIndexes.size;
    }
    if (recorded) this.current = await writeStatus(deps, this.current, status);
    const release = await deps.actions.release(uid, outcomes.releasable);
    this.errors.push(...release.errors);
    const byUid = new Map(this.pods.map((p) => [p.metadata.uid!, p]));
    return flushUncounted(status, uncounted, (podUid) => {
      if (release.released.has(podUid) || deps.actions.released.of(uid).has(podUid)) return false;
      const pod = byUid.get(podUid);
      return pod !== undefined && hasTrackingFinalizer(pod);
    });
  }

  /** The deadline, the TTL and the failure back-off each ask for another look. */
  private async nextLook(requeueAfterMs: number | undefined): Promise<ReconcileResult | void> {
    const current = this.current;
    const deadline = finishedCondition(current) ? undefined : deadlineRemainingMs(current, current.status?.startTime, this.nowMs);
    const ttl = await expireAfterFinished(this.deps.api, current, this.nowMs);
    const next = Math.min(requeueAfterMs ?? Infinity, deadline ?? Infinity, ttl ?? Infinity);
    return Number.isFinite(next) ? { requeueAfterMs: Math.max(0, Math.ceil(next)) + 10 } : undefined;
  }
}

async function writeStatus(deps: SyncDeps, base: Readonly<Job>, status: JobStatus): Promise<Readonly<Job>> {
  const client = deps.api.resource<Job>(resources.jobs, base.metadata.namespace);
  const written = await client.updateStatus({ ...base, status });
  deps.written.wrote(base, written);
  return written;
}

/** The event of the pass that finished the Job. */
function finishedEvent(finishing: JobCondition): Event {
  if (finishing.type === 'Complete') return ['Normal', 'Completed', 'Job completed'];
  return ['Warning', finishing.reason ?? REASON_BACKOFF_LIMIT, finishing.message ?? ''];
}
