import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResolveError } from '../../../src/agent/streaming/resolver.js';
import { FakeRuntime } from './fake-runtime.js';
import { labelResolver } from './label-resolver.js';

/** A ResolveError with this HTTP code and message. */
const resolveError = (code: number, message: RegExp) => (error: unknown) => error instanceof ResolveError && error.code === code && message.test(error.message);

describe('labelResolver', () => {
  it('picks the newest attempt of a container and the one before it for --previous', async () => {
    const fake = new FakeRuntime();
    const pod = { uid: 'u1', name: 'web', namespace: 'ns' };
    fake.addSandbox(pod, 0);
    fake.addContainer(pod, 'app', 0, new Date(1000));
    fake.addContainer(pod, 'app', 2, new Date(3000));
    fake.addContainer(pod, 'app', 1, new Date(2000));
    fake.addContainer(pod, 'side', 0, new Date(4000));
    const resolver = labelResolver(fake.asRuntime());
    const resolved = await resolver.resolve('ns', 'web', 'app');
    assert.equal(resolved.containerId, 'app-u1-2');
    assert.equal(resolved.previousContainerId, 'app-u1-1');
    assert.equal(resolved.sandboxId, 'sandbox-u1-0');
    assert.equal(resolved.dialDirect, false);
    const previous = await resolver.resolve('ns', 'web', 'app', { previous: true });
    assert.equal(previous.containerId, 'app-u1-1');
    assert.equal(previous.previousContainerId, 'app-u1-0');
    await assert.rejects(
      resolver.resolve('ns', 'web', 'side', { previous: true }),
      resolveError(400, /previous terminated container "side" in pod "web" not found/),
    );
    await assert.rejects(resolver.resolve('ns', 'web', 'nope'), resolveError(404, /container "nope" not found in pod "web"/));
    await assert.rejects(resolver.resolve('other', 'web', 'app'), resolveError(404, /container "app" not found in pod "web"/));
  });

  it('means the pod that exists now when a name was reused', async () => {
    const fake = new FakeRuntime();
    fake.addContainer({ uid: 'old', name: 'web', namespace: 'ns' }, 'app', 3, new Date(1000));
    fake.addContainer({ uid: 'new', name: 'web', namespace: 'ns' }, 'app', 0, new Date(5000));
    const resolved = await labelResolver(fake.asRuntime()).resolve('ns', 'web', 'app');
    assert.equal(resolved.containerId, 'app-new-0');
    assert.equal(resolved.previousContainerId, undefined, "the old pod's container is not this one's past");
  });

  it('gives the running sandbox for pod-level requests, and marks process pods as dialled directly', async () => {
    const docker = new FakeRuntime();
    const processes = new FakeRuntime('process');
    docker.addSandbox({ uid: 'u1', name: 'web', namespace: 'ns' }, 0);
    docker.addSandbox({ uid: 'u1', name: 'web', namespace: 'ns' }, 1, 'exited');
    processes.addSandbox({ uid: 'u2', name: 'job', namespace: 'ns' }, 0);
    const resolver = labelResolver([docker.asRuntime(), processes.asRuntime()]);
    const web = await resolver.resolveSandbox('ns', 'web');
    assert.equal(web.sandboxId, 'sandbox-u1-0');
    assert.equal(web.dialDirect, false);
    const job = await resolver.resolveSandbox('ns', 'job');
    assert.equal(job.sandboxId, 'sandbox-u2-0');
    assert.equal(job.dialDirect, true);
    await assert.rejects(resolver.resolveSandbox('ns', 'nothing'), resolveError(404, /pods "nothing" not found/));
  });
});
