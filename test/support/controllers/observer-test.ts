// A Transactions observer tested alone: a controller test bed whose manager runs no controller,
// only the observer on the informer of one kind. The test writes the status the controller
// would, and owns keys as a farm member owns its shards: an object outside `owned` is watched by
// nobody, which is how a late start (a restart, a shard taken over) is played.
import type { KubeObject } from '../../../src/api/meta.js';
import type { Informer, ResourceRef } from '../../../src/client/index.js';
import type { TransactionRecorder } from '../../../src/controllers/transactions/recorder.js';
import { waitFor } from '../wait-for.js';
import { useControllerTest, type ControllerTestBed } from './controller-test.js';

export interface ObserverTest {
  readonly bed: ControllerTestBed;
  /** The keys (`namespace/name`) the observer's member owns. */
  readonly owned: Set<string>;
  /** Writes the object's status (a merge patch of status) and waits until the observer's informer holds it. */
  writeStatus(name: string, status: object): Promise<void>;
}

/** useControllerTest for `observe(transactions, informer, owns)` on the objects of `resource` in 'default'. */
export function useObserverTest<T extends KubeObject>(
  resource: ResourceRef,
  observe: (transactions: TransactionRecorder, informer: Informer<T>, owns: (key: string) => boolean) => void,
): ObserverTest {
  const owned = new Set<string>();
  let observed: Informer<T> | undefined;
  const bed = useControllerTest((ctx) => {
    observed = ctx.factory.informerFor<T>(resource);
    observe(ctx.transactions, observed, (key) => owned.has(key));
    return { name: 'observer under test', start() {}, async stop() {} };
  });
  return {
    bed,
    owned,
    async writeStatus(name, status) {
      const written = await bed.api.resource<T>(resource, 'default').patch(name, 'merge', { status }, { subresource: 'status' });
      await waitFor('the status in the cache', () => observed?.get(`default/${name}`)?.metadata.resourceVersion === written.metadata.resourceVersion);
    },
  };
}
