// PATCH and PUT against a real SQLite store: writes issued in one tick share a group commit,
// where every write after the first to the same object conflicts. A patch or update that names
// no resourceVersion is re-read and retried; one that names a stale version is the client's 409.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { openTestStore, type TestStore } from '../../../test/support/auth/rbac-store.js';
import type { ObjectRegistry, WriteOptions } from './object-registry.js';

const options: WriteOptions & { force: boolean } = { dryRun: false, fieldManager: 'test', fieldValidation: 'Strict', force: false };

describe('object registry patch and update', () => {
  let t: TestStore;
  let registry: ObjectRegistry;
  let configmaps: ResourceDefinition;

  before(async () => {
    t = await openTestStore(['default']);
    registry = t.registry;
    configmaps = findResource('', 'v1', 'configmaps')!;
  });
  after(() => t.close());

  async function configMap(name: string): Promise<KubeObject> {
    return (await registry.create(configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { seed: '1' } }, options)).object;
  }

  it('retries racing merge, strategic and JSON patches that name no resourceVersion', async () => {
    await configMap('race');
    const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
    await Promise.all(
      keys.flatMap((key) => [
        registry.patch(configmaps, 'default', 'race', 'merge', { data: { [`merge-${key}`]: '1' } }, options),
        registry.patch(configmaps, 'default', 'race', 'strategic', { data: { [`smp-${key}`]: '1' } }, options),
        registry.patch(configmaps, 'default', 'race', 'json', [{ op: 'add', path: `/data/json-${key}`, value: '1' }], options),
      ]),
    );
    const data = (await registry.get(configmaps, 'default', 'race'))['data'] as Record<string, string>;
    assert.equal(Object.keys(data).length, 31, 'the seed and all 30 patches');
  });

  it('retries racing updates (PUT) that name no resourceVersion, for the object and its status', async () => {
    const deployments = findResource('apps', 'v1', 'deployments')!;
    const deployment = (replicas: number): KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'racer' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'r' } },
        template: { metadata: { labels: { app: 'r' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
      status: { observedGeneration: replicas },
    });
    await registry.create(deployments, 'default', deployment(1), options);
    const updates = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? registry.update(deployments, 'default', 'racer', deployment(i + 2), options)
        : registry.update(deployments, 'default', 'racer', deployment(i + 2), { ...options, subresource: 'status' }),
    );
    const results = await Promise.allSettled(updates);
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
      [],
    );
    const stored = await registry.get(deployments, 'default', 'racer');
    assert.equal(stored.metadata.generation, 1 + 10, 'each spec update counted once');
    await configMap('put-race');
    const data = (i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'put-race' }, data: { n: String(i) } });
    await Promise.all(Array.from({ length: 20 }, (_, i) => registry.update(configmaps, 'default', 'put-race', data(i), options)));
  });

  it('answers 409 to a patch that names a stale resourceVersion', async () => {
    const created = await configMap('stale');
    await registry.patch(configmaps, 'default', 'stale', 'merge', { data: { a: '1' } }, options);
    const rv = created.metadata.resourceVersion;
    for (const [type, body] of [
      ['merge', { metadata: { resourceVersion: rv }, data: { b: '1' } }],
      ['strategic', { metadata: { resourceVersion: rv }, data: { b: '1' } }],
      [
        'json',
        [
          { op: 'replace', path: '/metadata/resourceVersion', value: rv },
          { op: 'add', path: '/data/b', value: '1' },
        ],
      ],
    ] as const) {
      await assert.rejects(registry.patch(configmaps, 'default', 'stale', type, body, options), (err: { code?: number; reason?: string }) => {
        assert.equal(err.code, 409, `${type}: ${JSON.stringify(err)}`);
        return true;
      });
    }
    assert.deepEqual((await registry.get(configmaps, 'default', 'stale'))['data'], { seed: '1', a: '1' });
  });

  it('runs a guaranteed update again on the newer object when it loses a race', async () => {
    await configMap('guaranteed');
    const add = (key: string) => (current: KubeObject) => ({ ...current, data: { ...(current['data'] as object), [key]: '1' } });
    await Promise.all(Array.from({ length: 10 }, (_, i) => registry.guaranteedUpdate(configmaps, 'default', 'guaranteed', undefined, add(`k${i}`), false)));
    const data = (await registry.get(configmaps, 'default', 'guaranteed'))['data'] as Record<string, string>;
    assert.equal(Object.keys(data).length, 11, 'the seed and all 10 changes');
  });

  it('answers 409 to guaranteed updates whose resourceVersion precondition a racing one made stale', async () => {
    const created = await configMap('guarded');
    const preconditions = { uid: created.metadata.uid!, resourceVersion: created.metadata.resourceVersion! };
    const change = (i: number) => (current: KubeObject) => ({ ...current, data: { winner: String(i) } });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => registry.guaranteedUpdate(configmaps, 'default', 'guarded', preconditions, change(i), false)),
    );
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as { code: number; message: string });
    assert.equal(results.length - refused.length, 1, 'exactly one wins');
    for (const error of refused) {
      assert.equal(error.code, 409);
      assert.match(
        error.message,
        /^Operation cannot be fulfilled on configmaps "guarded": StorageError: invalid object, Code: 4, Key: \/registry\/configmaps\/default\/guarded, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: \d+, ResourceVersion in object meta: \d+$/,
      );
    }
    const other = { uid: 'someone-else' };
    await assert.rejects(
      registry.guaranteedUpdate(configmaps, 'default', 'guarded', other, change(9), false),
      /Precondition failed: UID in precondition: someone-else/,
    );
  });

  it("lists and watches a kind's collection in one namespace through the registry", async () => {
    const events: string[] = [];
    const objects = registry.collection(configmaps, 'default');
    const { items, revision } = await objects.list({ filter: (o) => o.metadata.name === 'guarded' });
    assert.deepEqual(
      items.map((o) => o.metadata.name),
      ['guarded'],
    );
    const watch = objects.watch({ fromRevision: revision }, (event) => events.push(`${event.type} ${event.object.metadata.name}`));
    // Written first: events come in revision order, so one from the other namespace would come first.
    await registry.create(findResource('', 'v1', 'namespaces')!, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } }, options);
    await registry.create(configmaps, 'other', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere' } }, options);
    await configMap('watched');
    for (let i = 0; i < 500 && !events.includes('ADDED watched'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    watch.stop();
    assert.deepEqual(events, ['ADDED watched']);
    assert.equal(await objects.currentRevision(), await registry.currentRevision());
  });
});
