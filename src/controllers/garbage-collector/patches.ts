// What the garbage collector writes: the delete policy and preconditions it deletes a dependent
// with, and the metadata patches that drop owner references or release a finalizer.
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, hasFinalizer } from './graph.js';

export type Policy = 'Foreground' | 'Background' | 'Orphan';

/** The object's own finalizers decide how its dependents go, as in Kubernetes. */
export function policyOf(object: Readonly<KubeObject>): Policy {
  if (hasFinalizer(object, FINALIZER_ORPHAN)) return 'Orphan';
  if (hasFinalizer(object, FINALIZER_FOREGROUND)) return 'Foreground';
  return 'Background';
}

export function preconditionsOf(object: Readonly<KubeObject>): { uid: string; resourceVersion?: string } {
  const preconditions: { uid: string; resourceVersion?: string } = { uid: object.metadata.uid ?? '' };
  if (object.metadata.resourceVersion !== undefined) preconditions.resourceVersion = object.metadata.resourceVersion;
  return preconditions;
}

/** The owner references without these uids (null removes the field); undefined when none matched. */
export function withoutOwners(object: Readonly<KubeObject>, uids: ReadonlySet<string>): OwnerReference[] | null | undefined {
  const refs = object.metadata.ownerReferences ?? [];
  const kept = refs.filter((ref) => !uids.has(ref.uid));
  if (kept.length === refs.length) return undefined;
  return kept.length > 0 ? kept : null;
}

export function unblockedOwners(object: Readonly<KubeObject>): OwnerReference[] | undefined {
  const refs = object.metadata.ownerReferences ?? [];
  if (!refs.some((ref) => ref.blockOwnerDeletion === true)) return undefined;
  return refs.map((ref) => ({ ...ref, blockOwnerDeletion: false }));
}

/** Promise.allSettled over `items`, with at most `limit` calls running at once. */
export async function settleAll<T, R>(items: readonly T[], limit: number, call: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await call(items[index]!) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A metadata patch setting one field, or undefined when there is nothing to set. */
export function field(name: string, value: unknown): Record<string, unknown> | undefined {
  return value === undefined ? undefined : { [name]: value };
}

export function withoutFinalizer(object: Readonly<KubeObject>, finalizer: string): string[] | null | undefined {
  const finalizers = object.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) return undefined;
  const kept = finalizers.filter((f) => f !== finalizer);
  return kept.length > 0 ? kept : null;
}
