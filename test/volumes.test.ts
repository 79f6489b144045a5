// Persistent volumes end to end: a real `drover up` (API server, scheduler, controllers and a
// Docker node) driven by the real kubectl and @kubernetes/client-node. The built-in local-path
// class provisions a directory on the node chosen for a claim's first pod; data written there
// outlives the pod; hand-made hostPath volumes bind to matching claims; reclaim policies, the
// protection finalizers and the scheduler's refusals behave as in Kubernetes: a Bound volume's
// data survives `kubectl delete pv`, and a Retain volume's directory outlives the volume.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, waitForNodeReady, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const IMAGE = 'drover-test/busybox:1';

function claim(name: string, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '64Mi' } }, ...spec },
  });
}

function podWithClaim(name: string, claimName: string, script: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: 'main',
          image: IMAGE,
          command: ['sh', '-c', `${script}; trap exit TERM; while true; do sleep 1; done`],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
      ],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
    },
  });
}

function hostPathVolume(name: string, path: string, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, labels: { tier: name } },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path, type: 'DirectoryOrCreate' }, storageClassName: '', ...spec },
  });
}

describe('persistent volumes on drover up', { timeout: 300_000 }, () => {
  let cluster: UpProcess;
  let hostDir: string;
  const k = (args: string[], input?: string) => kubectl(cluster.kubeconfig, args, { timeoutMs: 90_000, ...(input ? { input } : {}) });
  const field = (args: string[], path: string) => k([...args, '-o', `jsonpath=${path}`]);
  const apply = (manifest: string) => k(['apply', '-f', '-'], manifest);
  const running = (pod: string) => k(['wait', '--for=condition=Ready', `pod/${pod}`, '--timeout=80s']);
  const gone = async (args: string[]) => (await kubectlRaw(cluster.kubeconfig, ['get', ...args])).code !== 0;
  // Ready says only that the container runs: the line its script writes may land a moment later.
  const written = (file: string) => waitFor(`${file} written by the pod`, async () => (await readFile(file, 'utf8')).trim() || false, 20_000);

  before(async () => {
    requireKubectl();
    ensureDocker();
    hostDir = await mkdtemp(join(tmpdir(), 'drover-pv-'));
    cluster = await startUpProcess(`volumes-${process.pid}`);
    await waitForNodeReady(cluster);
  });

  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
    await removeNodeObjects(cluster.nodeName);
    await rm(hostDir, { recursive: true, force: true });
  });

  it('kubectl get sc lists the built-in local-path class as the default', async () => {
    const [header, row] = (await k(['get', 'sc'])).trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE']);
    assert.deepEqual(row!.split(/\s{2,}/).slice(0, 5), ['local-path (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', 'false']);
    assert.match(await k(['get', 'storageclass.storage.k8s.io', 'local-path', '-o', 'name']), /^storageclass\.storage\.k8s\.io\/local-path$/m);
  });

  it("a claim waits for its first pod, is provisioned on that pod's node, and its data outlives the pod", async () => {
    await apply(claim('data'));
    assert.equal(await field(['get', 'pvc', 'data'], '{.spec.storageClassName}'), 'local-path');
    await waitFor(
      'the WaitForFirstConsumer event',
      async () => (await k(['get', 'events', '--field-selector', 'involvedObject.name=data'])).includes('WaitForFirstConsumer'),
      20_000,
    );
    assert.equal(await field(['get', 'pvc', 'data'], '{.status.phase}'), 'Pending');

    await apply(podWithClaim('writer', 'data', 'echo kept > /data/file'));
    await running('writer');
    assert.equal(await field(['get', 'pvc', 'data'], '{.metadata.annotations.volume\\.kubernetes\\.io/selected-node}'), cluster.nodeName);
    const uid = await field(['get', 'pvc', 'data'], '{.metadata.uid}');
    const volume = `pvc-${uid}`;
    assert.equal(await field(['get', 'pvc', 'data'], '{.spec.volumeName}'), volume);
    const [pvHeader, pvRow] = (await k(['get', 'pv', volume])).trim().split('\n');
    assert.deepEqual(pvHeader!.split(/\s{2,}/), [
      'NAME',
      'CAPACITY',
      'ACCESS MODES',
      'RECLAIM POLICY',
      'STATUS',
      'CLAIM',
      'STORAGECLASS',
      'VOLUMEATTRIBUTESCLASS',
      'REASON',
      'AGE',
    ]);
    assert.deepEqual(pvRow!.split(/\s{2,}/).slice(0, 8), [volume, '64Mi', 'RWO', 'Delete', 'Bound', 'default/data', 'local-path', '<unset>']);
    assert.equal(await field(['get', 'pv', volume], '{.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]}'), cluster.nodeName);
    const path = await field(['get', 'pv', volume], '{.spec.hostPath.path}');
    assert.ok(path.endsWith(`/storage/${volume}_default_data`), path);
    assert.equal(await written(join(path, 'file')), 'kept');
    assert.match((await k(['get', 'pvc', 'data'])).trim().split('\n')[1]!, new RegExp(`^data\\s+Bound\\s+${volume}\\s+64Mi\\s+RWO\\s+local-path`));

    await k(['delete', 'pod', 'writer', '--wait=true', '--timeout=60s']);
    await apply(podWithClaim('reader', 'data', 'cat /data/file'));
    await running('reader');
    await waitFor("the reader's log", async () => (await k(['logs', 'reader'])).trim() === 'kept', 20_000);
  });

  it('kubectl delete pvc waits while a pod uses the claim; then the Delete policy removes the volume and its directory', async () => {
    const volume = await field(['get', 'pvc', 'data'], '{.spec.volumeName}');
    const path = await field(['get', 'pv', volume], '{.spec.hostPath.path}');
    await k(['delete', 'pvc', 'data', '--wait=false']);
    assert.deepEqual(JSON.parse(await field(['get', 'pvc', 'data'], '{.metadata.finalizers}')), ['kubernetes.io/pvc-protection']);
    await waitFor('the claim shown Terminating', async () => /^data\s+Terminating/m.test(await k(['get', 'pvc', 'data'])), 10_000);
    // The protection controller has looked at it, and kept it: the pod holds it.
    await waitFor(
      'the InUse event',
      async () => (await k(['get', 'events', '--field-selector', 'involvedObject.name=data,reason=InUse'])).includes('reader'),
      20_000,
    );
    assert.equal(await gone(['pvc', 'data']), false);
    await k(['delete', 'pod', 'reader', '--wait=true', '--timeout=60s']);
    await waitFor('the claim gone', () => gone(['pvc', 'data']), 30_000);
    await waitFor('the volume deleted', () => gone(['pv', volume]), 30_000);
    await waitFor('the directory removed', () => !existsSync(path), 30_000);
  });

  it('a generic ephemeral volume gets its own claim and volume, which go with the pod', async () => {
    await apply(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'scratch' },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [
            {
              name: 'main',
              image: IMAGE,
              command: ['sh', '-c', 'echo temp > /scratch/t; trap exit TERM; while true; do sleep 1; done'],
              volumeMounts: [{ name: 'work', mountPath: '/scratch' }],
            },
          ],
          volumes: [
            {
              name: 'work',
              ephemeral: {
                volumeClaimTemplate: {
                  metadata: { labels: { kind: 'scratch' } },
                  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '16Mi' } } },
                },
              },
            },
          ],
        },
      }),
    );
    await running('scratch');
    assert.equal(await field(['get', 'pvc', 'scratch-work'], '{.metadata.ownerReferences[0].name}'), 'scratch');
    assert.equal(await field(['get', 'pvc', 'scratch-work'], '{.status.phase}'), 'Bound');
    const volume = await field(['get', 'pvc', 'scratch-work'], '{.spec.volumeName}');
    const path = await field(['get', 'pv', volume], '{.spec.hostPath.path}');
    assert.equal(await written(join(path, 't')), 'temp');
    await k(['delete', 'pod', 'scratch', '--wait=true', '--timeout=60s']);
    await waitFor('the claim collected with its pod', () => gone(['pvc', 'scratch-work']), 60_000);
    await waitFor('its volume and directory gone', async () => (await gone(['pv', volume])) && !existsSync(path), 30_000);
  });

  it('kubectl delete pv of a Bound volume keeps its data while bound; once the claim lets it go, the Delete policy removes it', async () => {
    await apply(claim('precious'));
    await apply(podWithClaim('keeper', 'precious', 'echo safe > /data/file'));
    await running('keeper');
    const volume = await field(['get', 'pvc', 'precious'], '{.spec.volumeName}');
    const path = await field(['get', 'pv', volume], '{.spec.hostPath.path}');
    await k(['delete', 'pv', volume, '--wait=false']);
    await waitFor('the volume shown Terminating', async () => /\sTerminating\s/.test(await k(['get', 'pv', volume])), 10_000);
    // The agent has seen the deletion by now; pv-protection holds the volume while it is Bound, and so does its data.
    assert.equal((await k(['exec', 'keeper', '--', 'cat', '/data/file'])).trim(), 'safe');
    assert.equal((await readFile(join(path, 'file'), 'utf8')).trim(), 'safe');
    assert.equal(await field(['get', 'pv', volume], '{.status.phase}'), 'Bound');
    await k(['delete', 'pod', 'keeper', '--wait=true', '--timeout=60s']);
    await k(['delete', 'pvc', 'precious', '--wait=true', '--timeout=60s']);
    await waitFor('the volume gone', () => gone(['pv', volume]), 30_000);
    await waitFor('its directory removed', () => !existsSync(path), 30_000);
  });

  it('a deleted local-path volume of reclaim policy Retain is let go with its directory and data kept', async () => {
    await apply(
      JSON.stringify({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'local-retain' },
        provisioner: 'rancher.io/local-path',
        reclaimPolicy: 'Retain',
        volumeBindingMode: 'WaitForFirstConsumer',
      }),
    );
    await apply(claim('kept', { storageClassName: 'local-retain' }));
    await apply(podWithClaim('retainer', 'kept', 'echo retained > /data/file'));
    await running('retainer');
    const volume = await field(['get', 'pvc', 'kept'], '{.spec.volumeName}');
    assert.equal(await field(['get', 'pv', volume], '{.spec.persistentVolumeReclaimPolicy}'), 'Retain');
    const path = await field(['get', 'pv', volume], '{.spec.hostPath.path}');
    await k(['delete', 'pod', 'retainer', '--wait=true', '--timeout=60s']);
    await k(['delete', 'pvc', 'kept', '--wait=true', '--timeout=60s']);
    await waitFor('the volume Released', async () => (await field(['get', 'pv', volume], '{.status.phase}')) === 'Released', 20_000);
    await k(['delete', 'pv', volume, '--wait=true', '--timeout=60s']);
    assert.equal(await gone(['pv', volume]), true);
    assert.equal((await readFile(join(path, 'file'), 'utf8')).trim(), 'retained');
    await rm(path, { recursive: true, force: true });
  });

  it('a hand-made hostPath volume binds a claim without class, and Retain keeps it Released with its data', async () => {
    const dir = join(hostDir, 'manual');
    await apply(hostPathVolume('manual-pv', dir, { persistentVolumeReclaimPolicy: 'Retain' }));
    await waitFor('the volume Available', async () => (await field(['get', 'pv', 'manual-pv'], '{.status.phase}')) === 'Available', 20_000);
    await apply(claim('manual', { storageClassName: '' }));
    await waitFor('the claim Bound', async () => (await field(['get', 'pvc', 'manual'], '{.status.phase}')) === 'Bound', 20_000);
    assert.equal(await field(['get', 'pvc', 'manual'], '{.spec.volumeName}'), 'manual-pv');
    assert.equal(await field(['get', 'pvc', 'manual'], '{.status.capacity.storage}'), '1Gi');
    await apply(podWithClaim('manual-user', 'manual', 'echo by-hand > /data/note'));
    await running('manual-user');
    assert.equal(await written(join(dir, 'note')), 'by-hand');
    await k(['delete', 'pod', 'manual-user', '--wait=true', '--timeout=60s']);
    await k(['delete', 'pvc', 'manual', '--wait=true', '--timeout=30s']);
    await waitFor('the volume Released', async () => (await field(['get', 'pv', 'manual-pv'], '{.status.phase}')) === 'Released', 20_000);
    assert.match((await k(['get', 'pv', 'manual-pv'])).trim().split('\n')[1]!, /^manual-pv\s+1Gi\s+RWO\s+Retain\s+Released\s+default\/manual\s/);
    assert.equal((await readFile(join(dir, 'note'), 'utf8')).trim(), 'by-hand');
  });

  it('an Immediate class without provisioner binds the smallest fitting volume its selector allows', async () => {
    await apply(
      JSON.stringify({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'by-hand' },
        provisioner: 'kubernetes.io/no-provisioner',
        volumeBindingMode: 'Immediate',
      }),
    );
    await apply(hostPathVolume('big', join(hostDir, 'big'), { storageClassName: 'by-hand', capacity: { storage: '5Gi' } }));
    await apply(hostPathVolume('small', join(hostDir, 'small'), { storageClassName: 'by-hand', capacity: { storage: '1Gi' } }));
    await apply(claim('fits', { storageClassName: 'by-hand', resources: { requests: { storage: '500Mi' } } }));
    await waitFor('fits Bound', async () => (await field(['get', 'pvc', 'fits'], '{.status.phase}')) === 'Bound', 20_000);
    assert.equal(await field(['get', 'pvc', 'fits'], '{.spec.volumeName}'), 'small');
    await apply(claim('picky', { storageClassName: 'by-hand', selector: { matchLabels: { tier: 'big' } } }));
    await waitFor('picky Bound', async () => (await field(['get', 'pvc', 'picky'], '{.spec.volumeName}')) === 'big', 20_000);
  });

  it("pods whose claims are missing or unbound Immediate stay Pending with the scheduler's reason", async () => {
    await apply(podWithClaim('no-claim', 'nope', 'true'));
    await apply(claim('too-big', { storageClassName: 'by-hand', resources: { requests: { storage: '100Gi' } } }));
    await apply(podWithClaim('unbound', 'too-big', 'true'));
    const reason = (pod: string) => field(['get', 'pod', pod], '{.status.conditions[?(@.type=="PodScheduled")].message}');
    await waitFor('no-claim unschedulable', async () => (await reason('no-claim')).includes('persistentvolumeclaim "nope" not found'), 20_000);
    await waitFor('unbound unschedulable', async () => (await reason('unbound')).includes('pod has unbound immediate PersistentVolumeClaims'), 20_000);
    assert.equal(await field(['get', 'pod', 'no-claim'], '{.spec.nodeName}'), '');
    await waitFor(
      'the FailedBinding event',
      async () => (await k(['get', 'events', '--field-selector', 'involvedObject.name=too-big'])).includes('no persistent volumes available for this claim'),
      20_000,
    );
    // Bound to the node by hand, past the scheduler: the agent waits for the claim, as the kubelet does.
    const direct = JSON.parse(podWithClaim('direct', 'too-big', 'true'));
    direct.spec.nodeName = cluster.nodeName;
    await apply(JSON.stringify(direct));
    await waitFor(
      'the FailedMount event',
      async () =>
        (await k(['get', 'events', '--field-selector', 'involvedObject.name=direct,reason=FailedMount'])).includes(
          'error processing PVC default/too-big: PVC is not bound',
        ),
      30_000,
    );
    await waitFor(
      'direct ContainerCreating',
      async () => (await field(['get', 'pod', 'direct'], '{.status.containerStatuses[0].state.waiting.reason}')) === 'ContainerCreating',
      20_000,
    );
    // The claim appears: the pod is scheduled and runs.
    await apply(claim('nope'));
    await running('no-claim');
    await k(['delete', 'pod', 'no-claim', 'unbound', 'direct', '--wait=true', '--timeout=60s']);
  });

  it("refuses bad claims and volumes with Kubernetes' field errors", async () => {
    const bad = await kubectlRaw(cluster.kubeconfig, ['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'bad' }, spec: { accessModes: ['ReadWriteOnce'] } }),
    });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.resources\[storage\]: Required value/);
    const change = await kubectlRaw(cluster.kubeconfig, ['patch', 'pvc', 'fits', '--type=merge', '-p', '{"spec":{"accessModes":["ReadWriteMany"]}}']);
    assert.match(change.stderr, /spec: Forbidden: spec is immutable after creation/);
    const grow = await kubectlRaw(cluster.kubeconfig, ['patch', 'pvc', 'fits', '--type=merge', '-p', '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}']);
    assert.match(grow.stderr, /only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize/);
    const local = await kubectlRaw(cluster.kubeconfig, ['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'bad-local' },
        spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/mnt' } },
      }),
    });
    assert.match(local.stderr, /spec\.nodeAffinity: Required value: Local volume requires node affinity/);
  });

  it('@kubernetes/client-node lists and watches claims', async () => {
    const config = new KubeConfig();
    config.loadFromFile(cluster.kubeconfig);
    const core = config.makeApiClient(CoreV1Api);
    const names = (await core.listNamespacedPersistentVolumeClaim({ namespace: 'default' })).items.map((c) => c.metadata?.name).sort();
    assert.deepEqual(names, ['fits', 'nope', 'picky', 'too-big']);
    const seen: string[] = [];
    const request = await new Watch(config).watch(
      '/api/v1/namespaces/default/persistentvolumeclaims',
      {},
      (type, object: { metadata?: { name?: string }; status?: { phase?: string } }) => {
        seen.push(`${type} ${object.metadata?.name ?? ''} ${object.status?.phase ?? ''}`);
      },
      () => undefined,
    );
    try {
      await core.createNamespacedPersistentVolumeClaim({ namespace: 'default', body: JSON.parse(claim('watched', { storageClassName: 'by-hand' })) });
      await waitFor('ADDED watched', () => seen.some((line) => line.startsWith('ADDED watched')), 10_000);
      const pv = (await core.listPersistentVolume()).items.find((v) => v.metadata?.name === 'big');
      assert.equal(pv?.spec?.claimRef?.name, 'picky');
    } finally {
      request.abort();
    }
  });
});
