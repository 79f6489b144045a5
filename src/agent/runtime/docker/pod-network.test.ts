// Address picking against the engine's list of containers: an address handed to a sandbox
// while another pick's list was in flight is not picked again (the list cannot show it).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type Docker from 'dockerode';
import { POD_IP, POD_NETWORK } from './direct-attach.js';
import { PodNetwork, podNetworkName } from './pod-network.js';

const POD_CIDR = '10.42.0.0/16';
const NODE_RANGE = '10.42.1.0/24';

/** An engine whose container list is what `containers` holds when the list is asked for, answered when `answer` is called. */
function slowListEngine() {
  const containers: Docker.ContainerInfo[] = [];
  const pending: Array<() => void> = [];
  const docker = {
    listContainers: () => {
      const snapshot = [...containers];
      return new Promise<Docker.ContainerInfo[]>((resolve) => pending.push(() => resolve(snapshot)));
    },
  } as unknown as Docker;
  const create = (ip: string) =>
    containers.push({ Id: `c-${ip}`, Labels: { [POD_NETWORK]: podNetworkName(POD_CIDR), [POD_IP]: ip } } as unknown as Docker.ContainerInfo);
  const answer = () => pending.shift()!();
  return { docker, create, answer };
}

describe('pod network addresses', () => {
  it('does not hand out an address released to a container the list in flight cannot show', async () => {
    const engine = slowListEngine();
    const network = new PodNetwork(engine.docker, POD_CIDR);
    // A and B pick at once: their reservations keep them apart.
    const a = network.pickAddress(NODE_RANGE);
    const b = network.pickAddress(NODE_RANGE);
    engine.answer(); // A's list: empty
    engine.answer(); // B's list: empty
    const [first, second] = await Promise.all([a, b]);
    assert.notEqual(first, second);
    // The race: C's list is taken before A's and B's sandboxes exist, and answers after their
    // addresses were released (as sandbox.ts releases one: once its container is created).
    const c = network.pickAddress(NODE_RANGE);
    engine.create(first);
    network.release(first);
    engine.create(second);
    network.release(second);
    const d = network.pickAddress(NODE_RANGE);
    engine.answer(); // C's list: without the two sandboxes
    engine.answer(); // D's list: with them
    const [cIp, dIp] = await Promise.all([c, d]);
    assert.ok(![first, second].includes(cIp), `C picked ${cIp}, which went to a sandbox its list did not show`);
    assert.ok(![first, second, cIp].includes(dIp), `D picked ${dIp}`);
  });

  it('hands an address out again once every list begun before its release has answered', async () => {
    const engine = slowListEngine();
    const network = new PodNetwork(engine.docker, POD_CIDR);
    const a = network.pickAddress(NODE_RANGE);
    engine.answer();
    const ip = await a;
    // X's list is in flight when A's sandbox fails to be made and its address is released: X
    // passes the address over (it cannot tell), and Y, begun after, gets it.
    const x = network.pickAddress(NODE_RANGE);
    network.release(ip);
    engine.answer();
    assert.notEqual(await x, ip);
    const y = network.pickAddress(NODE_RANGE);
    engine.answer();
    assert.equal(await y, ip);
  });
});
