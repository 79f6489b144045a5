// ControllerHistory against a real in-process API server: the hash it returns for a revision it
// reuses is that revision's own, whatever the owner's collisionCount is now.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { selectorFromSet } from '../../api/selectors/index.js';
import { resources } from '../../client/index.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { ControllerHistory, type HistoryOwner } from './controller-history.js';

const HASH_LABEL = 'controller-revision-hash';

describe('controller history', () => {
  let bed: ControllerTestBed;
  let history: ControllerHistory;

  before(async () => {
    bed = await startControllerTest((ctx) => {
      history = new ControllerHistory(ctx);
      return { name: 'history-under-test', start: () => undefined, stop: async () => undefined };
    });
    await history.informer.waitForSync(10_000);
  });
  after(() => bed.close());

  const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });

  function spec(owner: KubeObject, image: string, collisionCount: number): HistoryOwner {
    return {
      owner,
      ownerResource: resources.configmaps,
      selector: selectorFromSet({ app: 'web' }),
      controllerRef: { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true },
      template: template(image),
      collisionCount,
      hashLabel: HASH_LABEL,
    };
  }

  async function synced(owner: KubeObject, image: string, collisionCount: number) {
    const result = await history.sync(spec(owner, image, collisionCount));
    assert.equal(result.collision, false);
    if (result.collision) throw new Error('unexpected collision');
    // The next sync reads the informer: wait until it holds what this one wrote.
    const written = result.current;
    await waitFor(
      'the informer to hold the revision',
      () => history.informer.getByName(written.metadata.namespace, written.metadata.name!)?.metadata.resourceVersion === written.metadata.resourceVersion,
    );
    return result;
  }

  it('a current revision reused after a collisionCount bump returns its own hash', async () => {
    const owner = await bed.api.resource(resources.configmaps, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reuse-owner' } });
    const first = await synced(owner, 'drover-test/busybox:1', 0);
    assert.equal(first.current.metadata.labels?.[HASH_LABEL], first.hash);
    const again = await synced(owner, 'drover-test/busybox:1', 1);
    assert.equal(again.current.metadata.name, first.current.metadata.name);
    assert.equal(again.hash, first.hash);
  });

  it('a rollback renumbers the older equal revision and returns its own hash', async () => {
    const owner = await bed.api.resource(resources.configmaps, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rollback-owner' } });
    const v1 = await synced(owner, 'drover-test/busybox:1', 0);
    await synced(owner, 'drover-test/busybox:2', 0);
    const back = await synced(owner, 'drover-test/busybox:1', 1);
    assert.equal(back.current.metadata.name, v1.current.metadata.name);
    assert.equal(back.current.revision, 3);
    assert.equal(back.hash, v1.hash);
  });
});
