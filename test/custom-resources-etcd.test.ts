// Two API servers on one etcd: each learns CustomResourceDefinitions by watching them, so a CRD
// applied through one is served by the other within moments, and a CRD deleted through the
// other stops being served by both.
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEtcd, type EtcdMember } from './support/storage/etcd-member.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { WIDGET_CRD, widgetYaml } from './fixtures/widget-crd.js';
import { waitFor } from './support/wait-for.js';

/** Servers on one etcd share a token: it seals the cluster CA they all serve with. */
const ETCD_TOKEN = 'custom-resources-etcd-test-token';

describe('custom resources on two API servers sharing etcd', () => {
  let etcd: EtcdMember;
  let first: ServerProcess;
  let second: ServerProcess;
  const start = () => startServerProcess({ extraArgs: ['--etcd-endpoints', etcd.endpoint, '--token', ETCD_TOKEN, '--no-control-plane'] });
  /** kubectl with a discovery cache of its own, so it sees what the server serves now. */
  const k = async (server: ServerProcess, args: string[], input?: string) => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
    return kubectlRaw(server.kubeconfig, ['--cache-dir', cacheDir, ...args], input === undefined ? {} : { input });
  };

  before(async () => {
    requireKubectl();
    etcd = await startEtcd();
    first = await start();
    second = await start();
  });
  after(async () => {
    for (const server of [first, second]) {
      await server?.stop();
      await server?.cleanup();
    }
    await etcd?.cleanup();
  });

  it('a CRD applied through one server is served by the other; objects written through either are read through both', async () => {
    await kubectl(first.kubeconfig, ['apply', '-f', '-'], { input: WIDGET_CRD });
    await kubectl(first.kubeconfig, ['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.shop.example.com']);
    await waitFor('the second server to serve widgets', async () => (await k(second, ['get', 'wd'])).code === 0, 10_000);
    const created = await k(second, ['apply', '-f', '-'], widgetYaml('shared', 'image: busybox:1', 'v1beta1'));
    assert.equal(created.code, 0, created.stderr);
    const read = await k(first, ['get', 'widget', 'shared', '-o', 'jsonpath={.apiVersion} {.spec.size}']);
    assert.equal(read.stdout, 'shop.example.com/v1 medium');
    assert.match((await k(first, ['get', 'wd'])).stdout, /^shared\s+1\s+medium\s/m);
  });

  it('a CRD deleted through one server takes its objects and stops being served by both', async () => {
    const deleted = await k(second, ['delete', 'crd', 'widgets.shop.example.com', '--timeout=30s']);
    assert.equal(deleted.code, 0, deleted.stderr);
    for (const server of [first, second]) {
      await waitFor('widgets no longer served', async () => (await k(server, ['get', 'wd'])).code !== 0, 10_000);
      assert.doesNotMatch((await k(server, ['api-resources'])).stdout, /widgets/);
    }
    // Made again, it holds nothing: the instance went with the CRD.
    await kubectl(first.kubeconfig, ['apply', '-f', '-'], { input: WIDGET_CRD });
    await kubectl(first.kubeconfig, ['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.shop.example.com']);
    await waitFor('the second server to serve widgets again', async () => (await k(second, ['get', 'wd', '-o', 'name'])).code === 0, 10_000);
    assert.equal((await k(second, ['get', 'wd', '-A', '-o', 'name'])).stdout.trim(), '');
  });
});
