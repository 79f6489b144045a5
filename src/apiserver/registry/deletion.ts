// Deletion as Kubernetes does it: preconditions, finalizers (the object stays, marked with a
// deletionTimestamp, until its finalizers are removed), graceful deletion (a pod bound to a
// node stays until its agent confirms with grace 0), and namespaces, which are emptied by the
// namespace lifecycle loop before they go.
import type { KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { KeyNotFoundError, RevisionConflictError } from '../../storage/errors.js';
import type { Store } from '../../storage/store.js';
import { conflict, notFound, type ResourceRef } from '../errors.js';
import { keyFor } from './keys.js';
import { timestamp } from './metadata.js';
import { strategyFor } from './strategies.js';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}

export interface DeleteResult {
  /** The deleted object, or the object as it now stands when deletion is pending. */
  object: KubeObject;
  /** False while finalizers or a grace period keep the object. */
  finished: boolean;
}

const MAX_RETRIES = 8;

function refOf(def: ResourceDefinition, name: string): ResourceRef {
  return { group: def.group, plural: def.plural, name };
}

export class DeletionHandler {
  constructor(
    private readonly store: Store,
    private readonly requireNamespace: (def: ResourceDefinition, namespace: string | undefined) => Promise<void>,
  ) {}

  async delete(def: ResourceDefinition, namespace: string | undefined, name: string, options: DeleteOptions): Promise<DeleteResult> {
    await this.requireNamespace(def, namespace);
    const key = keyFor(def, namespace, name);
    for (let attempt = 0; ; attempt++) {
      const current = await this.store.get(key);
      if (!current) throw notFound(refOf(def, name));
      checkPreconditions(def, current, options);
      try {
        return await this.deleteOnce(def, key, current, options);
      } catch (error) {
        if (error instanceof RevisionConflictError && attempt < MAX_RETRIES) continue;
        throw error;
      }
    }
  }

  /** An object marked for deletion with a grace period waits for a delete with grace 0. */
  waitsForAgent(_def: ResourceDefinition, object: KubeObject): boolean {
    return (object.metadata.deletionGracePeriodSeconds ?? 0) > 0;
  }

  async removeNow(def: ResourceDefinition, key: string, name: string, expectedRevision?: number): Promise<KubeObject> {
    try {
      return await this.store.delete(key, expectedRevision === undefined ? {} : { expectedRevision });
    } catch (error) {
      if (error instanceof KeyNotFoundError) throw notFound(refOf(def, name));
      throw error;
    }
  }

  private async deleteOnce(def: ResourceDefinition, key: string, current: KubeObject, options: DeleteOptions): Promise<DeleteResult> {
    const revision = Number(current.metadata.resourceVersion);
    const name = current.metadata.name!;
    if (def.kind === 'Namespace' && def.group === '') return this.markNamespaceTerminating(key, current, options);
    const grace = strategyFor(def).gracePeriod?.(current, options.gracePeriodSeconds);
    const hasFinalizers = (current.metadata.finalizers ?? []).length > 0;
    if (!hasFinalizers && grace === undefined) {
      if (options.dryRun) return { object: current, finished: true };
      return { object: await this.removeNow(def, key, name, revision), finished: true };
    }
    const marked = markForDeletion(current, grace ?? 0);
    if (!marked) return { object: current, finished: false };
    if (!hasFinalizers && grace === 0) {
      // A shortened grace period of 0 completes a graceful deletion at once.
      if (options.dryRun) return { object: current, finished: true };
      return { object: await this.removeNow(def, key, name, revision), finished: true };
    }
    if (options.dryRun) return { object: marked, finished: false };
    return { object: await this.store.update(key, marked, { expectedRevision: revision }), finished: false };
  }

  private async markNamespaceTerminating(key: string, current: KubeObject, options: DeleteOptions): Promise<DeleteResult> {
    if (current.metadata.deletionTimestamp) return { object: current, finished: false };
    // store.get returns a fresh object: it is ours to change.
    const marked = current;
    marked.metadata.deletionTimestamp = timestamp();
    marked.metadata.deletionGracePeriodSeconds = 0;
    marked['status'] = { ...(marked['status'] as object | undefined), phase: 'Terminating' };
    if (options.dryRun) return { object: marked, finished: false };
    const stored = await this.store.update(key, marked, { expectedRevision: Number(current.metadata.resourceVersion) });
    return { object: stored, finished: false };
  }
}

function checkPreconditions(def: ResourceDefinition, current: KubeObject, options: DeleteOptions): void {
  const wanted = options.preconditions;
  const name = current.metadata.name!;
  if (wanted?.uid && wanted.uid !== current.metadata.uid) {
    throw conflict(refOf(def, name), `Precondition failed: UID in precondition: ${wanted.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
  }
  if (wanted?.resourceVersion && wanted.resourceVersion !== current.metadata.resourceVersion) {
    throw conflict(
      refOf(def, name),
      `Precondition failed: ResourceVersion in precondition: ${wanted.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`,
    );
  }
}

/**
 * The object with deletionTimestamp set (now + grace), or undefined when it is already marked
 * with a grace period no longer than this one (a later delete may only shorten it).
 */
function markForDeletion(current: KubeObject, grace: number): KubeObject | undefined {
  const meta = current.metadata;
  if (meta.deletionTimestamp !== undefined && (meta.deletionGracePeriodSeconds ?? 0) <= grace) return undefined;
  const marked = current;
  marked.metadata.deletionTimestamp = timestamp(new Date(Date.now() + grace * 1000));
  marked.metadata.deletionGracePeriodSeconds = grace;
  return marked;
}
