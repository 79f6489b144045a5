// Deletion as Kubernetes does it: preconditions, finalizers (the object stays, marked with a
// deletionTimestamp, until its finalizers are removed), graceful deletion (a pod bound to a
// node stays until its agent confirms with grace 0), propagation to dependents (the `orphan`
// and `foregroundDeletion` finalizers the garbage collector acts on; see propagation.ts), and
// namespaces, which are emptied by the namespace lifecycle loop before they go.
import { isObject, type KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { systemPriorityClass } from '../../api/scheduling/priority.js';
import { KeyNotFoundError, RevisionConflictError } from '../../storage/errors.js';
import { MAX_WRITE_RETRIES } from './write-retries.js';
import type { Store } from '../../storage/store.js';
import { forbidden, notFound, type ResourceRef } from '../errors.js';
import { checkPreconditions, type Preconditions } from './preconditions.js';
import { keyFor } from './keys.js';
import { timestamp } from './metadata.js';
import { finalizersAfterDelete, type PropagationPolicy } from './propagation.js';
import { strategyFor } from './strategies.js';
import type { MaybePromise } from '../../util/maybe-promise.js';

export type { PropagationPolicy } from './propagation.js';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  /** Unset: a garbage-collection finalizer already on the object decides, else Background. */
  propagationPolicy?: PropagationPolicy;
  preconditions?: Preconditions;
  dryRun: boolean;
}

export interface DeleteResult {
  /** The deleted object, or the object as it now stands when deletion is pending. */
  object: KubeObject;
  /** False while finalizers or a grace period keep the object. */
  finished: boolean;
}

function isNamespace(def: ResourceDefinition): boolean {
  return def.kind === 'Namespace' && def.group === '';
}

/** A namespace's spec.finalizers: what must release it (`kubernetes`: the namespace lifecycle) before it goes. */
export function namespaceFinalizers(namespace: KubeObject): string[] {
  const spec = isObject(namespace['spec']) ? namespace['spec'] : {};
  return Array.isArray(spec['finalizers']) ? spec['finalizers'].filter((f): f is string => typeof f === 'string') : [];
}

function refOf(def: ResourceDefinition, name: string): ResourceRef {
  return { group: def.group, plural: def.plural, name };
}

/**
 * Namespaces Kubernetes' NamespaceLifecycle admission never lets go. kube-system's uid is also
 * the cluster's identity, which every container an agent runs carries (agent/cluster-id.ts):
 * deleted and made again, it would turn every running container into a stranger.
 */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

export class DeletionHandler {
  constructor(
    private readonly storeFor: (def: ResourceDefinition) => Store,
    private readonly requireNamespace: (def: ResourceDefinition, namespace: string | undefined) => MaybePromise<void>,
  ) {}

