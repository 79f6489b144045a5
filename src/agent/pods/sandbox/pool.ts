// Sandboxes made before their pods: a pod start on Docker costs two container starts, and the
// sandbox's (its network: veth, address, iptables) is the slow one. The pool makes them while
// the node is quiet (the reaper's signal: no sandbox or container start, no removal), up to the
// size of the recent burst of pod starts (pool-sizer.ts), and a pod that may use one claims it
// (claim.ts) instead of waiting for its own. Members carry the agent's owner labels, so the
// agent's clean-up finds them; unclaimed ones go when the agent stops, and a starting agent
// removes those a dead predecessor left (their state is unknown) and keeps the claimed ones,
// which are pods' sandboxes. A member that died or was removed behind the pool's back is
// dropped at the next check, and made again.
import type { Logger } from '../../../client/index.js';
import { ownerFilter, ownerLabels, type Owner } from '../../agent-labels.js';
import { RuntimeUnavailableError } from '../../runtime/errors.js';
import type { ContainerRuntime, ListFilter, PoolMember, SandboxClaim, SandboxInfo, SandboxPoolRuntime } from '../../runtime/runtime.js';
import { PoolSizer } from './pool-sizer.js';
import type { SandboxReaper } from './reaper.js';

export interface SandboxPoolSettings {
  /** Ready sandboxes kept however quiet the node is. */
  min: number;
  /** Ready sandboxes kept at most, whatever the bursts (0: no pool). */
  max: number;
}

export const DEFAULT_POOL: SandboxPoolSettings = { min: 2, max: 64 };
/** How often the members are checked against the engine (one died or was removed?). */
const CHECK_MS = 5_000;
/** Addresses of the node's range the pool never takes: pods that cannot use it (hostPorts) need some. */
const KEEP_FREE_ADDRESSES = 16;
/** After a failed refill (no address, an engine error), the pool waits this long. */
const FAILURE_PAUSE_MS = 10_000;

export interface SandboxPoolOptions {
  runtime: ContainerRuntime;
  pool: SandboxPoolRuntime;
  owner: Owner;
  /** Its quiet moments are the pool's to fill in. */
  reaper: SandboxReaper;
  nodePodCidr: () => string | undefined;
  logger: Logger;
  settings: SandboxPoolSettings;
  checkMs?: number;
  now?: () => number;
}

export class SandboxPool {
  readonly runtime: ContainerRuntime;
  private readonly sizer: PoolSizer;
  /** Ready and unclaimed, oldest first. */
  private members: PoolMember[] = [];
  /** Taken by a claim in progress, or being removed: not strays. */
  private readonly busy = new Set<string>();
  private refill: Promise<void> | undefined;
  private pausedUntil = 0;
  /** Counts claims begun: a list read while one ran may show its sandbox unclaimed still. */
  private claims = 0;
  private stopped = false;
  /** What a previous agent left has been seen to (check()). */
  private adopted = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly now: () => number;

  constructor(private readonly opts: SandboxPoolOptions) {
    this.runtime = opts.runtime;
    this.sizer = new PoolSizer(opts.settings.min, opts.settings.max);
    this.now = opts.now ?? Date.now;
  }

  /** Ready members now (for tests and figures). */
  get size(): number {
    return this.members.length;
  }

  /** Removes what a previous agent left unclaimed, then fills in the node's quiet moments. */
  async start(): Promise<void> {
    this.unsubscribe = this.opts.reaper.onQuiet(() => this.pump());
    // An engine that does not answer now is asked again at each check.
    await this.check().catch((error: unknown) => this.opts.logger.warn('the sandbox pool could not look at the engine yet', { error }));
    this.schedule();
  }

  /** Unclaimed members go; claimed ones are pods' sandboxes and stay. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.unsubscribe?.();
    await this.refill;
    const left = this.members;
    this.members = [];
    await Promise.all(left.map((m) => this.remove(m.id)));
  }

  /**
   * A ready sandbox made the pod's; undefined when none is ready (the pod makes its own). A member
   * that cannot be claimed (it died behind the pool's back) goes, and the next is tried.
   */
  async claim(claim: SandboxClaim): Promise<SandboxInfo | undefined> {
    this.sizer.asked(this.now());
    this.claims++;
    const range = this.opts.nodePodCidr() ?? '';
    try {
      // Two tries: a member may have died behind the pool's back; more failures mean claims fail
      // here (and each would cost a member), so the pod makes its own.
      for (let tries = 0; tries < 2; tries++) {
        const member = this.take(range);
        if (!member) return undefined;
        this.busy.add(member.id);
        try {
          return await this.opts.pool.claim(member.id, claim);
        } catch (error) {
          if (error instanceof RuntimeUnavailableError) throw error;
          this.opts.logger.warn('a pooled sandbox could not be claimed; removing it', { id: member.id, error });
          void this.remove(member.id);
        } finally {
          this.busy.delete(member.id);
        }
      }
      return undefined;
    } finally {
      this.pump();
    }
  }

