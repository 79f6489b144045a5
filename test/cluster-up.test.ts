// The README's path, end to end: `drover up`, then kubectl runs a pod, reads its logs, execs
// into it, and drains the node.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';

describe('drover up', () => {
  let cluster: UpProcess;
  const k = (...args: string[]) => kubectl(cluster.kubeconfig, args);

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startUpProcess(`up-${process.pid}`);
  });
  after(async () => {
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
  });

  it('registers this machine as a Ready node', async () => {
    const status = await waitFor(
      'the node to be Ready',
      async () => {
        const ready = await k('get', 'node', cluster.nodeName, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}');
        return ready === 'True' ? ready : undefined;
      },
      20_000,
    );
    assert.equal(status, 'True');
  });

  it('runs a pod that kubectl can read logs from and exec into', async () => {
    await k('run', 'hello', '--image=drover-test/busybox:1', '--', 'sh', '-c', 'echo hello from drover; sleep 3600');
    await waitFor('hello Running', async () => (await k('get', 'pod', 'hello', '-o', 'jsonpath={.status.phase}')) === 'Running', 30_000);
    assert.equal(await k('get', 'pod', 'hello', '-o', 'jsonpath={.spec.nodeName}'), cluster.nodeName);
    await waitFor('the log line', async () => (await k('logs', 'hello')).includes('hello from drover'), 10_000);
    assert.equal((await k('exec', 'hello', '--', 'cat', '/VERSION')).trim().length > 0, true);
  });

  it('drains the node: cordoned, and its pods evicted', async () => {
    await k('drain', cluster.nodeName, '--force', '--grace-period=1', '--timeout=60s');
    assert.equal(await k('get', 'node', cluster.nodeName, '-o', 'jsonpath={.spec.unschedulable}'), 'true');
    await waitFor('hello to be gone', async () => (await kubectlRaw(cluster.kubeconfig, ['get', 'pod', 'hello'])).code !== 0, 30_000);
    await k('uncordon', cluster.nodeName);
  });
});
