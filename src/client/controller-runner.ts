// The one loop every controller runs: workers take keys from the queue and reconcile them.
// Success forgets the key's back-off (and schedules a requeue when asked); an error retries it
// with back-off; a TerminalError drops it. Nothing a reconcile does stops the runner.
import { consoleLogger, type Logger } from './logger.js';
import type { WorkQueue } from './work-queue.js';

/** Thrown by a reconcile that can never succeed for this key as it stands: no retry. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

export interface ReconcileResult {
  /** Reconcile this key again after this long, even if nothing changes (e.g. a deadline). */
  requeueAfterMs?: number;
}

export interface ControllerOptions<K> {
  name: string;
  queue: WorkQueue<K>;
  /** Keys reconciled at once (never the same key twice). Default 1. */
  workers?: number;
  reconcile: (key: K) => Promise<ReconcileResult | void>;
  logger?: Logger;
}

export interface RunningController {
  /** Shuts the queue down and resolves when every worker finished its current key. */
  stop(): Promise<void>;
  /** Resolves when all workers have exited. */
  readonly done: Promise<void>;
}

export function runController<K>(options: ControllerOptions<K>): RunningController {
  const logger = options.logger ?? consoleLogger(options.name);
  const workers = Math.max(1, options.workers ?? 1);
  const done = Promise.all(Array.from({ length: workers }, () => worker(options, logger))).then(() => undefined);
  return {
    done,
    stop: async () => {
      options.queue.shutDown();
      await done;
    },
  };
}

async function worker<K>(options: ControllerOptions<K>, logger: Logger): Promise<void> {
  const { queue } = options;
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    try {
      await processKey(options, key, logger);
    } finally {
      queue.done(key);
    }
  }
}

async function processKey<K>(options: ControllerOptions<K>, key: K, logger: Logger): Promise<void> {
  const { queue } = options;
  try {
    const result = await options.reconcile(key);
    queue.forget(key);
    if (result && result.requeueAfterMs !== undefined) queue.addAfter(key, result.requeueAfterMs);
  } catch (error) {
    if (error instanceof TerminalError) {
      queue.forget(key);
      logger.error('reconcile failed for good; dropping the key', { key: String(key), error });
      return;
    }
    logRetry(logger, queue.numRequeues(key), 'reconcile failed; retrying with back-off', { key: String(key), error });
    queue.addRateLimited(key);
  }
}

/**
 * Logs a failure that will be retried: a key failing again and again is worth one line now and
 * then (the first three, then at retry 4, 8, 16, …), not one per attempt; the others go to debug.
 */
export function logRetry(logger: Logger, retries: number, message: string, fields: Record<string, unknown>): void {
  const loud = retries < 3 || Number.isInteger(Math.log2(retries));
  (loud ? logger.warn : logger.debug).call(logger, message, { ...fields, retries });
}
