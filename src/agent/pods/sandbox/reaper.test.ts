import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../../client/logger.js';
import { SandboxReaper, leftoversMayWait } from './reaper.js';
import type { Pod } from '../../../api/core/index.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('sandbox reaper', () => {
  it('removes at once while no sandbox starts', async () => {
    const reaper = new SandboxReaper(silentLogger);
    const removed: string[] = [];
    reaper.defer('a', async () => void removed.push('a'));
    await sleep(1);
    assert.deepEqual(removed, ['a']);
  });

  it('holds removals back while a sandbox starts, and removes them when it has', async () => {
    const reaper = new SandboxReaper(silentLogger);
    const start = deferred();
    reaper.sandboxStarting(start.promise);
    const removed: string[] = [];
    reaper.defer('a', async () => void removed.push('a'));
    reaper.defer('b', async () => void removed.push('b'));
    await sleep(20);
    assert.deepEqual(removed, []);
    start.resolve();
    await sleep(1);
    assert.deepEqual(removed, ['a', 'b']);
  });

  it('a failed start releases the hold as well', async () => {
    const reaper = new SandboxReaper(silentLogger);
    const failing = Promise.reject(new Error('port taken'));
    reaper.sandboxStarting(failing);
    let removed = false;
    reaper.defer('a', async () => void (removed = true));
    await sleep(1);
    assert.equal(removed, true);
  });

  it('removes what waited its longest even while sandboxes keep starting', async () => {
    const reaper = new SandboxReaper(silentLogger, 30);
    reaper.sandboxStarting(deferred().promise);
    let removedAt = 0;
    const since = Date.now();
    reaper.defer('a', async () => void (removedAt = Date.now()));
    await sleep(80);
    assert.ok(removedAt - since >= 29, `removed after ${removedAt - since} ms`);
  });

  it('takes a pod already waiting once, and drains what waits when the agent stops', async () => {
    const reaper = new SandboxReaper(silentLogger);
    reaper.sandboxStarting(deferred().promise);
    const removed: string[] = [];
    reaper.defer('a', async () => void removed.push('first'));
    reaper.defer('a', async () => void removed.push('second'));
    reaper.defer('b', async () => {
      await sleep(10);
      removed.push('b');
    });
    await reaper.drain();
    assert.deepEqual(removed, ['first', 'b']);
  });

  it('a failed removal is logged and does not stop the others', async () => {
    const reaper = new SandboxReaper(silentLogger);
    const removed: string[] = [];
    reaper.defer('a', () => Promise.reject(new Error('engine gone')));
    reaper.defer('b', async () => void removed.push('b'));
    await reaper.drain();
    assert.deepEqual(removed, ['b']);
  });

  it('lets no sandbox that publishes hostPorts or shares the host network wait', () => {
    const pod = (spec: Partial<Pod['spec']>) => ({ metadata: {}, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } }) as Pod;
    assert.equal(leftoversMayWait(pod({})), true);
    assert.equal(leftoversMayWait(pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }] })), true);
    assert.equal(leftoversMayWait(pod({ containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, hostPort: 8080 }] }] })), false);
    assert.equal(leftoversMayWait(pod({ initContainers: [{ name: 'i', image: 'i', ports: [{ containerPort: 53, hostPort: 53 }] }] })), false);
    assert.equal(leftoversMayWait(pod({ hostNetwork: true })), false);
  });
});
