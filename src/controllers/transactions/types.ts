// The drover.dev/v1 Transaction, from the original scheduler: every operation a controller
// carries out on a workload (launch, scale, update step, delete, reschedule) is one object
// that runs through Running → Succeeded | Failed | TimedOut within a deadline.
import type { KubeObject } from '../../api/meta.js';
import type { Operation, TransactionPhase } from '../../api/transaction-operations.js';

export { DEFAULT_LIFE_PERIOD_SECONDS, type Operation, type TransactionPhase } from '../../api/transaction-operations.js';

/** Labels that let a transaction be found by its target without reading every one. */
export const LABEL_TARGET_UID = 'drover.dev/target-uid';
export const LABEL_TARGET_NAME = 'drover.dev/target-name';
export const LABEL_TARGET_KIND = 'drover.dev/target-kind';
export const LABEL_OPERATION = 'drover.dev/operation';
/** On a workload: the life period, in seconds, of every transaction on it (instead of the defaults). */
export const ANNOTATION_LIFE_PERIOD = 'drover.dev/transaction-life-period-seconds';

export interface TransactionTarget {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

export interface TransactionSpec {
  target: TransactionTarget;
  operation: Operation;
  reason: string;
  lifePeriodSeconds: number;
  delaySeconds: number;
  /** Who caused the operation: the user whose write last changed the target's spec. */
  user?: string;
}

export interface TransactionStatus {
  phase?: TransactionPhase;
  startTime?: string;
  completionTime?: string;
  /** `done/total`, e.g. `3/5`. */
  progress?: string;
  message?: string;
}

export interface Transaction extends KubeObject {
  spec: TransactionSpec;
  status?: TransactionStatus;
}

export function isFinished(tx: Pick<Transaction, 'status'>): boolean {
  const phase = tx.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'TimedOut';
}
