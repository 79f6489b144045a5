// The garbage collector against a real in-process API server: owners and dependents made by
// hand (ConfigMaps and pods; no workload controller runs), deleted with each policy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { isNotFound, resources } from '../../client/index.js';
import { useControllerTest } from '../../../test/support/controllers/controller-test.js';
import { GarbageCollector } from './garbage-collector.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { transactionOf } from '../../../test/support/controllers/transactions.js';

describe('garbage collector', () => {
  const bed = useControllerTest((ctx) => new GarbageCollector(ctx, { unwatchedOwnerPollMs: 200, progressIntervalMs: 20 }));
  const configmaps = () => bed.api.resource(resources.configmaps, 'default');
  const pods = () => bed.api.resource(resources.pods, 'default');
  const secrets = () => bed.api.resource(resources.secrets, 'default');

  const ref = (owner: KubeObject, extra: Partial<OwnerReference> = {}): OwnerReference => ({
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    ...extra,
  });

  function owner(name: string, finalizers?: string[]): Promise<KubeObject> {
    const metadata: KubeObject['metadata'] = { name };
    if (finalizers) metadata.finalizers = finalizers;
    return configmaps().create({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { role: 'owner' } });
  }

  function dependentPod(name: string, owners: OwnerReference[], finalizers?: string[]): Promise<KubeObject> {
    const metadata: KubeObject['metadata'] = { name, ownerReferences: owners };
    if (finalizers) metadata.finalizers = finalizers;
    return pods().create({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'drover-test/busybox:1' }] } });
  }

  function dependentConfigMap(name: string, owners: OwnerReference[], finalizers?: string[]): Promise<KubeObject> {
    const metadata: KubeObject['metadata'] = { name, ownerReferences: owners };
    if (finalizers) metadata.finalizers = finalizers;
    return configmaps().create({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { role: 'dependent' } });
  }

  async function exists(client: ReturnType<typeof pods>, name: string): Promise<KubeObject | undefined> {
    try {
      return await client.get(name);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  const gone = (client: ReturnType<typeof pods>, name: string) => async () => (await exists(client, name)) === undefined;

  it('Background: deletes the dependents of a deleted owner and records a delete transaction', async () => {
    const cm = await owner('bg-owner');
    await Promise.all([1, 2, 3].map((i) => dependentPod(`bg-pod-${i}`, [ref(cm)])));
    await dependentConfigMap('bg-cm', [ref(cm)]);
    await configmaps().delete('bg-owner', { propagationPolicy: 'Background' });
    for (const name of ['bg-pod-1', 'bg-pod-2', 'bg-pod-3']) await waitFor(`${name} to be collected`, gone(pods(), name));
    await waitFor('bg-cm to be collected', gone(configmaps(), 'bg-cm'));
    const tx = await waitFor('the delete transaction to succeed', async () => {
      const found = await transactionOf(bed.api, cm, 'delete');
      return found?.status?.phase === 'Succeeded' ? found : undefined;
    });
    assert.equal(tx.spec.target.kind, 'ConfigMap');
    assert.equal(tx.spec.target.name, 'bg-owner');
    assert.equal(tx.status?.progress, '4/4');
    assert.match(tx.spec.reason, /Background/);
  });

  it('Foreground: the owner stays until its blocking dependents are gone', async () => {
    const cm = await owner('fg-owner');
    // The blocking dependent holds on with a finalizer of its own, so the order can be seen.
    await dependentPod('fg-blocking', [ref(cm, { blockOwnerDeletion: true })], ['example.com/hold']);
    await dependentPod('fg-free', [ref(cm)]);
    await configmaps().delete('fg-owner', { propagationPolicy: 'Foreground' });
    const held = await waitFor('the blocking dependent to be deleted', async () => {
      const pod = await exists(pods(), 'fg-blocking');
      return pod?.metadata.deletionTimestamp ? pod : undefined;
    });
    await waitFor('the non-blocking dependent to go', gone(pods(), 'fg-free'));
    const waiting = await exists(configmaps(), 'fg-owner');
    assert.ok(waiting, 'the owner waits');
    assert.deepEqual(waiting.metadata.finalizers, ['foregroundDeletion']);
    await pods().patch(held.metadata.name!, 'merge', { metadata: { finalizers: null } });
    await waitFor('the blocking dependent to go', gone(pods(), 'fg-blocking'));
    await waitFor('the owner to go last', gone(configmaps(), 'fg-owner'));
    const tx = await waitFor('the foreground delete transaction to succeed', async () => {
      const found = await transactionOf(bed.api, cm, 'delete');
      return found?.status?.phase === 'Succeeded' ? found : undefined;
    });
    assert.match(tx.spec.reason, /Foreground/);
  });

  it('Foreground: a dependent with dependents of its own is deleted in the foreground too', async () => {
    const top = await owner('chain-top');
    const middle = await dependentConfigMap('chain-middle', [ref(top, { blockOwnerDeletion: true })]);
    await dependentPod('chain-bottom', [ref(middle, { blockOwnerDeletion: true })], ['example.com/hold']);
    await configmaps().delete('chain-top', { propagationPolicy: 'Foreground' });
    await waitFor('the middle to wait on its dependent', async () =>
      (await exists(configmaps(), 'chain-middle'))?.metadata.finalizers?.includes('foregroundDeletion'),
    );
    assert.ok(await exists(configmaps(), 'chain-top'), 'the top waits for the middle');
    await pods().patch('chain-bottom', 'merge', { metadata: { finalizers: null } });
    await waitFor('the whole chain to go', gone(configmaps(), 'chain-top'));
    assert.equal(await exists(configmaps(), 'chain-middle'), undefined);
    assert.equal(await exists(pods(), 'chain-bottom'), undefined);
  });

  it('Orphan: dependents stay, without their reference to the owner', async () => {
    const cm = await owner('orphan-owner');
    const other = await owner('orphan-other-owner');
    await dependentPod('orphan-pod', [ref(cm, { controller: true, blockOwnerDeletion: true })]);
    await dependentConfigMap('orphan-cm', [ref(cm), ref(other)]);
    await configmaps().delete('orphan-owner', { propagationPolicy: 'Orphan' });
    await waitFor('the owner to go once its dependents are orphaned', gone(configmaps(), 'orphan-owner'));
    const pod = await exists(pods(), 'orphan-pod');
    assert.ok(pod, 'the pod stays');
    assert.equal(pod.metadata.ownerReferences, undefined);
    const dependent = await exists(configmaps(), 'orphan-cm');
    assert.deepEqual(
      dependent?.metadata.ownerReferences?.map((r) => r.name),
      ['orphan-other-owner'],
    );
    const tx = await waitFor('the orphan transaction to succeed', async () => {
      const found = await transactionOf(bed.api, cm, 'delete');
      return found?.status?.phase === 'Succeeded' ? found : undefined;
    });
    assert.match(tx.status?.message ?? '', /orphaned 2 dependents/);
    // Orphaned for good: the pod is still there a while later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(await exists(pods(), 'orphan-pod'));
  });

  it('deletes dependents whose owner references dangle (missing uid, or a same-named object with another uid)', async () => {
    const renamed = await owner('dangling-name');
    await dependentPod('dangling-missing', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never-was', uid: '00000000-0000-0000-0000-000000000001' }]);
    await dependentPod('dangling-reused', [{ ...ref(renamed), uid: '00000000-0000-0000-0000-000000000002' }]);
    await waitFor('the pod of a missing owner to be collected', gone(pods(), 'dangling-missing'));
    await waitFor('the pod of an owner with another uid to be collected', gone(pods(), 'dangling-reused'));
    assert.ok(await exists(configmaps(), 'dangling-name'), 'the same-named object is left alone');
  });

  it('keeps a dependent that still has a live owner, dropping only the dangling reference', async () => {
    const live = await owner('half-live');
    const dangling: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'half-dead', uid: '00000000-0000-0000-0000-000000000003' };
    await dependentPod('half-pod', [ref(live), dangling]);
    const pod = await waitFor('the dangling reference to be removed', async () => {
      const found = await exists(pods(), 'half-pod');
      return found?.metadata.ownerReferences?.length === 1 ? found : undefined;
    });
    assert.equal(pod.metadata.ownerReferences?.[0]?.uid, live.metadata.uid);
    assert.equal(pod.metadata.deletionTimestamp, undefined);
  });

  it('leaves dependents of live owners and of owners it cannot look up', async () => {
    const live = await owner('alive');
    await dependentPod('kept-live', [ref(live)]);
    await dependentPod('kept-unknown', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '00000000-0000-0000-0000-000000000004' }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(await exists(pods(), 'kept-live'));
    assert.ok(await exists(pods(), 'kept-unknown'));
  });

  it('collects the dependents of an owner of a kind it does not watch, by looking again', async () => {
    const secret = await secrets().create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'unwatched-owner' }, data: {} });
    await dependentPod('secret-dependent', [ref(secret)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(await exists(pods(), 'secret-dependent'), 'kept while the owner exists');
    await secrets().delete('unwatched-owner');
    await waitFor('the dependent of the deleted secret to be collected', gone(pods(), 'secret-dependent'));
  });

  it('collects the dependents of custom resources when their CRD is deleted', async () => {
    const gadgets = { group: 'gc.example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true };
    const crds = bed.api.resource(resources.customresourcedefinitions);
    await crds.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.gc.example.com' },
      spec: {
        group: 'gc.example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    await waitFor('the CRD to be established', async () => {
      const crd = (await crds.get('gadgets.gc.example.com')) as { status?: { conditions?: Array<{ type: string; status: string }> } };
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    });
    const gadget = (name: string, owners: OwnerReference[] = []) =>
      bed.api.resource(gadgets, 'default').create({ apiVersion: 'gc.example.com/v1', kind: 'Gadget', metadata: { name, ownerReferences: owners } });
    const crOwner = await gadget('gadget-owner');
    await dependentConfigMap('gadget-dependent', [ref(crOwner)]);
    // A probe, made after the owner: once the collector collects it, its gadget informer holds the owner too.
    const probeOwner = await owner('gadget-probe-owner');
    await gadget('gadget-probe', [ref(probeOwner)]);
    await configmaps().delete('gadget-probe-owner');
    await waitFor('the probe gadget to be collected', gone(bed.api.resource(gadgets, 'default'), 'gadget-probe'));
    assert.ok(await exists(configmaps(), 'gadget-dependent'), 'kept while its gadget owner exists');
    // Deleting the CRD deletes every gadget; the collector stops watching them at once.
    await crds.delete('gadgets.gc.example.com');
    await waitFor("the dependent of the deleted CRD's gadget to be collected", gone(configmaps(), 'gadget-dependent'), 30_000);
  });

  it('collects a dependent whose owner went before the collector saw either (restart)', async () => {
    await bed.manager.stop();
    const cm = await owner('before-restart');
    await dependentPod('before-restart-pod', [ref(cm)]);
    await configmaps().delete('before-restart');
    await bed.startManager((ctx) => new GarbageCollector(ctx));
    await waitFor('the dependent to be collected after the restart', gone(pods(), 'before-restart-pod'));
  });
});
