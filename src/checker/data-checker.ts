// The data checker (the original scheduler's DataCheckMgr): in the server that holds the
// `drover-data-checker` Lease in kube-system, a round every interval (1,200 s by default) and
// one whenever someone asks.
//
// Asking is creating a ConsistencyReport with an empty status (`drover check`, or kubectl):
// the leader takes it (status Running, with the resourceVersion it read, so two servers in a
// handover never both run it), runs the round and writes the outcome into it. A scheduled
// round is the same thing with the checker as the one asking, so there is one path only, every
// round leaves a report, and a request made while no server leads waits for the next leader.
// The round runs in the server because the store check needs the store; everything else it
// reads and writes goes through the API like any other component.
import { metaTime } from '../api/meta.js';
import {
  consoleLogger,
  EventRecorder,
  Informer,
  isConflict,
  isNotFound,
  LeaderElector,
  LeaseLock,
  resources,
  runController,
  WorkQueue,
  type ApiClient,
  type Logger,
  type RunningController,
} from '../client/index.js';
import { TransactionRecorder } from '../controllers/transactions/recorder.js';
import type { Transaction } from '../controllers/transactions/types.js';
import { countRound } from './metrics.js';
import { isPending, pruneReports, recordEvents, reportStatus, type ConsistencyReport } from './report.js';
import { runRound, type RoundDeps } from './round.js';
import type { StoreProbe } from './store-check.js';

export const DATA_CHECKER_LEASE = 'drover-data-checker';
export const COMPONENT = 'data-checker';

export interface DataCheckerOptions {
  /** A client of this server. */
  api: ApiClient;
  /** This server's store, for the store check. */
  store?: StoreProbe;
  /** This server, as the Lease holder and the reports' `checker`. */
  identity: string;
  /** Seconds between scheduled rounds; 0 runs rounds only when asked. Default 1200. */
  intervalSeconds?: number;
  /** Scheduled rounds also run the repairs that change objects (`--data-check-repair`). */
  repair?: boolean;
  /** Finished reports kept. Default 10. */
  keepReports?: number;
  /** An agent silent this long has lost its pods. Default 40 s: 4 status intervals of 10 s. */
  lostAfterSeconds?: number;
  /** Changes younger than this are left to the controllers. Default 30 s. */
  settleSeconds?: number;
  leaseDurationMs?: number;
  logger?: Logger;
}

export class DataChecker {
  private readonly reports: Informer<ConsistencyReport>;
  private readonly queue = new WorkQueue<string>();
  private readonly elector: LeaderElector;
  private readonly events: EventRecorder;
  private readonly deps: RoundDeps;
  private readonly logger: Logger;
  private running: RunningController | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: DataCheckerOptions) {
    const { api } = options;
    this.logger = options.logger ?? consoleLogger(COMPONENT);
    this.reports = new Informer<ConsistencyReport>(api, resources.consistencyreports, { logger: this.logger });
    this.events = new EventRecorder(api, COMPONENT, { logger: this.logger });
    // A repair opens and ends its own Transaction within the round: the recorder never needs to
    // find one opened elsewhere, so its informer stays unstarted and the server caches none.
    const transactions = new TransactionRecorder(api, new Informer<Transaction>(api, resources.transactions), this.logger);
    this.deps = {
      api,
      transactions,
      logger: this.logger,
      options: { lostAfterMs: (options.lostAfterSeconds ?? 40) * 1000, settleMs: (options.settleSeconds ?? 30) * 1000 },
    };
    if (options.store) this.deps.store = options.store;
    const leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.elector = new LeaderElector({
      lock: new LeaseLock(api),
      name: DATA_CHECKER_LEASE,
      namespace: 'kube-system',
      identity: options.identity,
      logger: this.logger,
      leaseDurationMs,
      renewDeadlineMs: (leaseDurationMs * 2) / 3,
      retryPeriodMs: leaseDurationMs / 7.5,
      onStartedLeading: () => this.enqueuePending(),
    });
    this.reports.addEventHandler({
      onAdd: (report) => this.enqueueIfPending(report),
      onUpdate: (_, report) => this.enqueueIfPending(report),
    });
  }

  async start(): Promise<void> {
    this.reports.start();
    await this.reports.waitForSync();
    this.running = runController({ name: COMPONENT, queue: this.queue, logger: this.logger, reconcile: (name) => this.take(name) });
    this.elector.start();
    const interval = this.options.intervalSeconds ?? 1200;
    if (interval > 0) {
      this.timer = setInterval(() => void this.schedule(), interval * 1000);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.elector.stop();
    await this.running?.stop();
    await this.reports.stop();
  }

  isLeader(): boolean {
    return this.elector.isLeader();
  }

  /** Asks for a round, as `drover check` does; the leader (maybe this server) runs it. */
  async request(trigger: 'Scheduled' | 'OnDemand', repair: boolean): Promise<ConsistencyReport> {
    const report: ConsistencyReport = {
      apiVersion: 'drover.dev/v1',
      kind: 'ConsistencyReport',
      metadata: { generateName: 'check-' },
      spec: { trigger, repair },
    };
    return this.options.api.resource<ConsistencyReport>(resources.consistencyreports).create(report);
  }

  private async schedule(): Promise<void> {
    if (!this.isLeader()) return;
    await this.request('Scheduled', this.options.repair === true).catch((error: unknown) => this.logger.warn('could not schedule a round', { error }));
  }

  private enqueueIfPending(report: Readonly<ConsistencyReport>): void {
    if (isPending(report) && this.isLeader()) this.queue.add(report.metadata.name ?? '');
  }

  private enqueuePending(): void {
    for (const report of this.reports.list()) if (isPending(report)) this.queue.add(report.metadata.name ?? '');
  }

  /** Runs the round a pending report asks for; rounds run one at a time (one worker). */
  private async take(name: string): Promise<void> {
    const report = this.reports.getByName(undefined, name);
    if (!report || !isPending(report) || !this.isLeader()) return;
    const client = this.options.api.resource<ConsistencyReport>(resources.consistencyreports);
    const started = new Date();
    try {
      const running = { phase: 'Running', checker: this.options.identity, startTime: metaTime(started) };
      await client.patch(name, 'merge', { metadata: { resourceVersion: report.metadata.resourceVersion }, status: running }, { subresource: 'status' });
    } catch (error) {
      if (isConflict(error) || isNotFound(error)) return; // changed or taken meanwhile: its next event decides
      throw error;
    }
    const result = await runRound(this.deps, report.spec?.repair === true);
    countRound(result);
    await client.patch(name, 'merge', { status: reportStatus(result, started, this.options.identity) }, { subresource: 'status' });
    this.logger.info('data-check round done', { report: name, phase: result.phase, findings: result.findings.length, message: result.message });
    await recordEvents(this.events, report, result);
    // This round's report counts as one of those kept, finished or not in the cache yet.
    const others = this.reports.list().filter((other) => other.metadata.name !== name);
    await pruneReports(this.options.api, others, Math.max(0, (this.options.keepReports ?? 10) - 1));
  }
}
