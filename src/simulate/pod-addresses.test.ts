import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PodAddresses, blockBits, maxNodesFor } from './pod-addresses.js';

describe('PodAddresses', () => {
  it('gives each node a loopback block and its pods the lowest free addresses', () => {
    const first = new PodAddresses(0, 110);
    assert.equal(first.cidr, '127.64.0.0/24');
    assert.equal(new PodAddresses(300, 110).cidr, '127.65.44.0/24');
    assert.equal(first.addressOf('a'), '127.64.0.1');
    assert.equal(first.addressOf('b'), '127.64.0.2');
    assert.equal(first.addressOf('a'), '127.64.0.1', 'stable per pod');
    first.release('a');
    assert.equal(first.addressOf('c'), '127.64.0.1', 'a released address is reused');
  });

  it('keeps the address a pod already reports when it lies in the block and is free', () => {
    const node = new PodAddresses(1, 110);
    assert.equal(node.addressOf('a', '127.64.1.77'), '127.64.1.77');
    assert.equal(node.addressOf('b', '127.64.1.77'), '127.64.1.1', 'taken: another one');
    assert.equal(node.addressOf('c', '10.0.0.5'), '127.64.1.2', 'outside the block: another one');
  });

  it('grows the block for more pods, and says when the block or the range is full', () => {
    assert.equal(blockBits(110), 8);
    assert.equal(blockBits(300), 9);
    assert.equal(maxNodesFor(110), 192 * 256);
    const tiny = new PodAddresses(0, 254);
    for (let i = 0; i < 254; i++) assert.ok(tiny.addressOf(`p${i}`));
    assert.equal(tiny.addressOf('one-too-many'), undefined);
    assert.throws(() => new PodAddresses(maxNodesFor(110), 110), /no pod address block left/);
  });
});
