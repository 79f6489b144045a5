import assert from 'node:assert/strict';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { before, describe, it } from 'node:test';
import { ApiClient } from './api-client.js';
import { Informer } from './informer.js';
import { resources } from './resources.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';
import { testServing } from '../../test/support/auth/security.js';
import { waitFor } from '../../test/support/wait-for.js';
import { freePort } from '../../test/support/free-port.js';

const bed = useTestServer();
let deadUrl: string;

/** A URL nothing listens on: a port taken, then given back. */
async function closedPort(): Promise<string> {
  return `https://127.0.0.1:${await freePort()}`;
}

before(async () => {
  deadUrl = await closedPort();
});

describe('a client given several servers', () => {
  it('sends requests past a server that refuses connections, and stays on the live one', async () => {
    const client = new ApiClient({ server: `${deadUrl},${bed.server.url}`, namespace: 'default', tls: bed.server.adminTls });
    try {
      const configmaps = client.resource(resources.configmaps, 'default');
      await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'failover-a' } });
      assert.equal((await configmaps.get('failover-a')).metadata.name, 'failover-a');
    } finally {
      client.close();
    }
  });

  it('runs an informer whose watch opens on the second server', async () => {
    const client = new ApiClient({ server: `${deadUrl},${bed.server.url}`, namespace: 'default', tls: bed.server.adminTls });
    const informer = new Informer(client, resources.configmaps, { namespace: 'default' });
    try {
      informer.start();
      await informer.waitForSync();
      await bed.server
        .client()
        .resource(resources.configmaps, 'default')
        .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'failover-b' } });
      await waitFor('condition', () => informer.getByName('default', 'failover-b') !== undefined, 5000);
    } finally {
      await informer.stop();
      client.close();
    }
  });

  it('fails when no server can be reached', async () => {
    const client = new ApiClient({ server: `${deadUrl},${deadUrl}`, namespace: 'default', tls: bed.server.adminTls });
    try {
      await assert.rejects(client.resource(resources.configmaps, 'default').get('x'), /ECONNREFUSED/);
    } finally {
      client.close();
    }
  });

  it('reads from the next server while one answers 503, and sends writes there next', async () => {
    let unavailableHits = 0;
    const unavailable: Server = await servingHttps((_req, res) => {
      unavailableHits++;
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'ServiceUnavailable',
          code: 503,
          message: 'the storage backend is unavailable',
        }),
      );
    });
    await new Promise<void>((resolve) => unavailable.listen(0, '127.0.0.1', resolve));
    const { port } = unavailable.address() as { port: number };
    const client = new ApiClient({ server: `https://127.0.0.1:${port},${bed.server.url}`, namespace: 'default', tls: bed.server.adminTls });
    try {
      const configmaps = client.resource(resources.configmaps, 'default');
      await configmaps.list();
      assert.equal(unavailableHits, 1, 'the read went on to the live server');
      await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'failover-c' } });
      assert.equal(unavailableHits, 1, 'the write went straight to the live server');
    } finally {
      client.close();
      unavailable.close();
    }
  });

  it('does not resend a write that a server answered 503', async () => {
    let hits = 0;
    const unavailable: Server = await servingHttps((_req, res) => {
      hits++;
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'ServiceUnavailable', code: 503 }));
    });
    await new Promise<void>((resolve) => unavailable.listen(0, '127.0.0.1', resolve));
    const { port } = unavailable.address() as { port: number };
    const client = new ApiClient({ server: `https://127.0.0.1:${port},${bed.server.url}`, namespace: 'default', tls: bed.server.adminTls });
    try {
      const configmaps = client.resource(resources.configmaps, 'default');
      await assert.rejects(configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'failover-d' } }), /503|unavailable/i);
      await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'failover-d' } });
      assert.equal(hits, 1);
    } finally {
      client.close();
      unavailable.close();
    }
  });
});

/** An HTTPS server with the test cluster's serving certificate, so clients trust it. */
async function servingHttps(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const { tls } = await testServing();
  return createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
}
