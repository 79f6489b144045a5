import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import type { ApiClient } from './api-client.js';
import { indexers } from './indexers.js';
import { Informer, type EventHandlers } from './informer.js';
import { objectKey } from './keys.js';
import { silentLogger } from './logger.js';
import { resources } from './resources.js';
import { SharedInformerFactory } from './shared-informer-factory.js';
import { testPod } from '../../test/support/apiserver/in-process-server.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';
import { waitFor } from '../../test/support/wait-for.js';

/** Handlers that replay events into a map and fail on anything a correct informer never does. */
function recorder(): { handlers: EventHandlers<KubeObject>; state: Map<string, string>; log: string[]; problems: string[] } {
  const state = new Map<string, string>();
  const log: string[] = [];
  const problems: string[] = [];
  const rv = (o: KubeObject) => o.metadata.resourceVersion ?? '';
  const handlers: EventHandlers<KubeObject> = {
    onAdd(o) {
      if (state.has(objectKey(o))) problems.push(`duplicate add ${objectKey(o)}`);
      state.set(objectKey(o), rv(o));
      log.push(`add ${o.metadata.name}`);
    },
    onUpdate(old, o) {
      if (state.get(objectKey(o)) !== rv(old)) problems.push(`update of ${objectKey(o)} from an unseen version`);
      state.set(objectKey(o), rv(o));
      log.push(`update ${o.metadata.name}`);
    },
    onDelete(o) {
      if (!state.delete(objectKey(o))) problems.push(`delete of unknown ${objectKey(o)}`);
      log.push(`delete ${o.metadata.name}`);
    },
  };
  return { handlers, state, log, problems };
}

async function freshState(client: ApiClient): Promise<Map<string, string>> {
  const list = await client.resource(resources.configmaps).listAll();
  return new Map(list.items.map((item) => [objectKey(item), item.metadata.resourceVersion ?? '']));
}

const cm = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });

describe('Informer', () => {
  const bed = useTestServer();

  it('syncs, delivers events in order and keeps indexes', async () => {
    const pods = bed.api.resource(resources.pods, 'default');
    const p1 = await pods.create({ ...testPod('p1'), spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'i' }] } } as KubeObject);
    await pods.create({ ...testPod('p2'), spec: { nodeName: 'node-b', containers: [{ name: 'c', image: 'i' }] } } as KubeObject);
    const informer = new Informer(bed.api, resources.pods, { logger: silentLogger, pageSize: 1 });
    informer.addIndexer('nodeName', indexers.nodeName);
    const rec = recorder();
    informer.addEventHandler(rec.handlers);
    informer.start();
    await informer.waitForSync(5000);
    assert.ok(informer.hasSynced());
    assert.deepEqual(rec.log, ['add p1', 'add p2']);
    assert.deepEqual(
      informer.byIndex('nodeName', 'node-a').map((p) => p.metadata.name),
      ['p1'],
    );

    await pods.patch('p1', 'merge', { metadata: { labels: { x: '1' } } });
    await pods.create(testPod('p3') as KubeObject);
    await pods.delete('p2', { gracePeriodSeconds: 0 });
    await waitFor('three more events', () => rec.log.length === 5, 3000);
    assert.deepEqual(rec.log.slice(2), ['update p1', 'add p3', 'delete p2']);
    assert.deepEqual(informer.indexKeys('nodeName', ''), ['default/p3']);
    assert.deepEqual(informer.indexKeys('nodeName', 'node-b'), []);
    assert.equal(informer.get('default/p1')?.metadata.labels?.['x'], '1');
    assert.notEqual(informer.get('default/p1')?.metadata.resourceVersion, p1.metadata.resourceVersion);

    // A handler added late first hears of everything already cached.
    const late = recorder();
    informer.addEventHandler(late.handlers);
    assert.deepEqual(late.log.sort(), ['add p1', 'add p3']);
    assert.deepEqual(rec.problems, []);
    await informer.stop();
  });

  it('re-delivers everything as updates on resync', async () => {
    const informer = new Informer(bed.api, resources.pods, { logger: silentLogger, resyncPeriodMs: 100, namespace: 'default' });
    let resyncs = 0;
    informer.addEventHandler({
      onUpdate: (old, next) => {
        if (old === next) resyncs++;
      },
    });
    informer.start();
    await informer.waitForSync(5000);
    await waitFor('two resyncs', () => resyncs >= 2 * informer.list().length, 3000);
    await informer.stop();
  });

  it('resumes the watch from its resourceVersion after the server restarts', async () => {
    const configmaps = bed.api.resource(resources.configmaps, 'default');
    await configmaps.create(cm('keep'));
    await configmaps.create(cm('change'));
    await configmaps.create(cm('remove'));
    const informer = new Informer(bed.api, resources.configmaps, { logger: silentLogger, minBackoffMs: 20, maxBackoffMs: 200 });
    const rec = recorder();
    informer.addEventHandler(rec.handlers);
    informer.start();
    await informer.waitForSync(5000);

    // Changes made while the informer cannot reach the server: through a second server on the
    // same data at another port, then the original port comes back.
    const port = await bed.server.stop();
    await bed.server.restart(0);
    const other = bed.server.client();
    const otherCms = other.resource(resources.configmaps, 'default');
    await otherCms.patch('change', 'merge', { data: { v: '2' } });
    await otherCms.delete('remove');
    await otherCms.create(cm('new'));
    await bed.server.stop();
    await bed.server.restart(port);

    await waitFor('informer to catch up', async () => sameState(informer, await freshState(bed.api)), 8000);
    assert.deepEqual(rec.state, await freshState(bed.api));
    assert.deepEqual(rec.problems, []);
    assert.deepEqual(rec.log.slice(-3), ['update change', 'delete remove', 'add new']);
    assert.equal(informer.stats.lists, 1, 're-watched without a new list');
    await informer.stop();
  });

  it('shares one informer per resource and scope', async () => {
    const factory = new SharedInformerFactory(bed.api, { logger: silentLogger });
    const a = factory.informerFor(resources.pods);
    const b = factory.informerFor(resources.pods);
    const c = factory.informerFor(resources.pods, { labelSelector: { app: 'x' } });
    assert.equal(a, b);
    assert.notEqual(a, c);
    a.addIndexer('namespace', indexers.namespace);
    b.addIndexer('namespace', indexers.namespace);
    assert.throws(() => b.addIndexer('namespace', indexers.nodeName), /already exists/);
    factory.start();
    await factory.waitForSync(5000);
    const late = factory.informerFor(resources.nodes);
    await late.waitForSync(5000);
    assert.ok(a.byIndex('namespace', 'default').length > 0);
    await factory.stop();
  });
});

