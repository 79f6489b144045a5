// A component that runs only while this process holds a leader Lease, as kube-scheduler and
// kube-controller-manager run with --leader-elect: every server starts the gate, one leads and
// runs the component, the others stand by and start it when the leader's Lease expires.
// The component is started afresh on each acquisition and stopped on each loss, so a holder that
// cannot renew stops acting (renewDeadline) before the Lease could expire for another.
import { consoleLogger, LeaderElector, LeaseLock, type ApiClient } from '../client/index.js';

export interface Stoppable {
  stop(): Promise<void>;
}

/** Lease timing, in ms. Takeover after a crash takes about leaseDuration + retryPeriod. */
export interface LeaderTiming {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/**
 * For servers sharing etcd: a standby takes over ≤ 5 s after the leader dies (lease 3 s, seen
 * up to one retry late, plus one retry), far below client-go's 15/10/2 s, which suits servers
 * on one machine or one LAN. The leader gives up after 2 s without a renewal, a second before
 * anyone else may take the Lease. Also the default of standalone `drover scheduler` and
 * `drover controller-manager` processes, which exist to stand by for one another.
 */
export const DEFAULT_LEADER_TIMING: LeaderTiming = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 };

/**
 * For a server on SQLite, the only server of its cluster: client-go's defaults, so Lease
 * renewals (the bulk of writes in an idle cluster) stay few.
 */
export const SOLO_LEADER_TIMING: LeaderTiming = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2000 };

export interface LeaderGateOptions {
  api: ApiClient;
  /** The Lease in kube-system, e.g. kube-scheduler. */
  name: string;
  identity: string;
  timing?: LeaderTiming;
  start(): Promise<Stoppable>;
}

export interface LeaderGate extends Stoppable {
  isLeader(): boolean;
}

export function startLeaderGate(options: LeaderGateOptions): LeaderGate {
  const logger = consoleLogger(`leader ${options.name}`);
  const timing = options.timing ?? DEFAULT_LEADER_TIMING;
  // Starts and stops run one after another, so a loss during a slow start still stops it.
  let chain: Promise<void> = Promise.resolve();
  let running: Stoppable | undefined;
  const enqueue = (step: () => Promise<void>) => {
    chain = chain.then(step).catch((error: unknown) => logger.error('start/stop failed', { error }));
    return chain;
  };
  const stopRunning = () =>
    enqueue(async () => {
      const component = running;
      running = undefined;
      await component?.stop();
    });
  const lock = new LeaseLock(options.api);
  const elector = new LeaderElector({
    lock,
    name: options.name,
    namespace: 'kube-system',
    identity: options.identity,
    ...timing,
    logger,
    onStartedLeading(signal) {
      logger.info('leading; starting', { identity: options.identity });
      void enqueue(async () => {
        if (signal.aborted) return;
        running = await options.start();
      });
      signal.addEventListener('abort', () => void stopRunning(), { once: true });
    },
  });
  elector.start();
  return {
    isLeader: () => elector.isLeader(),
    async stop() {
      const wasLeading = elector.isLeader();
      // The component stops before the Lease is given up, so a standby never overlaps it.
      await elector.stop({ release: false });
      await stopRunning();
      if (wasLeading) await lock.release(options.name, 'kube-system', options.identity).catch((error: unknown) => logger.warn('release failed', { error }));
    },
  };
}
