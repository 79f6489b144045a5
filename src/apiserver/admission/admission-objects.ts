// The objects admission steps read on every write — ResourceQuotas and LimitRanges of each
// namespace, the PriorityClasses, the ServiceAccounts pods name, the StorageClasses claims name —
// mirrored in memory (list + watch), as Kubernetes' admission plugins read them from informers.
// Where the mirror has none, the store is asked (one that was just made may not have reached the
// mirror yet) and the "none" is kept, as Kubernetes' live-lookup cache does: a namespace without
// any quota costs one storage read per half minute, a pod naming a missing ServiceAccount one per
// second, not one per write. A quota read here may be a moment old; charging it writes with its
// revision as precondition, so a stale one only costs the charger a re-read from the store.
// What the mirror (or a kept "none") answers comes back at once, not as a promise: most writes
// are answered from memory, and their admission steps then cost no microtask turns.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { StoreMirror, type MirrorEvent } from '../../storage/store-mirror.js';
import type { Store } from '../../storage/store.js';
import type { MaybePromise } from '../../util/maybe-promise.js';
import { keyFor, prefixFor } from '../registry/keys.js';

/** By namespace ('' for cluster-scoped kinds), then name. */
type ByNamespace = Map<string, Map<string, KubeObject>>;

const NONE_KEPT_MS = 30_000;
/**
 * A named object's "none" is kept for a second only: one made just after the read reaches the
 * mirror a moment later, and until then a pod admitted without its ServiceAccount's token (or a
 * PriorityClass refused) would stay so. A second bounds that window and still turns a store read
 * per create into one per second.
 */
const NAMED_NONE_KEPT_MS = 1_000;

const KINDS = {
  quotas: ['', 'resourcequotas'],
  limitRanges: ['', 'limitranges'],
  priorityClasses: ['scheduling.k8s.io', 'priorityclasses'],
  serviceAccounts: ['', 'serviceaccounts'],
  storageClasses: ['storage.k8s.io', 'storageclasses'],
} as const;

type Kind = keyof typeof KINDS;
type Picture = Record<Kind, ByNamespace>;
const KIND_NAMES = Object.keys(KINDS) as Kind[];

function applyTo(map: ByNamespace, event: MirrorEvent): void {
  const object = event.object;
  const namespace = object.metadata.namespace ?? '';
  const name = object.metadata.name ?? '';
  let names = map.get(namespace);
  if (event.type === 'DELETED') {
    names?.delete(name);
    if (names?.size === 0) map.delete(namespace);
    return;
  }
  if (!names) map.set(namespace, (names = new Map()));
  names.set(name, object);
}

export class AdmissionObjects {
  private readonly mirror: StoreMirror<Picture>;
  private readonly definitions = Object.fromEntries(KIND_NAMES.map((kind) => [kind, findResource(KINDS[kind][0], 'v1', KINDS[kind][1])!])) as Record<
    Kind,
    ResourceDefinition
  >;
  /** What the store had none of, until when, by kind: the namespace's list, or `${namespace}/${name}` for one object. */
  private readonly none = Object.fromEntries(KIND_NAMES.map((kind) => [kind, new Map<string, number>()])) as Record<Kind, Map<string, number>>;
  /** A namespace's mirrored objects as the array callers get, made again only after the mirror changed them. */
  private readonly listed = new WeakMap<Map<string, KubeObject>, readonly KubeObject[]>();
  /** Events the mirror has applied: tells a store read whether the mirror moved during it. */
  private applied = 0;

  constructor(private readonly store: Store) {
    this.mirror = new StoreMirror(store, {
      name: 'admission objects',
      prefixes: KIND_NAMES.map((kind) => prefixFor(this.definitions[kind])),
      fresh: () => Object.fromEntries(KIND_NAMES.map((kind) => [kind, new Map()])) as Picture,
      apply: (picture, index, event) => {
        const kind = KIND_NAMES[index]!;
        const namespace = event.object.metadata.namespace ?? '';
        const before = picture[kind].get(namespace);
        if (before) this.listed.delete(before);
        applyTo(picture[kind], event);
        this.applied++;
        // The mirror knows better now than a "none" read before it.
        this.none[kind].delete(namespace);
        this.none[kind].delete(`${namespace}/${event.object.metadata.name ?? ''}`);
      },
    });
  }

