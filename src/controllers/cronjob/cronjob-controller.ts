// The CronJob controller (`cronjob-controller`, Kubernetes' cronjob controller v2): starts a
// CronJob's Jobs at its scheduled times, keeps status.active in step with them and trims the
// finished ones to the history limits. A pass is cronjob-sync.ts; this file wires informers and
// the queue. Each pass asks to be requeued just after the next scheduled time, so an idle
// CronJob costs nothing between its times.
import { objectKey, resources, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { WrittenStatus } from '../job/written-status.js';
import { syncCronJob, type SyncDeps } from './cronjob-sync.js';
import { cronJobOwner, type CronJob, type Job } from './types.js';

export interface CronJobControllerOptions {
  workers?: number;
  /** Milliseconds since the epoch; tests pass a fake clock. Default Date.now. */
  now?: () => number;
  /** The zone of schedules without spec.timeZone. Default: this process's (TZ, else the system's). */
  defaultTimeZone?: string;
}

/**
 * The longest wait between looks: a timer cannot wait much past 24 days (longer ones fire at
 * once), and a daily look also catches a clock that jumped.
 */
const MAX_REQUEUE_MS = 24 * 3600_000;

export class CronJobController extends WorkloadController<CronJob> {
  private readonly jobs: Informer<Job>;
  private readonly written = new WrittenStatus<CronJob>();
  private readonly deps: SyncDeps;

  constructor(ctx: ControllerContext, options: CronJobControllerOptions = {}) {
    super(ctx, { name: 'cronjob-controller', resource: resources.cronjobs, workers: options.workers ?? 2 });
    this.jobs = this.owns<Job>(resources.jobs);
    this.deps = {
      api: ctx.api,
      recorder: ctx.recorder(this.name),
      now: options.now ?? Date.now,
      defaultTimeZone: options.defaultTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      written: this.written,
    };
  }

  protected override forget(cronJob: Readonly<CronJob>): void {
    this.written.forget(cronJob.metadata.uid ?? '');
  }

  /** Looks at every CronJob now: after a test moved its clock, say. */
  resync(): void {
    for (const cronJob of this.primary.list()) this.queue.add(objectKey(cronJob));
  }

  protected async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.primary.get(key);
    if (!cached) return;
    const cronJob = structuredClone(this.written.fresh(cached)) as CronJob;
    const owned = this.jobs.byIndex(CONTROLLER_UID_INDEX, cronJob.metadata.uid!).filter((job) => cronJobOwner(job) !== undefined);
    const requeueAfterMs = await syncCronJob(this.deps, cronJob, owned);
    return { requeueAfterMs: Math.min(requeueAfterMs ?? MAX_REQUEUE_MS, MAX_REQUEUE_MS) };
  }
}
