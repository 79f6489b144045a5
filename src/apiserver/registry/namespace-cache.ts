// Which namespaces exist, which are terminating and what labels they carry (Pod Security reads
// its levels from them), kept from a watch so that every namespaced write does not read its
// namespace from the store. A miss falls back to the store: with a store
// whose watch lags its writes (etcd), a namespace created a moment ago may not be cached yet.
import type { KubeObject } from '../../api/meta.js';
import type { Store, Watch } from '../../storage/store.js';
import type { MaybePromise } from '../../util/maybe-promise.js';

const PREFIX = '/registry/namespaces/';

export interface NamespaceState {
  terminating: boolean;
  labels: Readonly<Record<string, string>>;
}

export class NamespaceCache {
  private readonly known = new Map<string, NamespaceState>();
  private watch: Watch | undefined;

  constructor(private readonly store: Store) {}

  start(): void {
    this.watch = this.store.watch({ prefix: PREFIX }, (event) => {
      const name = event.object.metadata.name!;
      if (event.type === 'DELETED') this.known.delete(name);
      else this.remember(event.object);
    });
  }

  stop(): void {
    this.watch?.stop();
  }

  /** undefined when the namespace does not exist; at once when it is cached, which nearly every write finds. */
  lookup(name: string): MaybePromise<NamespaceState | undefined> {
    return this.known.get(name) ?? this.read(name);
  }

  private async read(name: string): Promise<NamespaceState | undefined> {
    const namespace = await this.store.get(`${PREFIX}${name}`);
    if (!namespace) return undefined;
    return this.remember(namespace);
  }

  private remember(namespace: KubeObject): NamespaceState {
    const state = { terminating: namespace.metadata.deletionTimestamp !== undefined, labels: namespace.metadata.labels ?? {} };
    this.known.set(namespace.metadata.name!, state);
    return state;
  }
}
