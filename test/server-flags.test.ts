// `drover server` flags that change what the API server keeps, checked on a real server process.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient, resources } from '../src/client/index.js';
import { eventually } from './support/cluster-fixture.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

describe('drover server --event-ttl', () => {
  let server: ServerProcess;
  let api: ApiClient;
  before(async () => {
    server = await startServerProcess({ extraArgs: ['--event-ttl', '2', '--no-control-plane'] });
    api = new ApiClient({ server: server.url, namespace: 'default' });
  });
  after(async () => {
    api.close();
    await server.stop();
    await server.cleanup();
  });

  it('deletes an Event once it has not been seen for the TTL, and keeps a fresh one', async () => {
    const events = api.resource(resources.events, 'default');
    const event = (name: string, lastTimestamp: string) => ({
      apiVersion: 'v1', kind: 'Event', metadata: { name },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'Test', message: name, type: 'Normal',
      firstTimestamp: lastTimestamp, lastTimestamp, count: 1,
    });
    const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    await events.create(event('old', now()));
    await eventually(async () => (await events.list()).items.every((e) => e.metadata.name !== 'old'), 10_000, 'the old event expired');
    await events.create(event('fresh', now()));
    assert.deepEqual((await events.list()).items.map((e) => e.metadata.name), ['fresh']);
  });
});
