// The ResourceQuotas and LimitRanges of every namespace, mirrored in memory (list + watch), as
// Kubernetes' admission plugins read them from informers. Where the mirror has none, the store is
// asked (one that was just made may not have reached the mirror yet) and a "none" is kept for
// 30 s, as Kubernetes' live-lookup cache does: a namespace without any costs one storage read per
// half minute, not one per write. A quota read here may be a moment old; charging it writes with
// its revision as precondition, so a stale one only costs the charger a re-read from the store.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { StoreMirror, type MirrorEvent } from '../../storage/store-mirror.js';
import type { Store } from '../../storage/store.js';
import { prefixFor } from '../registry/keys.js';

type ByNamespace = Map<string, Map<string, KubeObject>>;

const NONE_KEPT_MS = 30_000;

interface Picture {
  quotas: ByNamespace;
  limitRanges: ByNamespace;
}

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

type Kind = 'quotas' | 'limitRanges';

export class NamespacePolicies {
  private readonly mirror: StoreMirror<Picture>;
  private readonly definitions = { quotas: findResource('', 'v1', 'resourcequotas')!, limitRanges: findResource('', 'v1', 'limitranges')! };
  /** Namespaces the store had none of, until when: `${kind}/${namespace}`. */
  private readonly none = new Map<string, number>();

  constructor(private readonly store: Store) {
    const prefixes = [prefixFor(this.definitions.quotas), prefixFor(this.definitions.limitRanges)];
    this.mirror = new StoreMirror(store, {
      name: 'quota and limit range admission',
      prefixes,
      fresh: () => ({ quotas: new Map(), limitRanges: new Map() }),
      apply: (picture, index, event) => {
        const kind: Kind = index === 0 ? 'quotas' : 'limitRanges';
        applyTo(picture[kind], event);
        // The mirror knows better now than a "none" read before it.
        this.none.delete(`${kind}/${event.object.metadata.namespace ?? ''}`);
      },
    });
  }

  start(): Promise<void> {
    return this.mirror.start();
  }

  stop(): void {
    this.mirror.stop();
  }

  quotas(namespace: string): Promise<KubeObject[]> {
    return this.lookUp('quotas', namespace);
  }

  limitRanges(namespace: string): Promise<KubeObject[]> {
    return this.lookUp('limitRanges', namespace);
  }

  private async lookUp(kind: Kind, namespace: string): Promise<KubeObject[]> {
    const mirrored = this.mirror.state[kind].get(namespace);
    if (mirrored && mirrored.size > 0) return [...mirrored.values()];
    const key = `${kind}/${namespace}`;
    const now = Date.now();
    if ((this.none.get(key) ?? 0) > now) return [];
    const items = (await this.store.list({ prefix: prefixFor(this.definitions[kind], namespace) })).items;
    if (items.length === 0) this.none.set(key, now + NONE_KEPT_MS);
    // Bounded: entries of namespaces no longer asked about go once expired.
    if (this.none.size > 10_000) for (const [k, until] of this.none) if (until <= now) this.none.delete(k);
    return items;
  }
}
