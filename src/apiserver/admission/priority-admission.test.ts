import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findResource } from '../../api/registry.js';
import { openTestStore, WRITE, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { ensureSystemPriorityClasses } from '../priority-classes.js';
import { ObjectRegistry } from '../registry/object-registry.js';
import { AdmissionObjects } from './admission-objects.js';
import { PriorityAdmission } from './priority-admission.js';

let t: TestStore;
let registry: ObjectRegistry;
let objects: AdmissionObjects;
const pods = findResource('', 'v1', 'pods')!;
const classes = findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!;

before(async () => {
  t = await openTestStore(['dev', 'kube-system']);
  objects = new AdmissionObjects(t.store);
  await objects.start();
  const priority = new PriorityAdmission(t.store, objects);
  registry = new ObjectRegistry(t.store, { mutating: [priority], validating: [priority] });
  await ensureSystemPriorityClasses(registry);
  await createClass('high', 1000);
  await createClass('polite', 500, { preemptionPolicy: 'Never' });
});
after(async () => {
  objects.stop();
  registry.close();
  await t.close();
});

async function createClass(name: string, value: number, extra: Record<string, unknown> = {}): Promise<any> {
  const body = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra };
  return (await registry.create(classes, undefined, body, WRITE)).object;
}

async function createPod(name: string, spec: Record<string, unknown>, namespace = 'dev'): Promise<any> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } };
  return (await registry.create(pods, namespace, body, WRITE)).object;
}

async function refusal(write: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await write;
  } catch (error) {
    return error as { code: number; message: string };
  }
  assert.fail('the write was admitted');
}

describe('priority admission', () => {
  test('a named class gives the pod its value and preemption policy', async () => {
    const pod = await createPod('a', { priorityClassName: 'high' });
    assert.equal(pod.spec.priority, 1000);
    assert.equal(pod.spec.preemptionPolicy, 'PreemptLowerPriority');
    const polite = await createPod('b', { priorityClassName: 'polite' });
    assert.equal(polite.spec.preemptionPolicy, 'Never');
  });

  test('an unknown class is refused with 403', async () => {
    const error = await refusal(createPod('c', { priorityClassName: 'foo' }));
    assert.equal(error.code, 403);
    assert.equal(error.message, 'pods "c" is forbidden: no PriorityClass with name foo was found');
  });

  test('a priority that disagrees with the class is refused; one that agrees is kept', async () => {
    const error = await refusal(createPod('d', { priorityClassName: 'high', priority: 7 }));
    assert.equal(
      error.message,
      'pods "d" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    );
    assert.equal((await createPod('e', { priorityClassName: 'high', priority: 1000 })).spec.priority, 1000);
  });

  test('without a class: 0, then the global default once there is one; only one default may exist', async () => {
    assert.equal((await createPod('f', {})).spec.priority, 0);
    await createClass('everyone', 10, { globalDefault: true });
    const pod = await createPod('g', {});
    assert.equal(pod.spec.priority, 10);
    assert.equal(pod.spec.priorityClassName, 'everyone');
    const error = await refusal(createClass('second', 20, { globalDefault: true }));
    assert.equal(error.code, 403);
    assert.equal(
      error.message,
      'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass everyone is already marked as default. Only one default can exist',
    );
  });

  test('system-*-critical only in kube-system', async () => {
    const error = await refusal(createPod('h', { priorityClassName: 'system-node-critical' }));
    assert.equal(error.code, 403);
    assert.match(error.message, /insufficient quota to match these scopes/);
    assert.equal((await createPod('h', { priorityClassName: 'system-node-critical' }, 'kube-system')).spec.priority, 2_000_001_000);
  });
});

describe('PriorityClass rules', () => {
  test('system- names are reserved, user values capped, value immutable', async () => {
    assert.equal((await refusal(createClass('system-mine', 5))).code, 422);
    assert.equal((await refusal(createClass('huge', 1_000_000_001))).code, 422);
    const update = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 2000 };
    const error = await refusal(registry.update(classes, undefined, 'high', update, WRITE));
    assert.equal(error.code, 422);
    assert.match(error.message, /value: Forbidden: may not be changed in an update/);
  });

  test('the built-in classes exist and cannot be deleted', async () => {
    const critical = await registry.get(classes, undefined, 'system-cluster-critical');
    assert.equal(critical['value'], 2_000_000_000);
    const error = await refusal(registry.delete(classes, undefined, 'system-node-critical', { dryRun: false }));
    assert.equal(error.code, 403);
    assert.equal(error.message, 'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
  });
});
