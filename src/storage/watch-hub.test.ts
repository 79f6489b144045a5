import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoreEvent } from './store.js';
import { type RawStoreEvent, WatchHub } from './watch-hub.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

function added(revision: number, key = `/k/${revision}`): RawStoreEvent {
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: key, resourceVersion: String(revision) } };
  return { type: 'ADDED', key, revision, value: JSON.stringify(object) };
}

describe('WatchHub', () => {
  it('delivers writes made from inside a handler after the current event, in order', async () => {
    const hub = new WatchHub();
    const seen: number[] = [];
    hub.add({ prefix: '/k/', afterRevision: 0 }, [], (event) => {
      seen.push(event.revision);
      if (event.revision === 1) {
        hub.publish(added(3));
        hub.publish(added(4));
      }
    });
    hub.publish(added(1));
    hub.publish(added(2));
    await settle();
    assert.deepEqual(seen, [1, 2, 3, 4]);
  });

  it('hands every watcher the same event, with the stored text; a DELETED one is its last state at the delete', async () => {
    const hub = new WatchHub();
    const first: StoreEvent[] = [];
    const second: StoreEvent[] = [];
    hub.add({ prefix: '/k/', afterRevision: 0 }, [], (event) => first.push(event));
    hub.add({ prefix: '/k/', afterRevision: 0 }, [], (event) => second.push(event));
    const created = added(1, '/k/a');
    hub.publish(created);
    hub.publish({ type: 'DELETED', key: '/k/a', revision: 2, prevValue: created.value! });
    await settle();
    assert.equal(first[0], second[0]);
    assert.equal(first[0]!.objectJson, created.value);
    assert.equal(first[0]!.object, second[0]!.object, 'parsed once, shared');
    assert.equal(first[1]!.objectJson, undefined);
    assert.equal(first[1]!.object.metadata.resourceVersion, '2');
    assert.equal(first[1]!.prevObject!.metadata.resourceVersion, '1');
  });

  it('never delivers inside the publishing call', () => {
    const hub = new WatchHub();
    const seen: number[] = [];
    hub.add({ prefix: '/', afterRevision: 0 }, [added(1)], (event) => seen.push(event.revision));
    hub.publish(added(2));
    assert.deepEqual(seen, []);
  });

  it('drops a replayed event that arrives again live, and anything at or below afterRevision', async () => {
    const hub = new WatchHub();
    const seen: number[] = [];
    hub.add({ prefix: '/', afterRevision: 1 }, [added(1), added(2), added(3)], (event) => seen.push(event.revision));
    hub.publish(added(3));
    hub.publish(added(4));
    await settle();
    assert.deepEqual(seen, [2, 3, 4]);
  });

  it('a handler that throws ends only its own watch, through onError', async () => {
    const hub = new WatchHub();
    const errors: Error[] = [];
    const healthy: StoreEvent[] = [];
    hub.add(
      { prefix: '/', afterRevision: 0 },
      [],
      () => {
        throw new Error('handler broke');
      },
      (error) => errors.push(error),
    );
    hub.add({ prefix: '/', afterRevision: 0 }, [], (event) => healthy.push(event));
    hub.publish(added(1));
    await settle();
    hub.publish(added(2));
    await settle();
    assert.deepEqual(
      errors.map((error) => error.message),
      ['handler broke'],
    );
    assert.equal(hub.size, 1);
    assert.deepEqual(
      healthy.map((event) => event.revision),
      [1, 2],
    );
  });

  it('endAll delivers what is queued, then the error, then nothing', async () => {
    const hub = new WatchHub();
    const log: string[] = [];
    hub.add(
      { prefix: '/', afterRevision: 0 },
      [],
      (event) => log.push(`event ${event.revision}`),
      (error) => log.push(error.message),
    );
    hub.publish(added(1));
    hub.endAll(new Error('closed'));
    hub.publish(added(2));
    await settle();
    assert.deepEqual(log, ['event 1', 'closed']);
    assert.equal(hub.size, 0);
  });
});
