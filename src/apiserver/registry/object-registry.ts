// The generic registry: create, read, update, patch and delete of any kind on top of the Store
// (reads, lists and watches in object-reader.ts), with Kubernetes' metadata semantics (uid,
// generation, resourceVersion preconditions, finalizers and graceful deletion, managedFields,
// dry run). HTTP handlers are thin adapters over this class; nothing here knows about HTTP.
import type { UserInfo } from '../../auth/types.js';
import { isObject, type KubeObject } from '../../api/meta.js';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import type { JsonSchema } from '../../api/schema-nav.js';
import { applyPatch } from '../patch/index.js';
import { applyServerSideInSlices, updateManagedFields } from '../patch/apply/index.js';
import { KeyExistsError, KeyNotFoundError, RevisionConflictError } from '../../storage/errors.js';
import type { Store } from '../../storage/store.js';
import { isStale } from '../../storage/stale-values.js';
import { alreadyExists, badRequest, forbidden, notFound, staleResourceVersion } from '../errors.js';
import { asObjectOfKind, checkFields, reconcileNamespace, validateOrThrow, type FieldValidation } from './admission.js';
import { closeServiceAddresses, type ServiceRange } from './service-allocator.js';
import { clusterNetwork } from '../../api/cluster-network.js';
import { MAX_WRITE_RETRIES } from './write-retries.js';
import { checkStoragePreconditions, type Preconditions } from './preconditions.js';
import { assignPod, bindingPreconditions, checkBinding } from './pod-binding.js';
import { keyFor, prefixFor } from './keys.js';
import { ObjectReader, ref } from './object-reader.js';
import { stampChangedBy } from './changed-by.js';
import { carryOverMetadata, initialiseMetadata, sameContent, timestamp } from './metadata.js';
import { strategyFor, type StrategyContext, type Undo } from './strategies.js';
import { NamespaceCache } from './namespace-cache.js';
import { DeletionHandler, type DeleteOptions, type DeleteResult } from './deletion.js';
import { EventLoopSlice } from '../event-loop-slice.js';
import { findResource } from '../../api/registry.js';
import type { AdmissionRequest, ValidatingAdmission } from '../admission/validating-admission.js';
import type { MutatingAdmission } from '../admission/mutating-admission.js';
import { PodSecurityAdmission } from '../admission/pod-security/pod-security-admission.js';
import type { PodSecurityLevel } from '../admission/pod-security/policy.js';
import { whenReady, type MaybePromise } from '../../util/maybe-promise.js';

export interface WriteOptions {
  dryRun: boolean;
  fieldManager: string;
  fieldValidation: FieldValidation;
  /** 'status' for the status subresource; undefined for the main resource. */
  subresource?: string;
  /** Where admission records annotations for the request's audit event (the HTTP handlers pass the request's). */
  auditAnnotations?: Record<string, string>;
  /** Who writes: for admission (RBAC escalation) and drover.dev/changed-by (registry/changed-by.ts). */
  user?: UserInfo;
}

export interface RegistryOptions {
  /** Pod Security level of namespaces without pod-security.kubernetes.io labels (default privileged). */
  podSecurityDefault?: PodSecurityLevel;
  /** More validating admission steps, after Pod Security (RBAC's escalation check). */
  validating?: readonly ValidatingAdmission[];
  /** Mutating admission steps on create, after defaults (the service-account token projection). */
  mutating?: readonly MutatingAdmission[];
  /** The service CIDR and cluster DNS address Services' cluster IPs come from (default: clusterNetwork()'s). */
  serviceRange?: ServiceRange;
}

export interface WriteResult {
  object: KubeObject;
  warnings: string[];
  /** True when the write created the object (HTTP 201). */
  created: boolean;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export { ref };

export class ObjectRegistry extends ObjectReader {
  private readonly deletion: DeletionHandler;
  private readonly namespaces: NamespaceCache;
  /** The validating phase of admission: after defaults and validation, before the store. */
  private readonly validating: readonly ValidatingAdmission[];
  private readonly mutating: readonly MutatingAdmission[];
  private readonly serviceRange: ServiceRange;

  constructor(store: Store, options: RegistryOptions = {}) {
    super(store);
    this.deletion = new DeletionHandler(
      (def) => this.storeFor(def),
      (def, ns) => this.requireNamespace(def, ns, false),
    );
    this.namespaces = new NamespaceCache(store);
    this.namespaces.start();
    const pods = findResource('', 'v1', 'pods')!;
    const podSecurity: ConstructorParameters<typeof PodSecurityAdmission>[0] = {
      namespaceLabels: (name) => whenReady(this.namespaces.lookup(name), (state) => state?.labels),
      listPods: async (namespace) => (await store.list({ prefix: prefixFor(pods, namespace) })).items,
    };
    if (options.podSecurityDefault) podSecurity.defaultLevel = options.podSecurityDefault;
    this.validating = [new PodSecurityAdmission(podSecurity), ...(options.validating ?? [])];
    this.mutating = options.mutating ?? [];
    this.serviceRange = options.serviceRange ?? clusterNetwork();
  }

