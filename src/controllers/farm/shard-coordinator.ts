// The controller farm (the original replication-controller farm): several controller-manager
// processes share the work instead of one leading and the rest idling. Keys are hashed into a
// fixed number of shards; each shard is a Lease in kube-system, and a member reconciles only
// the keys of shards it holds. Members announce themselves with a member Lease; every round
// each takes free shards up to its fair share (shards ÷ live members, rounded up) and gives
// back what is beyond it, so a joining member gets work and a dead member's shards are taken
// over once their leases expire.
//
// Safety: a member stops treating a shard as its own when it has not renewed it for
// `renewDeadlineMs`, which is shorter than the lease duration another member must wait.
import { Sleeper } from '../../client/sleeper.js';
import { isNotFound, LeaseLock, leaseIsLive, resources, type ApiClient, type Lease, type Logger } from '../../client/index.js';
import type { ShardOwnership } from '../context.js';

export interface ShardCoordinatorOptions {
  api: ApiClient;
  /** This member's name; a restarted member with the same identity gets its shards back at once. */
  identity: string;
  /** Number of shards; every member of a farm must use the same. Default 8. */
  shards?: number;
  namespace?: string;
  leaseDurationSeconds?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  logger: Logger;
}

const SHARD_PREFIX = 'drover-controllers-shard-';
const MEMBER_PREFIX = 'drover-controllers-member-';

export class ShardCoordinator implements ShardOwnership {
  readonly shardCount: number;
  private readonly lock: LeaseLock;
  private readonly namespace: string;
  private readonly leaseSeconds: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;
  /** shard → when we last renewed it (performance.now()). */
  private readonly held = new Map<number, number>();
  private readonly listeners = new Set<() => void>();
  private readonly sleeper = new Sleeper();
  private readonly memberLease: string;
  private loop: Promise<void> | undefined;
  private stopped = false;
  private firstRound: Promise<void>;
  private resolveFirstRound!: () => void;

  constructor(private readonly options: ShardCoordinatorOptions) {
    this.shardCount = Math.max(1, options.shards ?? 8);
    this.lock = new LeaseLock(options.api);
    this.namespace = options.namespace ?? 'kube-system';
    this.leaseSeconds = options.leaseDurationSeconds ?? 15;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryMs = options.retryPeriodMs ?? 2000;
    this.memberLease = MEMBER_PREFIX + leaseNameSafe(options.identity);
    this.firstRound = new Promise((resolve) => (this.resolveFirstRound = resolve));
  }

  owns(key: string): boolean {
    return this.ownsShard(shardOf(key, this.shardCount));
  }

  private ownsShard(shard: number): boolean {
    const renewed = this.held.get(shard);
    return renewed !== undefined && performance.now() - renewed < this.renewDeadlineMs;
  }

