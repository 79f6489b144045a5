import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { labelResolver } from '../../../test/support/agent/label-resolver.js';
import type { PodInventory } from './pod-inventory.js';
import { startStreamingServer, type StreamingServer } from './streaming-server.js';

describe('streaming server: the pod inventory the data checker reads', () => {
  let server: StreamingServer;
  const cleaned: string[] = [];
  const inventory: PodInventory = {
    nodeName: 'n1',
    list: async () => [
      { uid: 'a', state: 'running' },
      { uid: 'b', state: 'unknown' },
    ],
    cleanUp: (uid) => {
      if (uid === 'a') return 'known';
      cleaned.push(uid);
      return 'queued';
    },
  };

  before(async () => {
    server = await startStreamingServer({ port: 0, resolver: labelResolver([]), pods: inventory });
  });

  after(() => server.close());

  it("lists the pods of the node's containers", async () => {
    const res = await fetch(`${server.url}/pods`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      node: 'n1',
      pods: [
        { uid: 'a', state: 'running' },
        { uid: 'b', state: 'unknown' },
      ],
    });
  });

  it('cleans up an unknown pod, and refuses one the agent has', async () => {
    assert.equal((await fetch(`${server.url}/pods/b`, { method: 'DELETE' })).status, 202);
    assert.deepEqual(cleaned, ['b']);
    const refused = await fetch(`${server.url}/pods/a`, { method: 'DELETE' });
    assert.equal(refused.status, 409);
    assert.match(((await refused.json()) as { message: string }).message, /still has pod a/);
    assert.equal((await fetch(`${server.url}/pods/b`, { method: 'POST' })).status, 405);
  });
});
