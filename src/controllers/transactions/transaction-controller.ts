// Keeps Transactions honest: a Running transaction that outlives its delay plus life period is
// marked TimedOut and raises a Warning event on its workload (the original scheduler's
// deployment timeout); finished transactions beyond the newest 50 per workload are pruned.
import { metaTime } from '../../api/meta.js';
import { isNotFound, resources, type EventRecorder, type ReconcileResult } from '../../client/index.js';
import { operationDuration, operationsTotal } from '../../metrics/component-metrics.js';
import type { ControllerContext } from '../context.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { isFinished, LABEL_TARGET_UID, type Transaction } from './types.js';

/** Finished transactions kept per workload. */
export const KEEP_PER_TARGET = 50;

export class TransactionController extends WorkloadController<Transaction> {
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext) {
    super(ctx, {
      name: 'transaction-controller',
      resource: resources.transactions,
      workers: 1,
      predicates: { delete: () => false },
    });
    this.events = ctx.recorder(this.name);
  }

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const tx = this.primary.get(key);
    if (!tx) return;
    if (isFinished(tx)) return this.prune(tx);
    if (tx.status?.phase !== 'Running') return; // its recorder has not written the status yet
    const started = Date.parse(tx.status.startTime ?? tx.metadata.creationTimestamp ?? '');
    if (!Number.isFinite(started)) return;
    const deadline = started + ((tx.spec.delaySeconds ?? 0) + tx.spec.lifePeriodSeconds) * 1000;
    if (now < deadline) return { requeueAfterMs: deadline - now + 100 };
    await this.timeOut(tx, now - started);
  }

  private async timeOut(tx: Readonly<Transaction>, elapsedMs: number): Promise<void> {
    const message =
      `${tx.spec.operation} of ${tx.spec.target.kind}/${tx.spec.target.name} did not finish within ${tx.spec.lifePeriodSeconds}s` +
      (tx.status?.progress ? ` (progress ${tx.status.progress})` : '');
    const status = { phase: 'TimedOut', completionTime: metaTime(new Date()), message };
    try {
      // The precondition keeps a recorder's concurrent finish from being overwritten.
      await this.ctx.api
        .resource(resources.transactions, tx.metadata.namespace)
        .patch(tx.metadata.name!, 'merge', { metadata: { resourceVersion: tx.metadata.resourceVersion }, status }, { subresource: 'status' });
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    operationsTotal.inc({ operation: tx.spec.operation, result: 'TimedOut' });
    operationDuration.observe({ operation: tx.spec.operation }, elapsedMs / 1000);
    const target = tx.spec.target;
    void this.events.record(
      { apiVersion: target.apiVersion, kind: target.kind, name: target.name, namespace: tx.metadata.namespace, uid: target.uid },
      'Warning',
      'TransactionTimedOut',
      `Transaction ${tx.metadata.name}: ${message}`,
    );
  }

  /** Deletes the oldest finished transactions of the target beyond the newest KEEP_PER_TARGET. */
  private async prune(tx: Readonly<Transaction>): Promise<void> {
    const uid = tx.metadata.labels?.[LABEL_TARGET_UID];
    if (!uid) return;
    const finished = this.primary.byIndex(LABEL_TARGET_UID, uid).filter(isFinished);
    if (finished.length <= KEEP_PER_TARGET) return;
    finished.sort((a, b) => finishOrder(b) - finishOrder(a));
    const client = this.ctx.api.resource(resources.transactions, tx.metadata.namespace);
    for (const old of finished.slice(KEEP_PER_TARGET)) {
      try {
        await client.delete(old.metadata.name!, { preconditions: { uid: old.metadata.uid! } });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
  }
}

/**
 * A finished transaction is written last by the status patch that finished it, so its
 * resourceVersion orders finishes exactly (completionTime has only second resolution).
 */
function finishOrder(tx: Readonly<Transaction>): number {
  return Number(tx.metadata.resourceVersion) || 0;
}