  onAcquire(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The shards this member holds now. */
  heldShards(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** Starts the rounds; resolves after the first one (the shards free now are taken). */
  async start(): Promise<void> {
    this.loop = this.run();
    await this.firstRound;
  }

  /** Gives every shard back (a successor need not wait for expiry) and leaves the farm. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.sleeper.wake();
    await this.loop;
    const shards = [...this.held.keys()];
    this.held.clear();
    await Promise.allSettled(shards.map((shard) => this.lock.release(SHARD_PREFIX + shard, this.namespace, this.options.identity)));
    await this.options.api
      .resource(resources.leases, this.namespace)
      .delete(this.memberLease)
      .catch((error: unknown) => {
        if (!isNotFound(error)) this.options.logger.warn('could not remove the member lease', { error });
      });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.round();
      } catch (error) {
        this.options.logger.warn('shard round failed', { error });
      }
      this.resolveFirstRound();
      await this.sleeper.sleep(this.retryMs);
    }
  }

  /**
   * One round: renew the held shards, beat the member heart and count the members, all at once;
   * then give back the surplus and take free shards. A renewal must land within the deadline of
   * the one before, and what lies between them is the whole round plus the pause: each call the
   * round waited for before renewing stretched it (issue 15: with the heartbeat, the member
   * count and a read first, five round trips, a server answering in 1.2 s let every shard lapse;
   * now that takes 4 s).
   */
  async round(): Promise<void> {
    const { identity } = this.options;
    const heartbeat = this.lock.tryAcquireOrRenew(this.memberLease, this.namespace, identity, this.leaseSeconds);
    const members = this.liveMembers();
    // Awaited below, after the renewals; a failure of either ends the round there.
    for (const call of [heartbeat, members]) call.catch(() => undefined);
    const regained = (await Promise.all(this.heldShards().map((shard) => this.renew(shard)))).filter((shard) => shard !== undefined);
    const acquired: number[] = [];
    try {
      await heartbeat;
      const fairShare = Math.ceil(this.shardCount / (await members));
      for (const shard of this.heldShards()) {
        if (this.held.size <= fairShare) break;
        this.held.delete(shard);
        await this.lock.release(SHARD_PREFIX + shard, this.namespace, identity);
      }
      await this.acquire(fairShare, acquired);
    } finally {
      // Told even when the rest of the round failed: a regained shard is not "regained" again.
      this.announce(acquired, regained);
    }
  }

  /**
   * Tries free shards up to the fair share, as many at once as are missing: one after the other,
   * on a slow server the first ones acquired lapsed before the last (a start took 8 round trips
   * of two requests each). Each shard taken goes into `acquired` at once, so that it is announced
   * even when another attempt fails.
   */
  private async acquire(fairShare: number, acquired: number[]): Promise<void> {
    for (let next = 0; next < this.shardCount && this.held.size < fairShare;) {
      const batch: number[] = [];
      for (; next < this.shardCount && batch.length < fairShare - this.held.size; next++) if (!this.held.has(next)) batch.push(next);
      const results = await Promise.allSettled(
        batch.map(async (shard) => {
          const sentAt = performance.now();
          const attempt = await this.lock.tryAcquireOrRenew(SHARD_PREFIX + shard, this.namespace, this.options.identity, this.leaseSeconds);
          if (!attempt.held) return;
          this.held.set(shard, sentAt);
          acquired.push(shard);
        }),
      );
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    }
    acquired.sort((a, b) => a - b);
  }

  /** Keys that arrived while a shard was not ours were dropped: its owner must look at them all. */
  private announce(acquired: readonly number[], regained: readonly number[]): void {
    if (acquired.length > 0) this.options.logger.info('acquired shards', { shards: acquired.join(','), held: this.held.size, of: this.shardCount });
    if (regained.length > 0) this.options.logger.warn('renewed shards after their deadline had passed', { shards: regained.join(',') });
    if (acquired.length > 0 || regained.length > 0) for (const listener of this.listeners) listener();
  }

  /**
   * Renews one held shard; answers the shard when it had lapsed (not ours for a while) and is
   * ours again. The deadline counts from before the request, never from the answer.
   */
  private async renew(shard: number): Promise<number | undefined> {
    const sentAt = performance.now();
    const previous = this.held.get(shard);
    try {
      const attempt = await this.lock.tryAcquireOrRenew(SHARD_PREFIX + shard, this.namespace, this.options.identity, this.leaseSeconds);
      if (!attempt.held) {
        this.held.delete(shard);
        return undefined;
      }
      // Lapsed at any moment up to now, not only when the renewal was sent: a slow renewal outlives
      // the deadline, and the keys dropped meanwhile are lost unless the listeners re-enqueue them.
      const lapsed = previous === undefined || performance.now() - previous >= this.renewDeadlineMs;
      this.held.set(shard, sentAt);
      return lapsed ? shard : undefined;
    } catch (error) {
      // Left as it was: the deadline stops this member from acting on it if renewals keep failing.
      this.options.logger.warn('could not renew a shard', { shard, error });
      return undefined;
    }
  }

  /** Members whose lease was renewed within its duration (at least this one). */
  private async liveMembers(): Promise<number> {
    const leases = await this.options.api.resource<Lease>(resources.leases, this.namespace).list();
    const now = Date.now();
    // Every shard's lease is watched for change in every round, held or not: when a member dies
    // its shards are free a lease duration after their last renewal, not after we first look.
    for (const lease of leases.items) if (lease.metadata.name?.startsWith(SHARD_PREFIX)) this.lock.noteObserved(lease);
    const live = leases.items.filter((lease) => lease.metadata.name?.startsWith(MEMBER_PREFIX) && leaseIsLive(lease, now, this.leaseSeconds));
    // The list runs beside this round's heartbeat, so it may not show this member yet (its first
    // round, or a heartbeat that lapsed): it counts itself, or two new members would each take
    // every shard and give half back a round later.
    const self = live.some((lease) => lease.metadata.name === this.memberLease);
    return live.length + (self ? 0 : 1);
  }
}

/** The shard of a `namespace/name` key: FNV-1a, so every member hashes alike. */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** A Lease name from an identity: lowercase DNS label characters, bounded length. */
function leaseNameSafe(identity: string): string {
  return (
    identity
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 200 - MEMBER_PREFIX.length) || 'member'
  );
}
