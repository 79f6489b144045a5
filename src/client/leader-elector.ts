// Leader election over one Lease, as client-go's LeaderElector: try to acquire every
// retryPeriod; once leading, renew every retryPeriod, and give leadership up if no renewal has
// succeeded for renewDeadline (before the lease could expire under us and someone else lead).
// After losing, the elector competes again, so a process holding per-shard leases gets shards
// back when they come free.
import { Sleeper } from './sleeper.js';
import type { LeaseLock } from './lease-lock.js';
import { consoleLogger, type Logger } from './logger.js';

export interface LeaderElectorOptions {
  lock: LeaseLock;
  name: string;
  namespace: string;
  identity: string;
  /** How long a lease lasts without renewal. Default 15 s (whole seconds on the wire). */
  leaseDurationMs?: number;
  /** Leadership is given up when renewals have failed for this long. Default 10 s. */
  renewDeadlineMs?: number;
  /** Time between attempts to acquire or renew. Default 2 s. */
  retryPeriodMs?: number;
  /** Called on becoming leader; the signal aborts when leadership is lost or the elector stops. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  onStoppedLeading?(): void;
  /** Called when the observed leader changes (including to this identity). */
  onNewLeader?(identity: string | undefined): void;
  logger?: Logger;
}

export class LeaderElector {
  private readonly sleeper = new Sleeper();
  private leading: AbortController | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private lastLeader: string | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private readonly logger: Logger;

  constructor(private readonly options: LeaderElectorOptions) {
    this.logger = options.logger ?? consoleLogger(`leader-election ${options.namespace}/${options.name}`);
  }

  isLeader(): boolean {
    return this.leading !== undefined;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops competing; by default releases the lease so a successor takes over at once. */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.sleeper.wake();
    await this.loop;
    const wasLeading = this.leading !== undefined;
    this.loseLeadership();
    const { lock, name, namespace, identity } = this.options;
    if (wasLeading && options.release !== false) {
      await lock.release(name, namespace, identity).catch((error: unknown) => this.logger.warn('release failed', { error }));
    }
  }

  private get leaseSeconds(): number {
    return Math.max(1, Math.ceil((this.options.leaseDurationMs ?? 15_000) / 1000));
  }

  private async run(): Promise<void> {
    const retry = this.options.retryPeriodMs ?? 2000;
    const deadline = this.options.renewDeadlineMs ?? 10_000;
    let lastRenew = 0;
    while (!this.stopped) {
      // A renewal counts from when it was sent: the write may land (and others see it) at once.
      const sentAt = performance.now();
      const outcome = await this.attempt();
      if (this.stopped) return;
      if (outcome === 'held') {
        lastRenew = sentAt;
        if (!this.leading) this.becomeLeader();
        this.armDeadline(lastRenew + deadline);
      } else if (this.leading && (outcome === 'taken' || performance.now() - lastRenew > deadline)) {
        // Someone else holds the lease (we were paused past its expiry), or we could not renew
        // in time: either way another process may be leading now.
        this.logger.warn('lost the lease; giving up leadership', { outcome });
        this.loseLeadership();
      }
      await this.sleeper.sleep(retry * (this.leading ? 1 : 1 + Math.random() * 0.2));
    }
  }

  /** held: we hold it; taken: another identity does; failed: we could not tell. */
  private async attempt(): Promise<'held' | 'taken' | 'failed'> {
    const { lock, name, namespace, identity } = this.options;
    try {
      const result = await lock.tryAcquireOrRenew(name, namespace, identity, this.leaseSeconds);
      if (result.holder !== this.lastLeader) {
        this.lastLeader = result.holder;
        this.options.onNewLeader?.(result.holder);
      }
      if (result.held) return 'held';
      return result.holder !== undefined && result.holder !== identity ? 'taken' : 'failed';
    } catch (error) {
      this.logger.warn('lease attempt failed', { error });
      return 'failed';
    }
  }

  /**
   * Leadership ends at `at` unless a renewal moves it on: a renewal that hangs (a server or
   * etcd that stopped answering) must not keep this process acting past its deadline.
   */
  private armDeadline(at: number): void {
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = setTimeout(
      () => {
        if (!this.leading) return;
        this.logger.warn('no renewal within the renew deadline; giving up leadership');
        this.loseLeadership();
      },
      Math.max(0, at - performance.now()),
    );
    this.deadlineTimer.unref();
  }

  private becomeLeader(): void {
    const controller = new AbortController();
    this.leading = controller;
    Promise.resolve()
      .then(() => this.options.onStartedLeading(controller.signal))
      .catch((error: unknown) => this.logger.error('onStartedLeading threw', { error }));
  }

  private loseLeadership(): void {
    clearTimeout(this.deadlineTimer);
    const leading = this.leading;
    if (!leading) return;
    this.leading = undefined;
    leading.abort();
    try {
      this.options.onStoppedLeading?.();
    } catch (error) {
      this.logger.error('onStoppedLeading threw', { error });
    }
  }
}
