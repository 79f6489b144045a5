// Objects a store read from a value that a write today would store differently: written under an
// encryption key or provider that is no longer the first one (see encryption/transformer.ts).
// The API server skips an update that changes nothing; for these objects it must not, since the
// rewrite is what moves them to the new key (`kubectl get secrets -A -o json | kubectl replace -f -`),
// as Kubernetes' storage treats a "stale" read.
const stale = new WeakSet<object>();

export function markStale(object: object): void {
  stale.add(object);
}

/** Whether a rewrite of this object, even unchanged, would change what is stored. */
export function isStale(object: object): boolean {
  return stale.has(object);
}
