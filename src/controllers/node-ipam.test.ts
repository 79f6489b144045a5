// Node IPAM against a real API server: each Node gets the lowest free /24 of the pod CIDR from
// the second on, keeps it across restarts of the controller, and gives it back when deleted;
// a full range is said once, with an event on the Node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { resources } from '../client/index.js';
import type { ControllerContext } from './context.js';
import { NodeIpamController } from './node-ipam.js';
import { useControllerTest } from '../../test/support/controllers/controller-test.js';
import { waitFor } from '../../test/support/wait-for.js';

// A /22 holds four /24s; the first is the gateway's, so three Nodes get one.
const POD_CIDR = '10.200.0.0/22';
const ipam = (ctx: ControllerContext) => new NodeIpamController(ctx, POD_CIDR);

describe('node IPAM controller', () => {
  const bed = useControllerTest(ipam);

  const nodes = () => bed.api.resource(resources.nodes);
  const createNode = (name: string, spec: Record<string, unknown> = {}) => nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec });
  const podCidrOf = async (name: string) => {
    const spec = (await nodes().get(name))['spec'] as { podCIDR?: string; podCIDRs?: string[] };
    return spec.podCIDR ? { podCIDR: spec.podCIDR, podCIDRs: spec.podCIDRs } : undefined;
  };
  const eventsAbout = async (name: string) =>
    (await bed.api.resource(resources.events, 'default').list()).items.filter((e: KubeObject) => (e['involvedObject'] as { name?: string }).name === name);

  it('gives a Node the lowest free /24 from the second on, in podCIDR and podCIDRs', async () => {
    await createNode('a');
    assert.deepEqual(await waitFor('a range for a', () => podCidrOf('a')), { podCIDR: '10.200.1.0/24', podCIDRs: ['10.200.1.0/24'] });
  });

  it("leaves a Node's own range alone and counts it as held", async () => {
    await createNode('own', { podCIDR: '10.200.2.0/24' });
    await createNode('b');
    assert.deepEqual(await waitFor('a range for b', () => podCidrOf('b')), { podCIDR: '10.200.3.0/24', podCIDRs: ['10.200.3.0/24'] });
    assert.equal((await podCidrOf('own'))?.podCIDR, '10.200.2.0/24');
  });

  it('says once that the range is full, then gives the Node a range another Node gave back', async () => {
    await createNode('c');
    const [event] = await waitFor('CIDRNotAvailable on c', async () => {
      const found = (await eventsAbout('c')).filter((e) => e['reason'] === 'CIDRNotAvailable');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(event!['message'], 'Node c status is now: CIDRNotAvailable');
    // Once: no further events, and still no range, a little later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = (await eventsAbout('c')).filter((e) => e['reason'] === 'CIDRNotAvailable');
    assert.equal(again.length, 1);
    assert.equal(again[0]!['count'] ?? 1, 1);
    assert.equal(await podCidrOf('c'), undefined);

    await nodes().delete('a');
    assert.equal((await waitFor('a range for c', () => podCidrOf('c')))?.podCIDR, '10.200.1.0/24');
  });

  it('after a restart, hands out no range a Node holds', async () => {
    await bed.manager.stop();
    await bed.startManager(ipam);
    await nodes().delete('b');
    await createNode('d');
    assert.equal((await waitFor('a range for d', () => podCidrOf('d')))?.podCIDR, '10.200.3.0/24');
    const held = await Promise.all(['own', 'c', 'd'].map(async (name) => (await podCidrOf(name))?.podCIDR));
    assert.equal(new Set(held).size, 3, held.join(' '));
  });

  it("refuses to change a Node's podCIDR once set, and a range that is not a CIDR", async () => {
    await assert.rejects(
      nodes().patch('d', 'merge', { spec: { podCIDR: '10.200.9.0/24', podCIDRs: ['10.200.9.0/24'] } }),
      /node updates may not change podCIDR except from "" to valid/,
    );
    await assert.rejects(
      createNode('bad', { podCIDR: 'ten-two-hundred' }),
      /spec\.podCIDRs\[0\]: Invalid value: "ten-two-hundred": must be a valid CIDR value/,
    );
  });
});
