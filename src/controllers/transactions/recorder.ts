// How controllers record what they do as Transactions. A controller calls begin() when it
// starts an operation on a workload, progress() as it advances and finish() when it is done;
// all three are idempotent, so a reconcile loop may call them on every pass. At most one
// transaction per (target, operation) is Running: beginning a new one supersedes the old.
//
// The recorder remembers the transactions it opened (the informer may lag its own writes) and
// falls back to the informer's cache for those opened before a restart or by another member
// of the controller farm. Writes for one (target, operation) run one after another.
import { metaTime, type KubeObject } from '../../api/meta.js';
import { ANNOTATION_CHANGED_BY } from '../../api/transaction-operations.js';
import { byLabel, isNotFound, resources, type ApiClient, type Informer, type Logger, consoleLogger } from '../../client/index.js';
import { operationDuration, operationsTotal } from '../../metrics/component-metrics.js';
import {
  ANNOTATION_LIFE_PERIOD,
  DEFAULT_LIFE_PERIOD_SECONDS,
  LABEL_OPERATION,
  LABEL_TARGET_KIND,
  LABEL_TARGET_NAME,
  LABEL_TARGET_UID,
  type Operation,
  type Transaction,
  type TransactionPhase,
} from './types.js';

export interface BeginOptions {
  /** Why the operation happens, e.g. "replicas changed from 3 to 5". */
  reason: string;
  /** Units of work (pods) the operation must get through; progress starts at 0/total. */
  total?: number;
  done?: number;
  lifePeriodSeconds?: number;
  delaySeconds?: number;
  message?: string;
}

interface OpenTransaction {
  name: string;
  namespace: string;
  startedAt: number;
  progress: string;
  message: string;
}

const ENDED_MEMORY_MS = 60_000;
const MAX_NAME_PREFIX = 52; // generateName gets 5 random characters; names stay ≤ 63

export class TransactionRecorder {
  private readonly opened = new Map<string, OpenTransaction>();
  /**
   * Transactions this recorder ended, until the informer shows them ended too: the cache may
   * still say Running, and must not make a finished transaction look open again.
   */
  private readonly ended = new Set<string>();
  private readonly chains = new Map<string, Promise<unknown>>();
  /**
   * Whether the calls still queued for a (target, operation) leave it open: isOpen() answers
   * from here at once, before the writes are done, so callers may fire and forget.
   */
  private readonly intended = new Map<string, boolean>();
  private readonly logger: Logger;

  constructor(
    private readonly api: ApiClient,
    private readonly informer: Informer<Transaction>,
    logger?: Logger,
  ) {
    this.logger = logger ?? consoleLogger('transactions');
    informer.addIndexer(LABEL_TARGET_UID, byLabel(LABEL_TARGET_UID));
  }

  /** A Running transaction of this operation on the target, or one begun and not yet finished. */
  isOpen(target: KubeObject, operation: Operation): boolean {
    return this.intended.get(keyOf(target, operation)) ?? this.find(target, operation) !== undefined;
  }

  /**
   * Begins the operation unless one was begun on the target at or after `since` (RFC 3339; any
   * phase) or is open here; nothing while the Transactions are not yet listed (a later event of
   * the target asks again). Observers that first see an object after what they watch for
   * happened (a restart, a shard taken over) begin only what nobody recorded.
   */
  beginUnlessRecordedSince(target: KubeObject, operation: Operation, since: string, options: BeginOptions): void {
    if (this.recordedSince(target, operation, since) === false) void this.begin(target, operation, options);
  }

  /** Whether such a transaction was begun since `since` or is open; undefined while the Transactions are not listed. */
  private recordedSince(target: KubeObject, operation: Operation, since: string): boolean | undefined {
    if (this.isOpen(target, operation)) return true;
    if (!this.informer.hasSynced()) return undefined;
    const from = Date.parse(since);
    return this.informer
      .byIndex(LABEL_TARGET_UID, target.metadata.uid ?? '')
      .some((tx) => tx.spec.operation === operation && Date.parse(tx.status?.startTime ?? tx.metadata.creationTimestamp ?? '') >= from);
  }

