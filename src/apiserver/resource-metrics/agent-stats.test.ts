import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { ObjectRegistry } from '../registry/object-registry.js';
import { AgentStats } from './agent-stats.js';

const node = (name: string, port: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } },
});

describe("the API server's reads of agents' figures", () => {
  let answering: Server;
  let silent: Server;
  let calls = 0;
  let nodes: KubeObject[] = [];
  // Only the nodes' collection is read.
  const registry = { collection: () => ({ list: async () => ({ items: nodes, revision: 1 }) }) } as unknown as ObjectRegistry;

  before(async () => {
    answering = createServer((req, res) => {
      calls++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ node: { nodeName: 'up' }, pods: [] }));
    });
    // Takes the request and never answers, as a hung agent would.
    silent = createServer(() => undefined);
    await Promise.all([answering, silent].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))));
    nodes = [
      node('up', (answering.address() as AddressInfo).port),
      node('hung', (silent.address() as AddressInfo).port),
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'no-address' } },
    ];
  });
  after(() => {
    answering.closeAllConnections();
    silent.closeAllConnections();
    answering.close();
    silent.close();
  });

  it('leaves out a node that does not answer in time, and serves one fan-out to many readers', async () => {
    const stats = new AgentStats(registry, { timeoutMs: 500, cacheMs: 60_000 });
    const [first, second] = await Promise.all([stats.summaries(), stats.summaries()]);
    assert.deepEqual(
      first.map((s) => s.summary.node.nodeName),
      ['up'],
    );
    assert.equal(first, second);
    await stats.summaries();
    assert.equal(calls, 1);
  });
});
