import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from './api-client.js';
import { Informer } from './informer.js';
import { resources } from './resources.js';
import { TestServer, eventually } from './test-server.js';

let server: TestServer;
let deadUrl: string;

/** A URL nothing listens on: a port taken, then given back. */
async function closedPort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

before(async () => {
  server = await TestServer.start();
  deadUrl = await closedPort();
});
after(() => server.close());

describe('a client given several servers', () => {
  it('sends requests past a server that refuses connections, and stays on the live one', async () => {
    const client = new ApiClient(`${deadUrl},${server.url}`);
    try {
      const configmaps = client.resource(resources.configmaps, 'default');
      await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'failover-a' } });
      assert.equal((await configmaps.get('failover-a')).metadata.name, 'failover-a');
    } finally {
      client.close();
    }
  });

  it('runs an informer whose watch opens on the second server', async () => {
    const client = new ApiClient(`${deadUrl},${server.url}`);
    const informer = new Informer(client, resources.configmaps, { namespace: 'default' });
    try {
      informer.start();
      await informer.waitForSync();
      await server.client().resource(resources.configmaps, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'failover-b' } });
      await eventually(() => informer.getByName('default', 'failover-b') !== undefined);
    } finally {
      await informer.stop();
      client.close();
    }
  });

  it('fails when no server can be reached', async () => {
    const client = new ApiClient(`${deadUrl},${deadUrl}`);
    try {
      await assert.rejects(client.resource(resources.configmaps, 'default').get('x'), /ECONNREFUSED/);
    } finally {
      client.close();
    }
  });
});