  async create(
    def: ResourceDefinition,
    namespace: string | undefined,
    body: unknown,
    options: WriteOptions,
    slice = new EventLoopSlice(),
  ): Promise<WriteResult> {
    slice.consider(body);
    // Kind and apiVersion missing from the body are the URL's, as Kubernetes' decoder defaults them.
    const object = asObjectOfKind(body, def, true);
    reconcileNamespace(object, def, namespace);
    if (object.metadata.resourceVersion) {
      throw badRequest('resourceVersion should not be set on objects to be created');
    }
    const namespaceChecked = this.requireNamespace(def, object.metadata.namespace, true);
    if (namespaceChecked) await namespaceChecked;
    const { warnings, errors } = checkFields(object, def, options.fieldValidation);
    def.applyDefaults(object);
    initialiseMetadata(object, timestamp());
    const mutation: AdmissionRequest = { operation: 'create', def, object, auditAnnotations: options.auditAnnotations ?? {} };
    if (options.user) mutation.user = options.user;
    for (const step of this.mutating) {
      if (step.mutates?.(mutation) === false) continue;
      const admitting = step.admit(mutation);
      if (admitting) await admitting;
    }
    await slice.pause();
    const undo = await strategyFor(def).prepareForCreate?.(object, strategyContext(this.store, def, options, this.serviceRange));
    return landOrUndo(undo, options, async () => {
      validateOrThrow(def, object, undefined, errors);
      const admitted = this.admit(def, object, undefined, options);
      warnings.push(...(admitted instanceof Promise ? await admitted : admitted));
      await slice.pause();
      this.trackFields(def, undefined, object, options);
      stampChangedBy(def, object, undefined, options.user?.username);
      await slice.pause();
      if (options.dryRun) return { object, warnings, created: true };
      try {
        const stored = await this.storeFor(def).create(keyFor(def, object.metadata.namespace, object.metadata.name!), object);
        return { object: stored, warnings, created: true };
      } catch (error) {
        if (error instanceof KeyExistsError) throw alreadyExists(ref(def, object.metadata.name));
        throw error;
      }
    });
  }

  /**
   * PUT: replaces the object (or, with `subresource: 'status'`, only its status). Without a
   * resourceVersion the update is unconditional: one that raced another write is made again on
   * the newer object, as PATCH is.
   */
  async update(
    def: ResourceDefinition,
    namespace: string | undefined,
    name: string,
    body: unknown,
    options: WriteOptions,
    slice = new EventLoopSlice(),
  ): Promise<WriteResult> {
    const key = keyFor(def, namespace, name);
    slice.consider(body);
    return this.retryingRaces(def, name, async () => {
      // replace() changes the object it is given: each attempt starts from the body as sent.
      const object = asObjectOfKind(structuredClone(body), def, true);
      reconcileNamespace(object, def, namespace);
      if (object.metadata.name !== name) {
        throw badRequest(`the name of the object (${object.metadata.name ?? ''}) does not match the name on the URL (${name})`);
      }
      const old = await this.storeFor(def).get(key);
      if (!old) {
        if (strategyFor(def).allowCreateOnUpdate && !options.subresource) {
          delete object.metadata.resourceVersion;
          return this.create(def, namespace, object, options, slice);
        }
        throw notFound(ref(def, name));
      }
      // "" and "0" ask for no precondition: the update is unconditional, as in Kubernetes.
      const requested = object.metadata.resourceVersion === '0' ? '' : object.metadata.resourceVersion;
      if (requested && requested !== old.metadata.resourceVersion) throw staleResourceVersion(ref(def, name));
      slice.consider(old);
      await slice.pause();
      return this.replace(def, key, old, object, options, requested !== undefined && requested !== '', slice);
    });
  }