  start(): Promise<void> {
    return this.mirror.start();
  }

  stop(): void {
    this.mirror.stop();
  }

  quotas(namespace: string): MaybePromise<readonly KubeObject[]> {
    return this.list('quotas', namespace);
  }

  limitRanges(namespace: string): MaybePromise<readonly KubeObject[]> {
    return this.list('limitRanges', namespace);
  }

  priorityClasses(): MaybePromise<readonly KubeObject[]> {
    return this.list('priorityClasses', '');
  }

  /** One PriorityClass: the mirror's, or the store's when the mirror has not seen it yet. */
  priorityClass(name: string): MaybePromise<KubeObject | undefined> {
    return this.get('priorityClasses', '', name);
  }

  storageClasses(): MaybePromise<readonly KubeObject[]> {
    return this.list('storageClasses', '');
  }

  /** One StorageClass, likewise. */
  storageClass(name: string): MaybePromise<KubeObject | undefined> {
    return this.get('storageClasses', '', name);
  }

  /** One ServiceAccount, likewise (the namespace's `default` is made moments before its first pods). */
  serviceAccount(namespace: string, name: string): MaybePromise<KubeObject | undefined> {
    return this.get('serviceAccounts', namespace, name);
  }

  private get(kind: Kind, namespace: string, name: string): MaybePromise<KubeObject | undefined> {
    const mirrored = this.mirror.state[kind].get(namespace)?.get(name);
    if (mirrored) return mirrored;
    // A pod in a namespace without its ServiceAccount would otherwise read the store on every create.
    const key = `${namespace}/${name}`;
    if (this.noneKept(kind, key)) return undefined;
    return this.readKeepingNone(
      kind,
      key,
      async () => {
        const found = await this.store.get(keyFor(this.definitions[kind], namespace || undefined, name));
        return found ? [found] : [];
      },
      NAMED_NONE_KEPT_MS,
    ).then(([object]) => object);
  }

  private list(kind: Kind, namespace: string): MaybePromise<readonly KubeObject[]> {
    const mirrored = this.mirror.state[kind].get(namespace);
    if (mirrored && mirrored.size > 0) {
      let listed = this.listed.get(mirrored);
      if (!listed) this.listed.set(mirrored, (listed = Object.freeze([...mirrored.values()])));
      return listed;
    }
    if (this.noneKept(kind, namespace)) return NONE;
    return this.readKeepingNone(
      kind,
      namespace,
      async () => (await this.store.list({ prefix: prefixFor(this.definitions[kind], namespace || undefined) })).items,
      NONE_KEPT_MS,
    );
  }

  /** Whether the store said "none" for `key` recently enough to be believed. */
  private noneKept(kind: Kind, key: string): boolean {
    return (this.none[kind].get(key) ?? 0) > Date.now();
  }

  /** The store's answer; a "none" is kept for `keptMs`. */
  private async readKeepingNone(kind: Kind, key: string, read: () => Promise<KubeObject[]>, keptMs: number): Promise<KubeObject[]> {
    const appliedBefore = this.applied;
    const items = await read();
    const now = Date.now();
    const none = this.none[kind];
    // A "none" is kept only if the mirror learnt nothing meanwhile: an object it applied while the
    // store was read must not be hidden behind a "none" the read saw before it.
    if (items.length === 0 && this.applied === appliedBefore) none.set(key, now + keptMs);
    // Bounded: entries of namespaces no longer asked about go once expired.
    if (none.size > 2_000) for (const [k, until] of none) if (until <= now) none.delete(k);
    return items;
  }
}

const NONE: readonly KubeObject[] = Object.freeze([]);
