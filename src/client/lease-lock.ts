// Locks on coordination.k8s.io/v1 Leases, as client-go's leader election takes them: the
// holder renews renewTime; anyone may take a lease whose holder stopped renewing for
// leaseDurationSeconds, and every write is a compare-and-swap on resourceVersion, so of two
// contenders exactly one wins.
//
// Expiry is judged on this process's clock from when it last saw the lease record change, not
// from the renewTime written by another machine, so clock skew between machines cannot make a
// lease look expired early. One LeaseLock serves any number of leases (one per shard, say).
//
// A holder renews with one write, of the record it wrote last (client-go's optimistic fast
// path): the compare-and-swap fails if anyone wrote since, and only then is the lease read
// first. Under a slow server a renewal is then one round trip, not two, which is what keeps it
// within the renew deadline (issue 15: shard renewals of two round trips each lapsed).
import { microTime, type KubeObject } from '../api/meta.js';
import type { ApiClient } from './api-client.js';
import { isAlreadyExists, isConflict, isNotFound } from './errors.js';
import { keyOf } from './keys.js';
import type { ResourceClient } from './resource-client.js';
import { resources } from './resources.js';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

export interface LeaseAttempt {
  /** This identity holds the lease now. */
  held: boolean;
  /** Who holds it (may be this identity, another one, or nobody). */
  holder: string | undefined;
  /** Whether the holder changed with this attempt. */
  transitioned: boolean;
  lease: Lease | undefined;
}

interface Observation {
  resourceVersion: string | undefined;
  /** Local monotonic time at which this version was first seen. */
  at: number;
}

/**
 * Whether a lease has a holder that renewed it within its duration, by the wall clock
 * (`defaultSeconds` when the lease names no duration): a role's holder is alive.
 */
export function leaseIsLive(lease: Lease, now: number, defaultSeconds: number): boolean {
  const spec = lease.spec ?? {};
  const renewed = Date.parse(spec.renewTime ?? '');
  return Boolean(spec.holderIdentity) && Number.isFinite(renewed) && now - renewed < (spec.leaseDurationSeconds ?? defaultSeconds) * 1000;
}

export class LeaseLock {
  private readonly leases: ResourceClient<Lease>;
  private readonly observed = new Map<string, Observation>();
  /** Per lease, the record this lock last wrote while holding it: what a renewal writes over. */
  private readonly written = new Map<string, Lease>();

  constructor(
    api: ApiClient,
    private readonly clock: { now(): number; wallTime(): Date } = { now: () => performance.now(), wallTime: () => new Date() },
  ) {
    this.leases = api.resource<Lease>(resources.leases);
  }

  /** Takes the lease if it is free or expired, renews it if held; never throws on a lost race. */
  async tryAcquireOrRenew(name: string, namespace: string, identity: string, leaseDurationSeconds: number): Promise<LeaseAttempt> {
    const renewed = await this.renewWritten(name, namespace, identity, leaseDurationSeconds);
    if (renewed !== undefined) return renewed;
    const leases = this.leases.inNamespace(namespace);
    let current: Lease;
    try {
      current = await leases.get(name);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      return this.create(name, namespace, identity, leaseDurationSeconds);
    }
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity || undefined;
    const seen = this.observe(namespace, name, current);
    const duration = (spec.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
    if (holder !== undefined && holder !== identity && this.clock.now() - seen.at < duration) {
      return { held: false, holder, transitioned: false, lease: current };
    }
    const now = microTime(this.clock.wallTime());
    const transitioned = holder !== identity;
    const next: LeaseSpec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds,
      renewTime: now,
      acquireTime: transitioned ? now : (spec.acquireTime ?? now),
      leaseTransitions: (spec.leaseTransitions ?? 0) + (transitioned ? 1 : 0),
    };
    try {
      const updated = await leases.update({ ...current, spec: next });
      this.wrote(namespace, name, updated);
      return { held: true, holder: identity, transitioned, lease: updated };
    } catch (error) {
      if (!isConflict(error)) throw error;
      return { held: false, holder, transitioned: false, lease: current };
    }
  }

  /**
   * The fast path: renews the record this lock wrote last, when it names `identity`. Undefined
   * when there is none, or when the lease changed since (conflict) or is gone: the caller reads it.
   */
  private async renewWritten(name: string, namespace: string, identity: string, leaseDurationSeconds: number): Promise<LeaseAttempt | undefined> {
    const key = keyOf(namespace, name);
    const mine = this.written.get(key);
    if (mine?.spec?.holderIdentity !== identity) return undefined;
    const spec: LeaseSpec = { ...mine.spec, leaseDurationSeconds, renewTime: microTime(this.clock.wallTime()) };
    try {
      const updated = await this.leases.inNamespace(namespace).update({ ...mine, spec });
      this.wrote(namespace, name, updated);
      return { held: true, holder: identity, transitioned: false, lease: updated };
    } catch (error) {
      // A write that failed otherwise (a timeout) may have landed: the next try reads the lease.
      this.written.delete(key);
      if (isConflict(error) || isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** A write of ours landed: its record is what the next renewal writes over. */
  private wrote(namespace: string, name: string, lease: Lease): void {
    this.observe(namespace, name, lease);
    this.written.set(keyOf(namespace, name), lease);
  }

  /** Gives the lease up if this identity holds it, so a successor need not wait for expiry. */
  async release(name: string, namespace: string, identity: string): Promise<boolean> {
    const leases = this.leases.inNamespace(namespace);
    try {
      const current = await leases.get(name);
      if (current.spec?.holderIdentity !== identity) return false;
      const spec: LeaseSpec = { ...current.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(this.clock.wallTime()) };
      await leases.update({ ...current, spec });
      this.observed.delete(keyOf(namespace, name));
      this.written.delete(keyOf(namespace, name));
      return true;
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) return false;
      throw error;
    }
  }

  private async create(name: string, namespace: string, identity: string, leaseDurationSeconds: number): Promise<LeaseAttempt> {
    const now = microTime(this.clock.wallTime());
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace },
      spec: { holderIdentity: identity, leaseDurationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 },
    };
    try {
      const created = await this.leases.inNamespace(namespace).create(lease);
      this.wrote(namespace, name, created);
      return { held: true, holder: identity, transitioned: true, lease: created };
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      return { held: false, holder: undefined, transitioned: false, lease: undefined };
    }
  }

  /**
   * Records a lease read some other way (a list of them all), so its expiry is judged from
   * when it last changed even if this process never tried to take it before.
   */
  noteObserved(lease: Lease): void {
    const { namespace, name } = lease.metadata;
    if (namespace !== undefined && name !== undefined) this.observe(namespace, name, lease);
  }

  private observe(namespace: string, name: string, lease: Lease): Observation {
    const key = keyOf(namespace, name);
    const previous = this.observed.get(key);
    if (previous && previous.resourceVersion === lease.metadata.resourceVersion) return previous;
    const observation = { resourceVersion: lease.metadata.resourceVersion, at: this.clock.now() };
    this.observed.set(key, observation);
    return observation;
  }
}