  /**
   * Opens a transaction for the operation, unless one is Running already (then only its
   * progress is brought up to date). `supersede` finishes a Running one as Failed first —
   * for an operation whose goal changed (replicas 3 → 5, then 5 → 2).
   */
  begin(target: KubeObject, operation: Operation, options: BeginOptions & { supersede?: boolean }): Promise<void> {
    return this.serial(target, operation, true, () => this.beginNow(target, operation, options));
  }

  /** Records how far the Running transaction has got; nothing when none is open. */
  progress(target: KubeObject, operation: Operation, done: number, total: number, message?: string): Promise<void> {
    return this.serial(target, operation, undefined, async () => {
      const current = this.find(target, operation);
      if (current) await this.writeProgress(target, operation, current, `${done}/${total}`, message);
    });
  }

  /** Ends the Running transaction (if any) as Succeeded or Failed. */
  finish(target: KubeObject, operation: Operation, phase: 'Succeeded' | 'Failed', message = ''): Promise<void> {
    return this.serial(target, operation, false, () => this.finishNow(target, operation, phase, message));
  }

  /** Records an operation that starts and ends at once (e.g. a reschedule of one pod). */
  once(target: KubeObject, operation: Operation, options: BeginOptions, phase: 'Succeeded' | 'Failed', message = ''): Promise<void> {
    return this.serial(target, operation, false, async () => {
      await this.beginNow(target, operation, { ...options, supersede: true });
      await this.finishNow(target, operation, phase, message);
    });
  }

  private async beginNow(target: KubeObject, operation: Operation, options: BeginOptions & { supersede?: boolean }): Promise<void> {
    const current = this.find(target, operation);
    if (current && !options.supersede) {
      if (options.total !== undefined) await this.writeProgress(target, operation, current, `${options.done ?? 0}/${options.total}`, options.message);
      return;
    }
    if (current) await this.writeFinish(target, operation, current, 'Failed', `superseded: ${options.reason}`);
    await this.create(target, operation, options);
  }

  private async finishNow(target: KubeObject, operation: Operation, phase: 'Succeeded' | 'Failed', message: string): Promise<void> {
    const current = this.find(target, operation);
    if (current) await this.writeFinish(target, operation, current, phase, message);
  }

  private find(target: KubeObject, operation: Operation): OpenTransaction | undefined {
    const key = keyOf(target, operation);
    const mine = this.opened.get(key);
    if (mine) {
      // Another party (the timeout controller, a user) may have ended it meanwhile.
      const phase = this.informer.getByName(mine.namespace, mine.name)?.status?.phase;
      if (phase === undefined || phase === 'Running') return mine;
      this.opened.delete(key);
      return undefined;
    }
    const cached = this.informer
      .byIndex(LABEL_TARGET_UID, target.metadata.uid ?? '')
      .find((tx) => tx.spec.operation === operation && tx.status?.phase === 'Running' && !this.ended.has(`${tx.metadata.namespace}/${tx.metadata.name}`));
    if (!cached) return undefined;
    const found: OpenTransaction = {
      name: cached.metadata.name!,
      namespace: cached.metadata.namespace!,
      startedAt: Date.parse(cached.status?.startTime ?? cached.metadata.creationTimestamp ?? '') || Date.now(),
      progress: cached.status?.progress ?? '',
      message: cached.status?.message ?? '',
    };
    this.opened.set(key, found);
    return found;
  }

