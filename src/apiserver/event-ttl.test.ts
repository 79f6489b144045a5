// Events expire after the TTL, measured from when they last happened.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { metaTime, type KubeObject } from '../api/meta.js';
import { findResource } from '../api/registry.js';
import { openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import { EventTtl, lastSeen } from './event-ttl.js';
import { callJson, TestServer } from '../../test/support/apiserver/in-process-server.js';
import { waitFor } from '../../test/support/wait-for.js';

const EVENTS = '/api/v1/namespaces/default/events';
const ago = (seconds: number) => metaTime(new Date(Date.now() - seconds * 1000));

function event(name: string, times: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
    reason: 'Tested',
    message: name,
    type: 'Normal',
    count: 1,
    ...times,
  };
}

describe('event TTL', () => {
  let server: TestServer;

  before(async () => {
    server = await TestServer.start({ eventTtlSeconds: 1 });
  });
  after(() => server.close());

  const call = (method: string, path: string, body?: unknown) => callJson(server.url, method, path, body);

  it('uses the newest of lastTimestamp, eventTime, series.lastObservedTime and creationTimestamp', () => {
    const old = ago(7200);
    const recent = ago(10);
    assert.equal(lastSeen(event('a', { lastTimestamp: old, eventTime: recent })), Date.parse(recent));
    assert.equal(lastSeen(event('b', { series: { count: 2, lastObservedTime: recent }, lastTimestamp: old })), Date.parse(recent));
    const created = event('c');
    created.metadata.creationTimestamp = old;
    assert.equal(lastSeen(created), Date.parse(old));
  });

  it('the server deletes events once they are older than the TTL', async () => {
    assert.equal((await call('POST', EVENTS, event('short-lived', { lastTimestamp: ago(0) }))).status, 201);
    assert.equal((await call('GET', `${EVENTS}/short-lived`)).status, 200);
    await waitFor('the event deleted within 5 s of a 1 s TTL', async () => (await call('GET', `${EVENTS}/short-lived`)).status === 404, 5000);
  });

  it('a sweep with the default TTL keeps recent and bumped events, and deletes old ones', async () => {
    // A store of its own: the server above sweeps its store with a 1 s TTL.
    const own = await openSqliteStore({ path: join(server.dir, 'sweep.db') });
    const eventDef = findResource('', 'v1', 'events')!;
    const sweeper = new EventTtl(own, eventDef); // 1 h, swept by hand
    const put = (name: string, times: Record<string, unknown>) =>
      own.create(`/registry/events/default/${name}`, {
        ...event(name, times),
        metadata: { name, namespace: 'default', uid: name, creationTimestamp: ago(7300) },
      });
    await put('old', { lastTimestamp: ago(3700) });
    await put('bumped', { firstTimestamp: ago(7200), lastTimestamp: ago(60) });
    await put('new-api', { eventTime: ago(30) });
    assert.equal(await sweeper.sweep(), 1);
    const left = (await own.list({ prefix: '/registry/events/default/' })).items.map((e) => e.metadata.name).sort();
    assert.deepEqual(left, ['bumped', 'new-api']);
    // Two hours later everything has expired.
    assert.equal(await sweeper.sweep(Date.now() + 2 * 3600_000), 2);
    await sweeper.stop();
    await own.close();
  });
});
