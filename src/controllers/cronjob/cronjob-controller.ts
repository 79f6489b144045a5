// The CronJob controller (`cronjob-controller`, Kubernetes' cronjob controller v2): starts a
// CronJob's Jobs at its scheduled times, keeps status.active in step with them and trims the
// finished ones to the history limits. A pass is cronjob-sync.ts; this file wires informers and
// the queue. Each pass asks to be requeued just after the next scheduled time, so an idle
// CronJob costs nothing between its times.
import {
  indexers, objectKey, resources, WorkQueue, type Informer, type ReconcileResult, type RunningController,
} from '../../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from '../context.js';
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

const CONTROLLER_UID = 'controllerUid';
/**
 * The longest wait between looks: a timer cannot wait much past 24 days (longer ones fire at
 * once), and a daily look also catches a clock that jumped.
 */
const MAX_REQUEUE_MS = 24 * 3600_000;

export class CronJobController implements Controller {
  readonly name = 'cronjob-controller';
  private readonly cronJobs: Informer<CronJob>;
  private readonly jobs: Informer<Job>;
  private readonly queue = new WorkQueue<string>();
  private readonly written = new WrittenStatus<CronJob>();
  private readonly deps: SyncDeps;
  private running: RunningController | undefined;

  constructor(private readonly ctx: ControllerContext, private readonly options: CronJobControllerOptions = {}) {
    this.cronJobs = ctx.factory.informerFor<CronJob>(resources.cronjobs);
    this.jobs = ctx.factory.informerFor<Job>(resources.jobs);
    this.jobs.addIndexer(CONTROLLER_UID, indexers.controllerUid);
    this.deps = {
      api: ctx.api,
      recorder: ctx.recorder(this.name),
      now: options.now ?? Date.now,
      defaultTimeZone: options.defaultTimeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      written: this.written,
    };
    this.watch();
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: this.name,
      primary: this.cronJobs,
      queue: this.queue,
      workers: this.options.workers ?? 2,
      reconcile: (key) => this.reconcile(key),
    });
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.running?.stop();
  }

  /** Looks at every CronJob now: after a test moved its clock, say. */
  resync(): void {
    for (const cronJob of this.cronJobs.list()) this.queue.add(objectKey(cronJob));
  }

  private watch(): void {
    this.cronJobs.addEventHandler({
      onAdd: (cronJob) => this.queue.add(objectKey(cronJob)),
      onUpdate: (_old, cronJob) => this.queue.add(objectKey(cronJob)),
      onDelete: (cronJob) => this.written.forget(cronJob.metadata.uid ?? ''),
    });
    const enqueueOwner = (job: Readonly<Job>) => {
      const owner = cronJobOwner(job);
      if (owner) this.queue.add(`${job.metadata.namespace}/${owner.name}`);
    };
    this.jobs.addEventHandler({
      onAdd: enqueueOwner,
      onUpdate: (old, job) => {
        const oldOwner = cronJobOwner(old);
        if (oldOwner && oldOwner.uid !== cronJobOwner(job)?.uid) enqueueOwner(old);
        enqueueOwner(job);
      },
      onDelete: enqueueOwner,
    });
  }

  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.cronJobs.get(key);
    if (!cached) return;
    const cronJob = structuredClone(this.written.fresh(cached)) as CronJob;
    const owned = this.jobs.byIndex(CONTROLLER_UID, cronJob.metadata.uid!).filter((job) => cronJobOwner(job) !== undefined);
    const requeueAfterMs = await syncCronJob(this.deps, cronJob, owned);
    return { requeueAfterMs: Math.min(requeueAfterMs ?? MAX_REQUEUE_MS, MAX_REQUEUE_MS) };
  }
}