  /** PATCH: reads the object, applies the patch and writes it, retrying when another write raced. */
  async patch(
    def: ResourceDefinition,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patchBody: unknown,
    options: WriteOptions & { force: boolean },
    slice = new EventLoopSlice(),
  ): Promise<WriteResult> {
    const key = keyFor(def, namespace, name);
    slice.consider(patchBody);
    return this.retryingRaces(def, name, async () => {
      const old = await this.storeFor(def).get(key);
      if (!old) {
        if (type === 'apply' && !options.subresource) return this.createByApply(def, namespace, name, patchBody, options, slice);
        throw notFound(ref(def, name));
      }
      // A small patch to a large object walks all of it.
      slice.consider(old);
      await slice.pause();
      const patched = await this.patchedObject(def, old, type, patchBody, options, slice);
      await slice.pause();
      // A resourceVersion in the patch is a precondition; without one, a race is retried.
      // The merged object always carries the stored version, so ask the patch itself.
      const explicit = patchSetsResourceVersion(type, patchBody);
      if (explicit && patched.metadata.resourceVersion !== old.metadata.resourceVersion) throw staleResourceVersion(ref(def, name));
      patched.metadata.resourceVersion = old.metadata.resourceVersion;
      // Server-side apply recorded field ownership while merging.
      const replaceOptions = type === 'apply' ? { ...options, fieldManager: '' } : options;
      return this.replace(def, key, old, patched, replaceOptions, explicit, slice);
    });
  }

  /**
   * pods/binding, as Kubernetes' BindingREST.Create: the Binding is validated and admitted as the
   * create it is, then the pod is assigned in one guaranteedUpdate (registry/pod-binding.ts).
   */
  async bindPod(def: ResourceDefinition, namespace: string | undefined, name: string, binding: KubeObject, options: WriteOptions): Promise<KubeObject> {
    checkBinding(binding, name);
    await this.admit(def, binding, undefined, { ...options, subresource: 'binding' });
    const preconditions = bindingPreconditions(binding);
    return this.guaranteedUpdate(def, namespace, name, preconditions, (pod) => assignPod(pod, binding), options.dryRun);
  }

  /**
   * A read-modify-write made by the server rather than a client's PUT or PATCH (Kubernetes'
   * GuaranteedUpdate): `change` gets the stored object, a copy of its own, and returns it changed
   * or throws to refuse. The preconditions are checked on every read, and a write that lost a race
   * is made again on the newer object. As in Kubernetes, such a write is a system one: no update
   * strategy, validation or managedFields entry (pods/binding sets spec.nodeName, which no update
   * may change, and Kubernetes records no manager for it).
   */
  async guaranteedUpdate(
    def: ResourceDefinition,
    namespace: string | undefined,
    name: string,
    preconditions: Preconditions | undefined,
    change: (current: KubeObject) => KubeObject,
    dryRun: boolean,
  ): Promise<KubeObject> {
    const key = keyFor(def, namespace, name);
    const store = this.storeFor(def);
    return this.retryingRaces(def, name, async () => {
      const current = await store.get(key);
      if (!current) throw notFound(ref(def, name));
      checkStoragePreconditions(ref(def, name), key, current, preconditions);
      const expectedRevision = Number(current.metadata.resourceVersion);
      const changed = change(current);
      if (dryRun) return changed;
      try {
        return await store.update(key, changed, { expectedRevision });
      } catch (error) {
        if (error instanceof RevisionConflictError) throw new RevisionConflictRetry();
        if (error instanceof KeyNotFoundError) throw notFound(ref(def, name));
        throw error;
      }
    });
  }