  /** The oldest member in the node's current range; members of another range (the range changed) go. */
  private take(range: string): PoolMember | undefined {
    for (let member = this.members.shift(); member; member = this.members.shift()) {
      if (member.addressRange === range) return member;
      void this.remove(member.id);
    }
    return undefined;
  }

  /** One step towards the target, when the node is quiet: one member made, or one removed. */
  private pump(): void {
    if (this.stopped || !this.adopted || this.refill || !this.opts.reaper.quiet() || this.now() < this.pausedUntil) return;
    const range = this.opts.nodePodCidr();
    // Before the node has its range, an address would be outside it.
    if (range === undefined) return;
    const target = this.sizer.target(this.now());
    if (this.members.length > target) {
      const extra = this.members.shift()!;
      void this.remove(extra.id).finally(() => this.pump());
      return;
    }
    if (this.members.length >= target) return;
    const made = this.opts.pool.create({ labels: ownerLabels(this.opts.owner), addressRange: range, keepFree: KEEP_FREE_ADDRESSES });
    // Its start is a sandbox start like a pod's: the reaper waits for it, and the pool for quiet.
    this.opts.reaper.sandboxStarting(made);
    this.refill = made.then(
      (member) => {
        if (this.stopped) void this.remove(member.id);
        else this.members.push(member);
      },
      (error: unknown) => {
        this.pausedUntil = this.now() + FAILURE_PAUSE_MS;
        this.opts.logger.warn('could not make a pool sandbox; trying again later', { error });
      },
    );
    void this.refill.finally(() => {
      this.refill = undefined;
      this.pump();
    });
  }

  /** Members the engine no longer runs are dropped (and removed); unknown ones of this agent go. */
  private async check(): Promise<void> {
    if (this.stopped) return;
    if (!this.adopted) {
      // Before any member is made: what a previous agent left is adopted or, unclaimed, removed.
      await removeLeftovers(this.opts.pool, this.runtime, ownerFilter(this.opts.owner), this.opts.logger);
      this.adopted = true;
    }
    const claimsBefore = this.claims;
    // Members made while the list is read are not in it, and are not lost.
    const before = new Set(this.members.map((m) => m.id));
    const listed = await this.opts.pool.list(ownerFilter(this.opts.owner));
    const running = new Set(listed.filter((m) => m.state === 'running').map((m) => m.id));
    const isLost = (m: PoolMember) => before.has(m.id) && !running.has(m.id);
    const lost = this.members.filter(isLost);
    if (lost.length > 0) {
      this.members = this.members.filter((m) => !isLost(m));
      this.opts.logger.info('pool sandboxes died or were removed; making others', { count: lost.length });
      for (const m of lost) void this.remove(m.id);
    }
    // A refill in flight is listed before it is a member: strays are looked for only without one.
    if (!this.refill && this.claims === claimsBefore && this.busy.size === 0) {
      const known = new Set([...this.members.map((m) => m.id), ...this.busy]);
      for (const m of listed) if (!known.has(m.id)) void this.remove(m.id);
    }
    this.pump();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.check()
        .catch((error: unknown) => this.opts.logger.debug('pool check failed', { error }))
        .finally(() => this.schedule());
    }, this.opts.checkMs ?? CHECK_MS);
    this.timer.unref();
  }

  private async remove(id: string): Promise<void> {
    this.busy.add(id);
    try {
      await this.runtime.removeSandbox(id);
    } catch (error) {
      this.opts.logger.warn('could not remove a pool sandbox', { id, error });
    } finally {
      this.busy.delete(id);
    }
  }
}

/** The pool, when the runtime can have one and the settings ask for one; undefined (logged) otherwise. */
export async function startSandboxPool(opts: Omit<SandboxPoolOptions, 'pool'>): Promise<SandboxPool | undefined> {
  const pool = opts.runtime.sandboxPool;
  if (!pool) return undefined;
  const unsupported = opts.settings.max <= 0 ? 'turned off (--sandbox-pool-max 0)' : await pool.unsupported();
  if (unsupported) {
    if (opts.settings.max > 0) opts.logger.warn(`no sandbox pool: ${unsupported}`);
    // A previous agent may have run one: its containers still waiting for their hostname get it,
    // and its unclaimed members (each holding a pod address) go, pool or no pool.
    await removeLeftovers(pool, opts.runtime, ownerFilter(opts.owner), opts.logger);
    return undefined;
  }
  const started = new SandboxPool({ ...opts, pool });
  await started.start();
  return started;
}

/** What a previous agent's pool left: claims adopted (and their waiting containers released), unclaimed members removed. */
async function removeLeftovers(pool: SandboxPoolRuntime, runtime: ContainerRuntime, filter: ListFilter, logger: Logger): Promise<void> {
  await pool.adopt(filter);
  for (const stale of await pool.list(filter)) {
    await runtime.removeSandbox(stale.id).catch((error: unknown) => logger.warn('could not remove a pool sandbox', { id: stale.id, error }));
  }
}
