// Which namespaces exist and which are terminating, kept from a watch so that every namespaced
// write does not read its namespace from the store. A miss falls back to the store: with a store
// whose watch lags its writes (etcd), a namespace created a moment ago may not be cached yet.
import type { KubeObject } from '../../api/meta.js';
import type { Store, Watch } from '../../storage/store.js';

const PREFIX = '/registry/namespaces/';

export class NamespaceCache {
  /** name → terminating */
  private readonly known = new Map<string, boolean>();
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

  /** undefined when the namespace does not exist; else whether it is terminating. */
  async lookup(name: string): Promise<{ terminating: boolean } | undefined> {
    const cached = this.known.get(name);
    if (cached !== undefined) return { terminating: cached };
    const namespace = await this.store.get(`${PREFIX}${name}`);
    if (!namespace) return undefined;
    this.remember(namespace);
    return { terminating: namespace.metadata.deletionTimestamp !== undefined };
  }

  private remember(namespace: KubeObject): void {
    this.known.set(namespace.metadata.name!, namespace.metadata.deletionTimestamp !== undefined);
  }
}
