import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeRuntime } from './fake-runtime.js';
import { labelResolver } from './label-resolver.js';

describe('labelResolver', () => {
  it('picks the newest attempt of a container and the one before it for --previous', async () => {
    const fake = new FakeRuntime();
    const pod = { uid: 'u1', name: 'web', namespace: 'ns' };
    fake.addContainer(pod, 'app', 0, new Date(1000));
    fake.addContainer(pod, 'app', 2, new Date(3000));
    fake.addContainer(pod, 'app', 1, new Date(2000));
    fake.addContainer(pod, 'side', 0, new Date(4000));
    const resolved = await labelResolver(fake.asRuntime())('ns', 'web', 'app');
    assert.equal(resolved?.containerId, 'app-u1-2');
    assert.equal(resolved?.previousContainerId, 'app-u1-1');
    assert.equal(resolved?.hostNetwork, undefined);
    assert.equal(await labelResolver(fake.asRuntime())('ns', 'web', 'nope'), undefined);
    assert.equal(await labelResolver(fake.asRuntime())('other', 'web', 'app'), undefined);
  });

  it('means the pod that exists now when a name was reused', async () => {
    const fake = new FakeRuntime();
    fake.addContainer({ uid: 'old', name: 'web', namespace: 'ns' }, 'app', 3, new Date(1000));
    fake.addContainer({ uid: 'new', name: 'web', namespace: 'ns' }, 'app', 0, new Date(5000));
    const resolved = await labelResolver(fake.asRuntime())('ns', 'web', 'app');
    assert.equal(resolved?.containerId, 'app-new-0');
    assert.equal(resolved?.previousContainerId, undefined, "the old pod's container is not this one's past");
  });

  it('gives the running sandbox for pod-level requests, and marks process pods as host-network', async () => {
    const docker = new FakeRuntime();
    const processes = new FakeRuntime('process');
    docker.addSandbox({ uid: 'u1', name: 'web', namespace: 'ns' }, 0);
    docker.addSandbox({ uid: 'u1', name: 'web', namespace: 'ns' }, 1, 'exited');
    processes.addSandbox({ uid: 'u2', name: 'job', namespace: 'ns' }, 0);
    const resolve = labelResolver([docker.asRuntime(), processes.asRuntime()]);
    assert.equal((await resolve('ns', 'web'))?.containerId, 'sandbox-u1-0');
    const job = await resolve('ns', 'job');
    assert.equal(job?.containerId, 'sandbox-u2-0');
    assert.equal(job?.hostNetwork, true);
  });
});
