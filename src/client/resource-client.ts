// Typed verbs on one resource (optionally scoped to a namespace), in the Kubernetes REST
// conventions: query parameters for selectors, paging and write options, DeleteOptions bodies,
// patch types as content types.
import type { KubeList, KubeObject } from '../api/meta.js';
import type { ApiClient } from './api-client.js';
import { isGone } from './errors.js';
import { apiVersionOf, resourcePath, type ResourceRef } from './resources.js';
import type { WatchEvent, WatchHandle } from './watch-stream.js';

/** A selector as Kubernetes writes it (`app=web,tier!=db`) or as equality pairs. */
export type Selector = string | Readonly<Record<string, string>>;

export interface SelectorOptions {
  labelSelector?: Selector;
  fieldSelector?: Selector;
}

export interface ListOptions extends SelectorOptions {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface ListAllOptions extends SelectorOptions {
  /** Items per request. Default 500, as client-go's pager. */
  pageSize?: number;
}

export interface WatchOptions extends SelectorOptions {
  /** Start after this resourceVersion; without it the server first sends the current objects as ADDED. */
  resourceVersion?: string;
  /** Default true: BOOKMARKs keep the resourceVersion fresh on quiet resources. */
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  /** Watch one object. */
  name?: string;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export interface PatchOptions extends WriteOptions {
  /** Apply only: take ownership of fields other managers hold. */
  force?: boolean;
  subresource?: string;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    readonly api: ApiClient,
    readonly ref: ResourceRef,
    readonly namespace?: string,
  ) {}

  inNamespace(namespace: string | undefined): ResourceClient<T> {
    return namespace === this.namespace ? this : new ResourceClient<T>(this.api, this.ref, namespace);
  }

  get(name: string): Promise<T> {
    return this.api.request<T>('GET', this.objectPath(name));
  }

  list(options: ListOptions = {}): Promise<KubeList<T>> {
    const query = selectorQuery(options);
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.continue) query.set('continue', options.continue);
    if (options.resourceVersion !== undefined) query.set('resourceVersion', options.resourceVersion);
    return this.api.request<KubeList<T>>('GET', resourcePath(this.ref, this.namespace), { query });
  }

  /** Every page, following continue tokens; the result carries the first page's resourceVersion. */
  async listAll(options: ListAllOptions = {}): Promise<KubeList<T>> {
    const { pageSize = 500, ...selectors } = options;
    let page = await this.list({ ...selectors, limit: pageSize });
    const items = page.items;
    const resourceVersion = page.metadata.resourceVersion;
    while (page.metadata.continue) {
      try {
        page = await this.list({ ...selectors, limit: pageSize, continue: page.metadata.continue });
      } catch (error) {
        // The token outlived the server's history: a consistent snapshot needs one unpaged list.
        if (isGone(error)) return this.list(selectors);
        throw error;
      }
      for (const item of page.items) items.push(item);
    }
    return { ...page, metadata: resourceVersion === undefined ? {} : { resourceVersion }, items };
  }

  create(object: T, options: WriteOptions = {}): Promise<T> {
    const path = resourcePath(this.ref, this.namespaceOf(object));
    return this.api.request<T>('POST', path, { body: this.withTypeMeta(object), query: this.writeQuery(options) });
  }

  /** PUT; the object's resourceVersion makes it a compare-and-swap (409 Conflict when stale). */
  update(object: T, options: WriteOptions = {}): Promise<T> {
    return this.api.request<T>('PUT', this.objectPath(nameOf(object), object), { body: this.withTypeMeta(object), query: this.writeQuery(options) });
  }

  /** PUT of the status subresource: only .status changes. */
  updateStatus(object: T, options: WriteOptions = {}): Promise<T> {
    const path = this.objectPath(nameOf(object), object, 'status');
    return this.api.request<T>('PUT', path, { body: this.withTypeMeta(object), query: this.writeQuery(options) });
  }

  patch(name: string, type: PatchType, body: unknown, options: PatchOptions = {}): Promise<T> {
    const query = this.writeQuery(options, type === 'apply');
    if (options.force) query.set('force', 'true');
    const payload = type === 'apply' && typeof body === 'object' && body !== null ? this.withTypeMeta(body as T) : body;
    return this.api.request<T>('PATCH', this.objectPath(name, undefined, options.subresource), {
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      contentType: PATCH_CONTENT_TYPES[type],
      query,
    });
  }

  /** Returns the object as the server last had it (with deletionTimestamp when deletion is graceful). */
  delete(name: string, options: DeleteOptions = {}): Promise<T> {
    const request = deleteBody(options);
    return this.api.request<T>('DELETE', this.objectPath(name), request === undefined ? {} : { body: request });
  }

