// Which garbage-collection finalizers a delete leaves on an object, as Kubernetes' generic
// registry decides it (deletionFinalizersForGarbageCollection): the request's policy wins, then
// a finalizer the object already carries, then the kind's default (Background everywhere here,
// which needs no finalizer: the garbage collector removes the dependents after the owner).
import type { FieldError, KubeObject } from '../../api/meta.js';
import { invalid } from '../errors.js';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export const PROPAGATION_POLICIES: readonly PropagationPolicy[] = ['Foreground', 'Background', 'Orphan'];

/** Kept until the garbage collector has removed this owner's reference from every dependent. */
export const FINALIZER_ORPHAN = 'orphan';
/** Kept until the garbage collector has deleted every dependent that blocks owner deletion. */
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export function isPropagationPolicy(value: unknown): value is PropagationPolicy {
  return typeof value === 'string' && (PROPAGATION_POLICIES as readonly string[]).includes(value);
}

/**
 * The finalizers the object has after a delete with this policy: both garbage-collection
 * finalizers are taken out and the one the policy asks for is appended. Undefined when the
 * list does not change.
 */
export function finalizersAfterDelete(object: KubeObject, policy: PropagationPolicy | undefined): string[] | undefined {
  const current = object.metadata.finalizers ?? [];
  const orphan = policy === undefined ? hasFirst(current, FINALIZER_ORPHAN) : policy === 'Orphan';
  const foreground = policy === undefined ? hasFirst(current, FINALIZER_FOREGROUND) : policy === 'Foreground';
  const next = current.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (orphan) next.push(FINALIZER_ORPHAN);
  if (foreground) next.push(FINALIZER_FOREGROUND);
  return sameSet(current, next) ? undefined : next;
}

/**
 * Without a policy, the first garbage-collection finalizer on the object decides (validation
 * keeps both from being there at once, but the first wins if they are).
 */
function hasFirst(finalizers: readonly string[], wanted: string): boolean {
  return finalizers.find((f) => f === FINALIZER_ORPHAN || f === FINALIZER_FOREGROUND) === wanted;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((f) => right.has(f));
}

/**
 * The policy of a DeleteOptions (body fields, else query parameters), with the deprecated
 * `orphanDependents` mapped onto it. Invalid values are a 422 naming `propagationPolicy`.
 */
export function propagationPolicyOf(body: Record<string, unknown>, query: URLSearchParams): PropagationPolicy | undefined {
  const policy = body['propagationPolicy'] ?? query.get('propagationPolicy') ?? undefined;
  const orphan = body['orphanDependents'] ?? booleanParam(query.get('orphanDependents'));
  const errors: FieldError[] = [];
  if (policy !== undefined && policy !== null && orphan !== undefined && orphan !== null) {
    errors.push({
      field: 'propagationPolicy',
      type: 'FieldValueInvalid',
      message: `Invalid value: "${String(policy)}": orphanDependents and deletionPropagation cannot be both set`,
    });
  }
  if (policy !== undefined && policy !== null && !isPropagationPolicy(policy)) {
    const supported = [...PROPAGATION_POLICIES, 'nil'].map((p) => `"${p}"`).join(', ');
    errors.push({
      field: 'propagationPolicy',
      type: 'FieldValueNotSupported',
      message: `Unsupported value: "${String(policy)}": supported values: ${supported}`,
    });
  }
  if (orphan !== undefined && orphan !== null && typeof orphan !== 'boolean') {
    errors.push({ field: 'orphanDependents', type: 'FieldValueTypeInvalid', message: `Invalid value: ${JSON.stringify(orphan)}: must be true or false` });
  }
  if (errors.length > 0) throw invalid('DeleteOptions', '', 'meta.k8s.io', errors);
  if (isPropagationPolicy(policy)) return policy;
  if (orphan === true) return 'Orphan';
  if (orphan === false) return 'Background';
  return undefined;
}

function booleanParam(value: string | null): boolean | string | undefined {
  if (value === null || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}