  /**
   * Runs a read-modify-write until it does not lose a race to another write (replace() throws
   * RevisionConflictRetry), at most MAX_WRITE_RETRIES times more; after that the client gets 409.
   */
  private async retryingRaces<T>(def: ResourceDefinition, name: string, attempt: () => Promise<T>): Promise<T> {
    for (let retries = 0; ; retries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof RevisionConflictRetry)) throw error;
        if (retries >= MAX_WRITE_RETRIES) throw staleResourceVersion(ref(def, name));
      }
    }
  }

  delete(def: ResourceDefinition, namespace: string | undefined, name: string, options: DeleteOptions): Promise<DeleteResult> {
    return this.deletion.delete(def, namespace, name, options);
  }

  private async patchedObject(
    def: ResourceDefinition,
    old: KubeObject,
    type: PatchType,
    patchBody: unknown,
    options: WriteOptions & { force: boolean },
    slice: EventLoopSlice,
  ): Promise<KubeObject> {
    if (type === 'apply') {
      const applied = asObjectOfKind(applyConfigurationCopy(patchBody), def);
      reconcileNamespace(applied, def, old.metadata.namespace);
      const applyOptions: Parameters<typeof applyServerSideInSlices>[2] = {
        manager: options.fieldManager,
        force: options.force,
        schema: def.schema as JsonSchema,
        now: timestamp(),
      };
      if (options.subresource) applyOptions.subresource = options.subresource;
      return applyServerSideInSlices(old, applied, applyOptions, () => slice.pause());
    }
    const result = applyPatch(contentTypeOf(type), old, patchBody, def.schema as JsonSchema);
    const object = asObjectOfKind(result, def);
    reconcileNamespace(object, def, old.metadata.namespace);
    if (object.metadata.name !== old.metadata.name) {
      throw badRequest(`the name of the object (${object.metadata.name ?? ''}) does not match the name on the URL (${old.metadata.name ?? ''})`);
    }
    return object;
  }

  private async createByApply(
    def: ResourceDefinition,
    namespace: string | undefined,
    name: string,
    patchBody: unknown,
    options: WriteOptions & { force: boolean },
    slice: EventLoopSlice,
  ): Promise<WriteResult> {
    const applied = asObjectOfKind(applyConfigurationCopy(patchBody), def);
    reconcileNamespace(applied, def, namespace);
    if (applied.metadata.name !== name) {
      throw badRequest(`the name of the object (${applied.metadata.name ?? ''}) does not match the name on the URL (${name})`);
    }
    const applyOptions = { manager: options.fieldManager, force: options.force, schema: def.schema as JsonSchema, now: timestamp() };
    const object = await applyServerSideInSlices(undefined, applied, applyOptions, () => slice.pause());
    await slice.pause();
    return this.create(def, namespace, object, { ...options, fieldManager: '' }, slice);
  }

  /**
   * The shared tail of update and patch: keeps what the client may not change, checks, and
   * writes with the read revision as precondition. `explicitPrecondition` means a conflict is
   * the client's (409) rather than a race to retry.
   */
  private async replace(
    def: ResourceDefinition,
    key: string,
    old: KubeObject,
    object: KubeObject,
    options: WriteOptions,
    explicitPrecondition: boolean,
    slice: EventLoopSlice,
  ): Promise<WriteResult> {
    const expectedRevision = Number(old.metadata.resourceVersion);
    const subresource = options.subresource;
    // A CSR's approval writes part of its status: kept like a status write, its strategy picks the part.
    const statusWrite = subresource === 'status' || subresource === 'approval';
    if (statusWrite) keepAllButStatus(object, old);
    else if (def.subresources.status) object['status'] = old['status'];
    if (object['status'] === undefined) delete object['status'];
    const { warnings, errors } = checkFields(object, def, options.fieldValidation);
    const undo = await strategyFor(def).prepareForUpdate?.(object, old, strategyContext(this.store, def, options, this.serviceRange));
    return landOrUndo(undo, options, async () => {
      def.applyDefaults(object);
      // Custom resources (their schema is checked by their own walk) count status changes unless /status is served.
      carryOverMetadata(object, old, def.checkSchema !== undefined && !def.subresources.status);
      if (statusWrite) object.metadata.generation = old.metadata.generation;
      await slice.pause();
      validateOrThrow(def, object, old, errors);
      const admitted = this.admit(def, object, old, options);
      warnings.push(...(admitted instanceof Promise ? await admitted : admitted));
      await slice.pause();
      this.trackFields(def, old, object, options);
      stampChangedBy(def, object, old, options.user?.username);
      await slice.pause();
      // A stale read (stored under an older encryption key) is rewritten even when unchanged.
      if (sameContent(object, old) && !isStale(old)) return { object: old, warnings, created: false };
      if (options.dryRun) return { object, warnings, created: false };
      if (this.deletion.removesOnUpdate(def, object)) {
        const deleted = await this.deletion.removeNow(def, key, object.metadata.name!, expectedRevision);
        return { object: deleted, warnings, created: false };
      }
      try {
        const stored = await this.storeFor(def).update(key, object, { expectedRevision });
        return { object: stored, warnings, created: false };
      } catch (error) {
        if (error instanceof RevisionConflictError) {
          if (explicitPrecondition) throw staleResourceVersion(ref(def, object.metadata.name));
          throw new RevisionConflictRetry();
        }
        if (error instanceof KeyNotFoundError) throw notFound(ref(def, object.metadata.name));
        throw error;
      }
    });
  }

  /**
   * Runs the validating admission steps on the object about to be stored; their warnings for the
   * client. At once when every step answers at once (a pod create in a namespace the mirrors know).
   */
  private admit(def: ResourceDefinition, object: KubeObject, old: KubeObject | undefined, options: WriteOptions): MaybePromise<string[]> {
    const request: AdmissionRequest = { operation: old ? 'update' : 'create', def, object, auditAnnotations: options.auditAnnotations ?? {} };
    if (old) request.old = old;
    if (options.subresource) request.subresource = options.subresource;
    if (options.user) request.user = options.user;
    if (options.dryRun) request.dryRun = true;
    return this.validateFrom(0, request, []);
  }

  /** The validating steps from the `first` on, in order, their warnings added to `warnings`. */
  private validateFrom(first: number, request: AdmissionRequest, warnings: string[]): MaybePromise<string[]> {
    for (let i = first; i < this.validating.length; i++) {
      const step = this.validating[i]!;
      if (step.validates?.(request) === false) continue;
      const answer = step.validate(request);
      if (answer instanceof Promise) {
        return answer.then((said) => {
          warnings.push(...said);
          return this.validateFrom(i + 1, request, warnings);
        });
      }
      if (answer.length > 0) warnings.push(...answer);
    }
    return warnings;
  }

  /** Records field ownership, except for server-side apply, which did so while merging. */
  private trackFields(def: ResourceDefinition, old: KubeObject | undefined, object: KubeObject, options: WriteOptions): void {
    if (!options.fieldManager) return;
    const args: Parameters<typeof updateManagedFields>[2] = {
      manager: options.fieldManager,
      operation: 'Update',
      schema: def.schema as JsonSchema,
      apiVersion: apiVersionOf(def),
      now: timestamp(),
    };
    if (options.subresource) args.subresource = options.subresource;
    updateManagedFields(old, object, args);
  }

  /**
   * Namespaced objects need an existing namespace; creating needs one that is not terminating.
   * At once when the namespace is cached, as it nearly always is.
   */
  requireNamespace(def: ResourceDefinition, namespace: string | undefined, forCreate: boolean): MaybePromise<void> {
    if (!def.namespaced) return;
    if (!namespace) throw badRequest('a namespace must be given for a namespaced resource');
    return whenReady(this.namespaces.lookup(namespace), (state) => {
      if (!state) throw notFound({ group: '', plural: 'namespaces', name: namespace });
      if (forCreate && state.terminating) {
        throw forbidden(`${def.plural} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, ref(def));
      }
    });
  }

  close(): void {
    this.namespaces.stop();
    closeServiceAddresses(this.store);
  }
}

/** Whether the client's patch names a resourceVersion (JSON patch: an op on its path). */
function patchSetsResourceVersion(type: PatchType, patchBody: unknown): boolean {
  if (type === 'json') {
    return Array.isArray(patchBody) && patchBody.some((op: { op?: unknown; path?: unknown }) => op?.path === '/metadata/resourceVersion' && op.op !== 'remove');
  }
  const metadata = (patchBody as { metadata?: { resourceVersion?: unknown } } | null)?.metadata;
  const version = metadata?.resourceVersion;
  return typeof version === 'string' && version !== '';
}

/**
 * An apply configuration that asObjectOfKind and reconcileNamespace may change, for each attempt:
 * they touch only its top level and its metadata, and applyServerSide copies the whole of it
 * itself. A deep copy here as well cost a large apply 60-90 ms more of the event loop.
 */
function applyConfigurationCopy(body: unknown): unknown {
  if (!isObject(body)) return body;
  const copy: Record<string, unknown> = { ...body };
  if (isObject(copy['metadata'])) copy['metadata'] = { ...copy['metadata'] };
  return copy;
}

/** Internal signal: the object changed between our read and write; the caller re-reads. */
class RevisionConflictRetry extends Error {}

function keepAllButStatus(object: KubeObject, old: KubeObject): void {
  const status = object['status'];
  for (const key of Object.keys(object)) delete object[key];
  Object.assign(object, structuredClone(old));
  if (status !== undefined) object['status'] = status;
  else delete object['status'];
}

function strategyContext(store: Store, def: ResourceDefinition, options: WriteOptions, serviceRange: ServiceRange): StrategyContext {
  const ctx: StrategyContext = { store, def, serviceRange };
  if (options.user) ctx.user = options.user;
  if (options.subresource) ctx.subresource = options.subresource;
  return ctx;
}

function contentTypeOf(type: Exclude<PatchType, 'apply'>): string {
  return {
    json: 'application/json-patch+json',
    merge: 'application/merge-patch+json',
    strategic: 'application/strategic-merge-patch+json',
  }[type];
}

/**
 * Runs the rest of a write after its strategy's prepare step: what that step took (addresses it
 * reserved) is given back unless the write is stored — when it is refused or only a dry run.
 */
async function landOrUndo(undo: Undo | void, options: WriteOptions, rest: () => Promise<WriteResult>): Promise<WriteResult> {
  if (!undo) return rest();
  try {
    const result = await rest();
    if (options.dryRun) undo();
    return result;
  } catch (error) {
    undo();
    throw error;
  }
}
