// Clients that ask for a large list and then do not read it must cost the server a bounded
// amount of memory: it produces the response only as the socket takes it.
import { fetchWithTls } from './support/client/raw-request.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pausedGet } from './support/raw-http.js';
import { serverRss, startServerProcess, type ServerProcess } from './support/server-process.js';

const NAMESPACE = 'slow-readers';
const OBJECTS = 400;
/** 400 ConfigMaps of 25 KB: a 10 MB list that `limit=500` returns as one page. */
const VALUE_BYTES = 25_000;
const CLIENTS = 20;

let server: ServerProcess;

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const init = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  return fetchWithTls(`${server.url}${path}`, server.tls, init);
}

describe('slow readers', () => {
  before(async () => {
    server = await startServerProcess({ extraArgs: ['--no-control-plane'] });
    const ns = await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    assert.equal(ns.status, 201);
    const data = { blob: 'x'.repeat(VALUE_BYTES) };
    for (let i = 0; i < OBJECTS; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const res = await call('POST', `/api/v1/namespaces/${NAMESPACE}/configmaps`, {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i + j}` },
            data,
          });
          assert.equal(res.status, 201, await res.text());
        }),
      );
    }
  });
  after(async () => {
    await server?.stop();
    await server?.cleanup();
  });

  /** How much the server's RSS grows while CLIENTS clients GET `path` and do not read. */
  async function growthWithNonReaders(path: string): Promise<number> {
    // A list first, so that the code paths and SQLite's page cache are warm in the baseline.
    const warm = await call('GET', `/api/v1/namespaces/${NAMESPACE}/configmaps?limit=500`);
    // Every namespace also holds the cluster CA's ConfigMap, kube-root-ca.crt.
    assert.equal(((await warm.json()) as { items: unknown[] }).items.length, OBJECTS + 1);
    const baseline = serverRss(server);
    const sockets = await Promise.all(Array.from({ length: CLIENTS }, () => pausedGet(server.url, server.tls, path)));
    try {
      let peak = baseline;
      for (let i = 0; i < 30; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        peak = Math.max(peak, serverRss(server));
      }
      return (peak - baseline) / 2 ** 20;
    } finally {
      sockets.forEach((socket) => socket.destroy());
      // And the server still answers everyone else.
      const res = await call('GET', `/api/v1/namespaces/${NAMESPACE}/configmaps/cm-0`);
      assert.equal(res.status, 200);
    }
  }

  // Buffering every response would hold 20 × 10 MB (less what the kernel's socket buffers take:
  // +206 MB measured); producing as the sockets drain holds a page or so per client (+9 MB).
  it(`${CLIENTS} clients that do not read a 10 MB list page grow the server's RSS by a bounded amount`, async () => {
    const grownMb = await growthWithNonReaders(`/api/v1/namespaces/${NAMESPACE}/configmaps?limit=500`);
    assert.ok(grownMb < 60, `server RSS grew by ${grownMb.toFixed(0)} MB with ${CLIENTS} non-reading clients`);
  });

  it(`${CLIENTS} watchers that do not read the initial 10 MB of objects grow the server's RSS by a bounded amount`, async () => {
    const grownMb = await growthWithNonReaders(`/api/v1/namespaces/${NAMESPACE}/configmaps?watch=1`);
    assert.ok(grownMb < 60, `server RSS grew by ${grownMb.toFixed(0)} MB with ${CLIENTS} non-reading watchers`);
  });
});
