import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { openTestStore, WRITE, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { ObjectRegistry } from '../registry/object-registry.js';
import { AdmissionObjects } from './admission-objects.js';
import { projectToken, SERVICE_ACCOUNT_MOUNT_PATH, ServiceAccountAdmission } from './service-account-admission.js';

let t: TestStore;
let registry: ObjectRegistry;
let objects: AdmissionObjects;
const pods = findResource('', 'v1', 'pods')!;

before(async () => {
  t = await openTestStore(['dev']);
  objects = new AdmissionObjects(t.store);
  await objects.start();
  registry = new ObjectRegistry(t.store, { mutating: [new ServiceAccountAdmission(objects)] });
  await t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'dev' } });
  await t.create({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'quiet', namespace: 'dev' },
    automountServiceAccountToken: false,
  } as KubeObject);
});
after(async () => {
  objects.stop();
  registry.close();
  await t.close();
});

async function create(name: string, spec: Record<string, unknown>): Promise<any> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'dev' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } };
  return (await registry.create(pods, 'dev', body, WRITE)).object;
}

describe('service-account admission', () => {
  test('a pod gets kube-api-access-<5>: token (3607 s), kube-root-ca.crt, namespace, mounted read-only in every container', async () => {
    const pod = await create('plain', { initContainers: [{ name: 'init', image: 'busybox' }] });
    const volume = pod.spec.volumes[0];
    assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(volume.projected.sources, [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
    ]);
    assert.equal(volume.projected.defaultMode, 0o644);
    for (const c of [...pod.spec.initContainers, ...pod.spec.containers]) {
      assert.deepEqual(c.volumeMounts, [{ name: volume.name, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH }]);
    }
  });

  test('opting out: on the pod, or on its account (the pod setting wins)', async () => {
    assert.equal((await create('pod-off', { automountServiceAccountToken: false })).spec.volumes, undefined);
    assert.equal((await create('sa-off', { serviceAccountName: 'quiet' })).spec.volumes, undefined);
    assert.equal((await create('pod-on', { serviceAccountName: 'quiet', automountServiceAccountToken: true })).spec.volumes.length, 1);
  });

  test('no account (yet): admitted without a token', async () => {
    assert.equal((await create('no-sa', { serviceAccountName: 'missing' })).spec.volumes, undefined);
  });

  test('an account made after a pod found none is used as soon as the mirror sees it (the "none" is not kept past it)', async () => {
    assert.equal((await create('before-sa', { serviceAccountName: 'late' })).spec.volumes, undefined);
    await t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'late', namespace: 'dev' } });
    let attempt = 0;
    const volumes = await waitFor(
      "a pod admitted with the late account's token",
      async () => (await create(`after-sa-${attempt++}`, { serviceAccountName: 'late' })).spec.volumes,
    );
    assert.equal(volumes.length, 1);
  });

  test('a container that mounts the path itself is left alone', () => {
    const spec: Record<string, any> = {
      containers: [{ name: 'own', volumeMounts: [{ name: 'mine', mountPath: SERVICE_ACCOUNT_MOUNT_PATH }] }, { name: 'other' }],
      volumes: [{ name: 'mine', emptyDir: {} }],
    };
    projectToken(spec);
    assert.equal(spec['volumes'].length, 2);
    assert.equal(spec['containers'][0].volumeMounts.length, 1);
    assert.equal(spec['containers'][1].volumeMounts[0].mountPath, SERVICE_ACCOUNT_MOUNT_PATH);
  });
});
