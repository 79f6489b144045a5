// The operations a drover.dev/v1 Transaction records and their default life periods (the
// original scheduler's), shared by the API's defaulting and the controllers that record them.
export const TRANSACTION_OPERATIONS = ['launch', 'scale', 'update', 'delete', 'reschedule', 'repair', 'restart'] as const;
export const TRANSACTION_PHASES = ['Running', 'Succeeded', 'Failed', 'TimedOut'] as const;

export type Operation = (typeof TRANSACTION_OPERATIONS)[number];
export type TransactionPhase = (typeof TRANSACTION_PHASES)[number];

/** Seconds a transaction may run before it is marked TimedOut. */
export const DEFAULT_LIFE_PERIOD_SECONDS: Readonly<Record<Operation, number>> = {
  launch: 1800,
  scale: 1800,
  update: 300, // one rolling step
  delete: 480,
  reschedule: 86400,
  repair: 300, // one data-checker repair (src/checker/)
  restart: 1800, // a training job's pods recreated after a failure, until they run again
};

/**
 * On a workload: the user whose write last changed its spec, kept by the API server (see
 * apiserver/registry/changed-by.ts); a Transaction names them in spec.user.
 */
export const ANNOTATION_CHANGED_BY = 'drover.dev/changed-by';
