// Service addresses claimed in the store, for stores several API servers share (etcd). Each
// server's address book (service-allocator.ts) only knows what its own watch has seen, so two
// servers could pick the same free cluster IP at the same moment. As Kubernetes keeps its
// allocator state in etcd, each address handed out gets a claim record, written create-only:
// of two servers racing for one address exactly one create succeeds, and the other picks again.
//
// A claim names the Service (namespace/name and uid) that holds the address. It is deleted when
// that Service lets the address go; one left behind (a create that never landed, a server that
// died between claim and write) is taken over once its Service does not hold the address and
// the claim is older than a reservation may live.
import type { KubeObject } from '../../api/meta.js';
import { KeyExistsError, KeyNotFoundError, RevisionConflictError } from '../../storage/errors.js';
import type { Store } from '../../storage/store.js';

export type AddressKind = 'ip' | 'port';

/** Who claims: the Service's key (namespace/name), uid and storage key. */
export interface Claimant {
  key: string;
  uid: string;
  storageKey: string;
}

const PREFIX: Record<AddressKind, string> = {
  ip: '/registry/ranges/serviceips/',
  port: '/registry/ranges/servicenodeports/',
};

function claimKey(kind: AddressKind, value: string | number): string {
  return `${PREFIX[kind]}${value}`;
}

interface ClaimRecord extends KubeObject {
  owner: string;
  uid: string;
  /** Where the owning Service is stored. */
  storageKey: string;
  reservedAt: number;
}

function recordFor(kind: AddressKind, value: string | number, who: Claimant, now: number): ClaimRecord {
  return {
    apiVersion: 'drover.dev/v1',
    kind: 'ServiceAddressClaim',
    metadata: { name: `${kind}-${value}` },
    owner: who.key,
    uid: who.uid,
    storageKey: who.storageKey,
    reservedAt: now,
  };
}

/**
 * Claims `value` for the Service; false when another Service holds it, or a claim in flight
 * (younger than `reservationMs`) does.
 */
export async function claimAddress(
  store: Store,
  kind: AddressKind,
  value: string | number,
  who: Claimant,
  holds: (service: KubeObject) => boolean,
  reservationMs: number,
): Promise<boolean> {
  const key = claimKey(kind, value);
  const now = Date.now();
  try {
    await store.create(key, recordFor(kind, value, who, now));
    return true;
  } catch (error) {
    if (!(error instanceof KeyExistsError)) throw error;
  }
  const existing = (await store.get(key)) as ClaimRecord | undefined;
  if (!existing) return claimAddress(store, kind, value, who, holds, reservationMs);
  if (existing.uid === who.uid) return true;
  if (await stillHeld(store, existing, holds, now, reservationMs)) return false;
  try {
    await store.update(key, recordFor(kind, value, who, now), { expectedRevision: Number(existing.metadata.resourceVersion) });
    return true;
  } catch (error) {
    // Another server took it over first.
    if (error instanceof RevisionConflictError || error instanceof KeyNotFoundError) return false;
    throw error;
  }
}

async function stillHeld(store: Store, claim: ClaimRecord, holds: (service: KubeObject) => boolean, now: number, reservationMs: number): Promise<boolean> {
  const service = await store.get(claim.storageKey);
  if (service && service.metadata.uid === claim.uid) return holds(service);
  return now - claim.reservedAt < reservationMs;
}

/** Drops the Service's claim on `value`, if it is still its own (never another's newer claim). */
export async function releaseClaim(store: Store, kind: AddressKind, value: string | number, uid: string): Promise<void> {
  const key = claimKey(kind, value);
  const existing = (await store.get(key)) as ClaimRecord | undefined;
  if (!existing || existing.uid !== uid) return;
  try {
    await store.delete(key, { expectedRevision: Number(existing.metadata.resourceVersion) });
  } catch (error) {
    if (!(error instanceof RevisionConflictError || error instanceof KeyNotFoundError)) throw error;
  }
}

/** Logs instead of failing: a claim left behind is taken over later (see claimAddress). */
export function releaseInBackground(store: Store, kind: AddressKind, value: string | number, uid: string): void {
  releaseClaim(store, kind, value, uid).catch((error: unknown) => {
    console.error(`service addresses: releasing the claim on ${kind} ${value}: ${(error as Error).message}`);
  });
}