  deleteCollection(options: SelectorOptions & DeleteOptions = {}): Promise<KubeList<T>> {
    const { labelSelector, fieldSelector, ...deleteOptions } = options;
    const query = selectorQuery({ labelSelector, fieldSelector });
    const body = deleteBody(deleteOptions);
    return this.api.request<KubeList<T>>('DELETE', resourcePath(this.ref, this.namespace), body === undefined ? { query } : { query, body });
  }

  getSubresource<R = unknown>(name: string, subresource: string): Promise<R> {
    return this.api.request<R>('GET', this.objectPath(name, undefined, subresource));
  }

  /** POST to a subresource: pods/binding, pods/eviction. */
  createSubresource<R = unknown>(name: string, subresource: string, body: unknown, options: WriteOptions = {}): Promise<R> {
    return this.api.request<R>('POST', this.objectPath(name, undefined, subresource), { body, query: this.writeQuery(options) });
  }

  /** PUT to a subresource: scale, status. */
  updateSubresource<R = unknown>(name: string, subresource: string, body: unknown, options: WriteOptions = {}): Promise<R> {
    return this.api.request<R>('PUT', this.objectPath(name, undefined, subresource), { body, query: this.writeQuery(options) });
  }

  /** Streams events until stopped or the server closes the stream; see WatchHandle. */
  watch(options: WatchOptions, onEvent: (event: WatchEvent<T>) => void): WatchHandle {
    const query = selectorQuery(options);
    query.set('watch', '1');
    if (options.allowWatchBookmarks !== false) query.set('allowWatchBookmarks', 'true');
    if (options.resourceVersion !== undefined) query.set('resourceVersion', options.resourceVersion);
    if (options.timeoutSeconds !== undefined) query.set('timeoutSeconds', String(options.timeoutSeconds));
    if (options.name !== undefined) query.set('fieldSelector', joinSelectors(query.get('fieldSelector'), `metadata.name=${options.name}`));
    return this.api.watchPath<T>(`${resourcePath(this.ref, this.namespace)}?${query.toString()}`, onEvent);
  }

  private objectPath(name: string, object?: KubeObject, subresource?: string): string {
    return resourcePath(this.ref, this.namespaceOf(object), name, subresource);
  }

  private namespaceOf(object: KubeObject | undefined): string | undefined {
    if (!this.ref.namespaced) return undefined;
    const namespace = this.namespace ?? object?.metadata.namespace;
    if (!namespace) throw new Error(`${this.ref.plural}: a namespace is required (use inNamespace() or set metadata.namespace)`);
    return namespace;
  }

  /** Objects built in code often omit apiVersion/kind; the server requires them. */
  private withTypeMeta(object: T): T {
    if (object.apiVersion && object.kind) return object;
    return { ...object, apiVersion: object.apiVersion || apiVersionOf(this.ref), kind: object.kind || this.ref.kind };
  }

  private writeQuery(options: WriteOptions, apply = false): URLSearchParams {
    const query = new URLSearchParams();
    const manager = options.fieldManager ?? (apply ? this.api.fieldManager : this.api.explicitFieldManager);
    if (manager) query.set('fieldManager', manager);
    if (options.dryRun) query.set('dryRun', 'All');
    if (options.fieldValidation) query.set('fieldValidation', options.fieldValidation);
    return query;
  }
}

function nameOf(object: KubeObject): string {
  const name = object.metadata.name;
  if (!name) throw new Error(`${object.kind || 'object'}: metadata.name is required`);
  return name;
}

export function formatSelector(selector: Selector | undefined): string | undefined {
  if (selector === undefined) return undefined;
  if (typeof selector === 'string') return selector;
  return Object.entries(selector)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

function joinSelectors(a: string | null, b: string): string {
  return a ? `${a},${b}` : b;
}

function selectorQuery(options: SelectorOptions): URLSearchParams {
  const query = new URLSearchParams();
  const labels = formatSelector(options.labelSelector);
  const fields = formatSelector(options.fieldSelector);
  if (labels) query.set('labelSelector', labels);
  if (fields) query.set('fieldSelector', fields);
  return query;
}

function deleteBody(options: DeleteOptions): Record<string, unknown> | undefined {
  const { dryRun, ...rest } = options;
  const body: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  if (dryRun) body['dryRun'] = ['All'];
  if (Object.keys(body).length === 0) return undefined;
  return { kind: 'DeleteOptions', apiVersion: 'v1', ...body };
}