function sameState(informer: Informer<KubeObject>, fresh: Map<string, string>): boolean {
  const cached = new Map(informer.list().map((o) => [objectKey(o), o.metadata.resourceVersion ?? '']));
  return cached.size === fresh.size && [...fresh].every(([key, rv]) => cached.get(key) === rv);
}

describe('Informer after 410 Expired', () => {
  const bed = useTestServer({ historyWindow: 10 });

  it('re-lists and delivers only the differences', async () => {
    const configmaps = bed.api.resource(resources.configmaps, 'default');
    for (let i = 0; i < 10; i++) await configmaps.create(cm(`c${i}`));
    const informer = new Informer(bed.api, resources.configmaps, { logger: silentLogger, minBackoffMs: 20, maxBackoffMs: 200 });
    const rec = recorder();
    informer.addEventHandler(rec.handlers);
    informer.start();
    await informer.waitForSync(5000);
    const addsBefore = rec.log.length;

    const port = await bed.server.stop();
    await bed.server.restart(0);
    const other = bed.server.client().resource(resources.configmaps, 'default');
    for (let i = 0; i < 5; i++) await other.delete(`c${i}`);
    for (let i = 5; i < 8; i++) await other.patch(`c${i}`, 'merge', { data: { v: 'x' } });
    for (let i = 0; i < 40; i++) await other.create(cm(`n${i}`));
    for (let i = 0; i < 40; i += 2) await other.delete(`n${i}`);
    await bed.server.store.compact();
    await bed.server.stop();
    await bed.server.restart(port);

    await waitFor('informer to re-list', async () => sameState(informer, await freshState(bed.api)), 8000);
    assert.ok(informer.stats.relists >= 1, 'the watch expired and the informer re-listed');
    assert.deepEqual(rec.state, await freshState(bed.api));
    assert.deepEqual(rec.problems, []);
    const after = rec.log.slice(addsBefore);
    assert.equal(after.filter((l) => l.startsWith('delete c')).length, 5);
    assert.equal(after.filter((l) => l.startsWith('update')).length, 3);
    assert.equal(after.filter((l) => l.startsWith('add n')).length, 20, 'objects created and deleted meanwhile are never seen');
    assert.ok(!after.includes('update c9'), 'unchanged objects are not re-delivered');
    await informer.stop();
  });
});