  private async create(target: KubeObject, operation: Operation, options: BeginOptions): Promise<void> {
    const namespace = target.metadata.namespace ?? 'default';
    const now = new Date();
    const tx: Transaction = {
      apiVersion: 'drover.dev/v1',
      kind: 'Transaction',
      metadata: {
        generateName: `${`${target.metadata.name}-${operation}`.slice(0, MAX_NAME_PREFIX)}-`,
        namespace,
        labels: {
          [LABEL_TARGET_UID]: target.metadata.uid ?? '',
          [LABEL_TARGET_NAME]: (target.metadata.name ?? '').slice(0, 63),
          [LABEL_TARGET_KIND]: target.kind,
          [LABEL_OPERATION]: operation,
        },
      },
      spec: {
        target: { apiVersion: target.apiVersion, kind: target.kind, name: target.metadata.name ?? '', uid: target.metadata.uid ?? '' },
        operation,
        reason: options.reason,
        lifePeriodSeconds: options.lifePeriodSeconds ?? annotatedLifePeriod(target) ?? DEFAULT_LIFE_PERIOD_SECONDS[operation],
        delaySeconds: options.delaySeconds ?? 0,
      },
    };
    // The target's spec change is what the operation carries out: its author caused it.
    const user = target.metadata.annotations?.[ANNOTATION_CHANGED_BY];
    if (user) tx.spec.user = user;
    const client = this.api.resource<Transaction>(resources.transactions, namespace);
    const created = await client.create(tx);
    const progress = options.total === undefined ? '' : `${options.done ?? 0}/${options.total}`;
    const status = { phase: 'Running' as const, startTime: metaTime(now), progress, message: options.message ?? '' };
    await client.patch(created.metadata.name!, 'merge', { status }, { subresource: 'status' });
    this.opened.set(keyOf(target, operation), { name: created.metadata.name!, namespace, startedAt: now.getTime(), progress, message: status.message });
  }

  private async writeProgress(target: KubeObject, operation: Operation, current: OpenTransaction, progress: string, message?: string): Promise<void> {
    if (progress === current.progress && (message === undefined || message === current.message)) return;
    const status: Record<string, string> = { progress };
    if (message !== undefined) status['message'] = message;
    if (!(await this.patchStatus(target, operation, current, status))) return;
    current.progress = progress;
    if (message !== undefined) current.message = message;
  }

  private async writeFinish(target: KubeObject, operation: Operation, current: OpenTransaction, phase: TransactionPhase, message: string): Promise<void> {
    const status = { phase, completionTime: metaTime(new Date()), message };
    await this.patchStatus(target, operation, current, status);
    this.opened.delete(keyOf(target, operation));
    this.markEnded(`${current.namespace}/${current.name}`);
    operationsTotal.inc({ operation, result: phase });
    operationDuration.observe({ operation }, (Date.now() - current.startedAt) / 1000);
  }

  private markEnded(name: string): void {
    this.ended.add(name);
    // The informer catches up within moments; the set only has to bridge that.
    setTimeout(() => this.ended.delete(name), ENDED_MEMORY_MS).unref();
  }

  /** False when the transaction is gone (pruned, or deleted by hand): it is forgotten. */
  private async patchStatus(target: KubeObject, operation: Operation, current: OpenTransaction, status: object): Promise<boolean> {
    try {
      await this.api.resource(resources.transactions, current.namespace).patch(current.name, 'merge', { status }, { subresource: 'status' });
      return true;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      this.opened.delete(keyOf(target, operation));
      return false;
    }
  }

  /**
   * Runs writes for one (target, operation) in order; a failure is logged, never thrown.
   * `opens` says whether the operation is open once this call is done (undefined: unchanged).
   */
  private serial(target: KubeObject, operation: Operation, opens: boolean | undefined, task: () => Promise<void>): Promise<void> {
    const key = keyOf(target, operation);
    if (opens !== undefined) this.intended.set(key, opens);
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(task).catch((error: unknown) => {
      this.logger.warn('transaction write failed', { key, error });
    });
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) !== next) return;
      // Nothing queued: the recorder's own state (and the informer) answer isOpen again.
      this.chains.delete(key);
      this.intended.delete(key);
    });
    return next;
  }
}

/** A workload may shorten or lengthen its operations' deadline with an annotation. */
function annotatedLifePeriod(target: KubeObject): number | undefined {
  const value = Number(target.metadata.annotations?.[ANNOTATION_LIFE_PERIOD]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

function keyOf(target: KubeObject, operation: Operation): string {
  return `${target.metadata.uid ?? `${target.metadata.namespace}/${target.metadata.name}`}|${operation}`;
}