  async delete(def: ResourceDefinition, namespace: string | undefined, name: string, options: DeleteOptions): Promise<DeleteResult> {
    if (isNamespace(def) && IMMORTAL_NAMESPACES.has(name)) {
      throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, refOf(def, name));
    }
    if (def.kind === 'PriorityClass' && def.group === 'scheduling.k8s.io' && systemPriorityClass(name)) {
      throw forbidden(`priorityclasses.scheduling.k8s.io "${name}" is forbidden: this is a system priority class and cannot be deleted`, refOf(def, name));
    }
    await this.requireNamespace(def, namespace);
    const key = keyFor(def, namespace, name);
    for (let attempt = 0; ; attempt++) {
      const current = await this.storeFor(def).get(key);
      if (!current) throw notFound(refOf(def, name));
      checkPreconditions(refOf(def, name), current, options.preconditions);
      try {
        return await this.deleteOnce(def, key, current, options);
      } catch (error) {
        // Changed meanwhile: look again. Deleted meanwhile: the next look answers 404.
        if ((error instanceof RevisionConflictError || error instanceof KeyNotFoundError) && attempt < MAX_WRITE_RETRIES) continue;
        throw error;
      }
    }
  }

  /**
   * Whether an update leaves an object marked for deletion with nothing more to wait for, so that
   * the update removes it (Kubernetes' ShouldDeleteDuringUpdate): no finalizers, no grace period
   * (that waits for a delete with grace 0) and, for a namespace, no spec.finalizers either (the
   * namespace lifecycle releases `kubernetes` once the namespace is empty).
   */
  removesOnUpdate(def: ResourceDefinition, object: KubeObject): boolean {
    const meta = object.metadata;
    if (!meta.deletionTimestamp || (meta.finalizers ?? []).length > 0 || (meta.deletionGracePeriodSeconds ?? 0) > 0) return false;
    return !isNamespace(def) || namespaceFinalizers(object).length === 0;
  }

  async removeNow(def: ResourceDefinition, key: string, name: string, expectedRevision?: number): Promise<KubeObject> {
    try {
      return await this.storeFor(def).delete(key, expectedRevision === undefined ? {} : { expectedRevision });
    } catch (error) {
      if (error instanceof KeyNotFoundError) throw notFound(refOf(def, name));
      throw error;
    }
  }

  private async deleteOnce(def: ResourceDefinition, key: string, current: KubeObject, options: DeleteOptions): Promise<DeleteResult> {
    const revision = Number(current.metadata.resourceVersion);
    const name = current.metadata.name!;
    // A namespace is marked on the first delete; once its spec.finalizers are released, a delete
    // removes it as any other object (Kubernetes' namespace REST.Delete).
    if (isNamespace(def) && (!current.metadata.deletionTimestamp || namespaceFinalizers(current).length > 0)) {
      return this.markNamespaceTerminating(def, key, current, options);
    }
    const meta = current.metadata;
    const grace = strategyFor(def).gracePeriod?.(current, options.gracePeriodSeconds);
    // A graceful deletion under way that this request does not shorten changes nothing, its
    // finalizers included: Kubernetes only lets a policy be switched while no grace period runs.
    const running = meta.deletionTimestamp !== undefined ? (meta.deletionGracePeriodSeconds ?? 0) : 0;
    if (running > 0 && grace !== undefined && grace >= running) return { object: current, finished: false };
    const finalizers = finalizersAfterDelete(current, options.propagationPolicy);
    const pending = (finalizers ?? meta.finalizers ?? []).length > 0;
    if (!pending && !grace) {
      if (options.dryRun) return { object: current, finished: true };
      return { object: await this.removeNow(def, key, name, revision), finished: true };
    }
    // store.get returns a fresh object: it is ours to change.
    const marked = current;
    if (finalizers && finalizers.length > 0) marked.metadata.finalizers = finalizers;
    else if (finalizers) delete marked.metadata.finalizers;
    const remarked = markForDeletion(marked, grace ?? 0);
    if (!finalizers && !remarked) return { object: current, finished: false };
    if (options.dryRun) return { object: marked, finished: false };
    return { object: await this.storeFor(def).update(key, marked, { expectedRevision: revision }), finished: false };
  }

  private async markNamespaceTerminating(def: ResourceDefinition, key: string, current: KubeObject, options: DeleteOptions): Promise<DeleteResult> {
    if (current.metadata.deletionTimestamp) return { object: current, finished: false };
    // store.get returns a fresh object: it is ours to change.
    const marked = current;
    marked.metadata.deletionTimestamp = timestamp();
    marked.metadata.deletionGracePeriodSeconds = 0;
    marked['status'] = { ...(marked['status'] as object | undefined), phase: 'Terminating' };
    if (options.dryRun) return { object: marked, finished: false };
    const stored = await this.storeFor(def).update(key, marked, { expectedRevision: Number(current.metadata.resourceVersion) });
    return { object: stored, finished: false };
  }
}

/**
 * Sets deletionTimestamp (now + grace) on the object; false when it is already marked with a
 * grace period no longer than this one (a later delete may only shorten it). The first mark
 * bumps generation, as Kubernetes does, so controllers see the change.
 */
function markForDeletion(object: KubeObject, grace: number): boolean {
  const meta = object.metadata;
  if (meta.deletionTimestamp !== undefined && (meta.deletionGracePeriodSeconds ?? 0) <= grace) return false;
  if (meta.deletionTimestamp === undefined && meta.generation !== undefined && meta.generation > 0) meta.generation += 1;
  meta.deletionTimestamp = timestamp(new Date(Date.now() + grace * 1000));
  meta.deletionGracePeriodSeconds = grace;
  return true;
}
