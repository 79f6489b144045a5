// pvc-protection when the pod informer lags behind the API server: a pod created a moment before
// its claim is deleted may not be in the cache yet, and the claim must still be kept. The test
// gives the controller a pod cache that never sees the pod (a real informer, scoped to a label no
// pod carries), so only a live list of the namespace's pods can find it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNotFound, resources, type ResourceRef } from '../../client/index.js';
import type { InformerScope, SharedInformerFactory } from '../../client/shared-informer-factory.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { ControllerContext } from '../context.js';
import { useControllerTest } from '../../../test/support/controllers/controller-test.js';
import { StorageProtectionController } from './protection.js';

/** The context's factory, except that its pod informer holds only pods no test creates. */
function withLaggingPodCache(ctx: ControllerContext): ControllerContext {
  const factory = Object.create(ctx.factory) as SharedInformerFactory;
  factory.informerFor = (resource: ResourceRef, scope: InformerScope = {}) =>
    ctx.factory.informerFor(resource, resource === resources.pods ? { ...scope, labelSelector: { 'drover.test/never-cached': 'true' } } : scope);
  return { ...ctx, factory };
}

describe('pvc-protection with a pod cache that has not seen the pod', () => {
  const bed = useControllerTest((ctx) => new StorageProtectionController(withLaggingPodCache(ctx)));
  const claims = () => bed.api.resource(resources.persistentvolumeclaims, 'default');
  const absent = (name: string) =>
    claims()
      .get(name)
      .then(
        () => false,
        (error: unknown) => isNotFound(error),
      );

  it('keeps the claim while the API server lists a pod using it, and lets it go once none does', async () => {
    await claims().create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'fresh', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '' },
    });
    const pods = bed.api.resource(resources.pods, 'default');
    await pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'newcomer', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'fresh' } }] },
    });
    await claims().delete('fresh');
    const inUse = async () =>
      (await bed.api.resource(resources.events, 'default').list({ fieldSelector: 'involvedObject.name=fresh,reason=InUse' })).items.some((e) =>
        String(e['message']).includes('newcomer'),
      );
    await waitFor('the InUse event naming the pod', inUse, 15_000);
    assert.equal(await absent('fresh'), false);
    assert.deepEqual((await claims().get('fresh')).metadata.finalizers, ['kubernetes.io/pvc-protection']);

    await pods.delete('newcomer');
    // This cache never hears of the pod's deletion: a change of the claim has it looked at again.
    await claims().patch('fresh', 'merge', { metadata: { labels: { touched: 'yes' } } });
    await waitFor('the claim gone', () => absent('fresh'), 15_000);
  });
});
