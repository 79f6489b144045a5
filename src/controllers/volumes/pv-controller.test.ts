// The volume controllers (binder, local-path provisioner, protection) against a real API server,
// with no agent: the test plays the node where one is needed (a Node publishing its directory).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { isNotFound, resources, type ApiClient } from '../../client/index.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { LocalPathProvisioner } from './local-path-provisioner.js';
import { StorageProtectionController } from './protection.js';
import { PersistentVolumeController } from './pv-controller.js';

type Obj = Record<string, any>;

describe('volume controllers', () => {
  let bed: ControllerTestBed;
  let api: ApiClient;
  const claims = () => api.resource(resources.persistentvolumeclaims, 'default');
  const volumes = () => api.resource(resources.persistentvolumes);
  const phaseOf = async (read: () => Promise<KubeObject>) => ((await read())['status'] as Obj | undefined)?.['phase'];
  const claimPhase = (name: string) => phaseOf(() => claims().get(name));
  const volumePhase = (name: string) => phaseOf(() => volumes().get(name));
  const absent = async (read: () => Promise<unknown>) =>
    read().then(
      () => false,
      (error: unknown) => isNotFound(error),
    );
  const events = async (name: string) =>
    (await api.resource(resources.events, 'default').list({ fieldSelector: `involvedObject.name=${name}` })).items.map(
      (e) => `${String(e['reason'])}: ${String(e['message'])}`,
    );

  function claim(name: string, spec: Obj = {}): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '', ...spec },
    };
  }
  function volume(name: string, spec: Obj = {}): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/v/${name}` }, ...spec },
    };
  }

  function localPathClass(name: string, volumeBindingMode: 'Immediate' | 'WaitForFirstConsumer'): KubeObject {
    return { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'rancher.io/local-path', volumeBindingMode };
  }

  before(async () => {
    bed = await startControllerTest(
      (ctx) => new PersistentVolumeController(ctx),
      (ctx) => new LocalPathProvisioner(ctx),
      (ctx) => new StorageProtectionController(ctx),
    );
    api = bed.api;
  });
  after(async () => bed.close());

  it('binds a claim to the volume it names, and refuses one too small', async () => {
    await volumes().create(volume('named'));
    await volumes().create(volume('tiny', { capacity: { storage: '1Mi' } }));
    await claims().create(claim('wants-named', { volumeName: 'named' }));
    await claims().create(claim('wants-tiny', { volumeName: 'tiny' }));
    await waitFor('wants-named Bound', async () => (await claimPhase('wants-named')) === 'Bound');
    const bound = await volumes().get('named');
    assert.equal((bound['spec'] as Obj)['claimRef']['name'], 'wants-named');
    assert.equal(await volumePhase('named'), 'Bound');
    await waitFor('the mismatch event', async () =>
      (await events('wants-tiny')).includes('VolumeMismatch: Cannot bind to requested volume "tiny": requested PV is too small'),
    );
    assert.equal(await claimPhase('wants-tiny'), 'Pending');
    assert.equal(await volumePhase('tiny'), 'Available');
  });

  it('a Delete volume no provisioner made fails to reclaim; a claim whose volume is gone is Lost', async () => {
    await volumes().create(volume('doomed', { persistentVolumeReclaimPolicy: 'Delete' }));
    await claims().create(claim('short-lived', { volumeName: 'doomed' }));
    await waitFor('short-lived Bound', async () => (await claimPhase('short-lived')) === 'Bound');
    await claims().delete('short-lived');
    await waitFor('doomed Failed', async () => (await volumePhase('doomed')) === 'Failed');
    assert.match(((await volumes().get('doomed'))['status'] as Obj)['message'], /no deletable volume plugin matched/);

    // A bound volume goes (its protection lifted by force): the claim is Lost.
    await claims().create(claim('orphaned', { volumeName: 'named-2' }));
    await volumes().create(volume('named-2'));
    await waitFor('orphaned Bound', async () => (await claimPhase('orphaned')) === 'Bound');
    await volumes().delete('named-2');
    await volumes().patch('named-2', 'merge', { metadata: { finalizers: null } });
    await waitFor('orphaned Lost', async () => (await claimPhase('orphaned')) === 'Lost');
    assert.ok((await events('orphaned')).includes('ClaimLost: Bound claim has lost its PersistentVolume. Data on the volume is lost!'));
  });

  it('a volume deleted while Bound stays until its claim goes, then is Released and let go', async () => {
    await volumes().create(volume('held', { persistentVolumeReclaimPolicy: 'Retain' }));
    await claims().create(claim('holding', { volumeName: 'held' }));
    await waitFor('holding Bound', async () => (await claimPhase('holding')) === 'Bound');
    await volumes().delete('held');
    assert.deepEqual((await volumes().get('held')).metadata.finalizers, ['kubernetes.io/pv-protection']);
    assert.equal(await volumePhase('held'), 'Bound');
    await claims().delete('holding');
    await waitFor('held gone', () => absent(() => volumes().get('held')), 15_000);
  });

  it('a claim in use by a pod is deleted only once the pod is gone', async () => {
    await claims().create(claim('in-use'));
    const pods = api.resource(resources.pods, 'default');
    await pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'holder', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'in-use' } }] },
    });
    await claims().delete('in-use');
    await waitFor('the InUse event', async () => (await events('in-use')).some((e) => e.startsWith('InUse: ')));
    assert.equal(await absent(() => claims().get('in-use')), false);
    await pods.delete('holder');
    await waitFor('in-use gone', () => absent(() => claims().get('in-use')));
  });

  it('says once, not on every retry, that the chosen node publishes no local-path directory; provisions once it does', async () => {
    await api.resource(resources.storageclasses).create(localPathClass('late', 'WaitForFirstConsumer'));
    // As the scheduler marks a claim for its first pod's node: one with no agent publishing a directory yet.
    await claims().create(claim('patient', { storageClassName: 'late' }));
    await claims().patch('patient', 'merge', { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'late-node' } } });
    const failures = async () =>
      (await api.resource(resources.events, 'default').list({ fieldSelector: 'involvedObject.name=patient,reason=ProvisioningFailed' })).items;
    await waitFor('the ProvisioningFailed warning', async () => (await failures()).length > 0, 15_000);
    // The provisioner asks again every 5 s; after room for two retries the warning is still the one, counted once.
    await new Promise((done) => setTimeout(done, 12_000));
    const seen = await failures();
    assert.deepEqual(
      seen.map((e) => [e['message'], e['count']]),
      [
        [
          'failed to provision volume with StorageClass "late": node "late-node" does not publish a local-path directory (annotation drover.io/local-path-dir)',
          1,
        ],
      ],
    );
    // Its agent publishes the directory: the next retry provisions the volume.
    const nodes = api.resource(resources.nodes);
    await nodes.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'late-node', labels: { 'kubernetes.io/hostname': 'late-node' }, annotations: { 'drover.io/local-path-dir': '/srv/late' } },
    });
    await waitFor('patient Bound', async () => (await claimPhase('patient')) === 'Bound', 20_000);
  });

  it('provisions a local-path volume for an Immediate class on a node that publishes its directory, and deletes it with its claim', async () => {
    await api.resource(resources.storageclasses).create(localPathClass('now', 'Immediate'));
    const nodes = api.resource(resources.nodes);
    await nodes.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'disk-node', labels: { 'kubernetes.io/hostname': 'disk-node' }, annotations: { 'drover.io/local-path-dir': '/srv/storage' } },
    });
    const node = await nodes.get('disk-node');
    await nodes.updateStatus({ ...node, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    const made = await claims().create(claim('fast', { storageClassName: 'now' }));
    await waitFor('fast Bound', async () => (await claimPhase('fast')) === 'Bound', 15_000);
    const name = `pvc-${made.metadata.uid}`;
    const pv = await volumes().get(name);
    const spec = pv['spec'] as Obj;
    assert.equal(spec['hostPath']['path'], `/srv/storage/${name}_default_fast`);
    assert.deepEqual(spec['nodeAffinity']['required']['nodeSelectorTerms'][0]['matchExpressions'][0], {
      key: 'kubernetes.io/hostname',
      operator: 'In',
      values: ['disk-node'],
    });
    assert.equal(spec['persistentVolumeReclaimPolicy'], 'Delete');
    assert.equal(pv.metadata.labels?.['drover.io/local-path-node'], 'disk-node');
    assert.equal(((await claims().get('fast'))['status'] as Obj)['capacity']['storage'], '1Gi');

    await claims().delete('fast');
    // Deleted, and held by the cleanup finalizer until the node's agent removes the directory (none here).
    await waitFor('the volume being deleted', async () => Boolean((await volumes().get(name)).metadata.deletionTimestamp), 15_000);
    await waitFor(
      'only the cleanup finalizer left',
      async () => JSON.stringify((await volumes().get(name)).metadata.finalizers) === '["drover.io/local-path-directory"]',
      15_000,
    );
  });
});
