// Issue 15: on an overloaded server on etcd the ReplicaSets stopped creating pods. What a user
// sees, with real processes: a `drover server` on a real etcd member and the real kubectl.
//   - etcd stops answering (SIGSTOP) while a ReplicaSet creates its pods: once it answers
//     again the set reaches its size, with no extra pods.
//   - every request of the controller-manager takes 2.5 s (a relay that holds each one, as a
//     long queue on a busy server does): the farm keeps its shards at the default timing (renew
//     deadline 10 s, a round every 2 s) and the set reaches its size. The farm's rounds used to
//     make five round trips between two renewals and two for the renewal itself, so every
//     renewal landed after its deadline and the controllers owned their keys a few seconds in
//     every twenty; on the overloaded server the shards lapsed about once a round.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient, resources, type Lease } from '../src/client/index.js';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { startSlowLink, type SlowLink } from './support/slow-link.js';
import { startEtcd, type EtcdMember } from './support/storage/etcd-member.js';
import { waitFor } from './support/wait-for.js';

const LAPSED = 'renewed shards after their deadline had passed';

function replicaSet(name: string, replicas: number): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '3600'] }] } },
    },
  });
}

describe('ReplicaSets on an overloaded server on etcd', { timeout: 300_000 }, () => {
  let etcd: EtcdMember;
  const servers: ServerProcess[] = [];
  const processes: DroverProcess[] = [];
  const clients: ApiClient[] = [];
  const links: SlowLink[] = [];

  before(async () => {
    requireKubectl();
    etcd = await startEtcd();
  });
  after(async () => {
    for (const client of clients) client.close();
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await Promise.all(links.map((link) => link.close()));
    for (const server of servers) {
      await server.stop();
      await server.cleanup();
    }
    etcd?.resume();
    await etcd?.cleanup();
  });

  /** A server of its own on the shared etcd member (its own key prefix). */
  async function server(prefix: string, extraArgs: string[] = []): Promise<{ server: ServerProcess; api: ApiClient }> {
    const started = await startServerProcess({
      extraArgs: ['--etcd-endpoints', etcd.endpoint, '--etcd-prefix', `/${prefix}`, '--etcd-request-timeout', '2', ...extraArgs],
    });
    servers.push(started);
    const api = new ApiClient({ server: started.url, namespace: 'default', tls: started.tls });
    clients.push(api);
    return { server: started, api };
  }

  const podsOf = async (api: ApiClient, name: string) =>
    (await api.resource(resources.pods, 'default').list({ labelSelector: `app=${name}` })).items.filter((pod) => !pod.metadata.deletionTimestamp).length;
  const statusReplicas = async (api: ApiClient, name: string) =>
    ((await api.resource(resources.replicasets, 'default').get(name))['status'] as { replicas?: number } | undefined)?.replicas ?? 0;

  it('reaches its size once etcd answers again after a pause in the middle of its creations', async () => {
    const { server: paused, api } = await server('paused');
    await kubectl(paused.kubeconfig, ['apply', '-f', '-'], { input: replicaSet('through-pause', 60) });
    await waitFor('the first pods', async () => ((await podsOf(api, 'through-pause')) >= 5 ? true : undefined), 30_000);
    etcd.pause();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    etcd.resume();
    await waitFor('60 pods, counted by the set', async () => ((await statusReplicas(api, 'through-pause')) === 60 ? true : undefined), 120_000);
    assert.equal(await podsOf(api, 'through-pause'), 60, 'no extra pods');
  });

  it('reaches its size while each of its controllers requests takes 2.5 s, the farm keeping its shards', async () => {
    const { server: quiet, api } = await server('slow', ['--no-control-plane']);
    const link = await startSlowLink(quiet.url, 2_500);
    links.push(link);
    const manager = await startDroverProcess(
      ['controller-manager', '--kubeconfig', quiet.kubeconfig, '--server', link.url, '--identity', 'slow-cm'],
      'running',
      120_000,
    );
    processes.push(manager);
    // Its first rounds open a connection per shard, each TLS handshake held too: they may lapse
    // once. What counts is every round after two renewals of its member Lease.
    const renewals = new Set<string>();
    await waitFor(
      'two renewals of the member Lease',
      async () => {
        const lease = await api
          .resource<Lease>(resources.leases, 'kube-system')
          .get('drover-controllers-member-slow-cm')
          .catch(() => undefined);
        if (lease?.spec?.renewTime) renewals.add(lease.spec.renewTime);
        return renewals.size >= 3 ? true : undefined;
      },
      60_000,
    );
    const settled = manager.output().length;
    await kubectl(quiet.kubeconfig, ['apply', '-f', '-'], { input: replicaSet('through-slow-link', 12) });
    await waitFor('12 pods, counted by the set', async () => ((await statusReplicas(api, 'through-slow-link')) === 12 ? true : undefined), 180_000);
    assert.equal(await podsOf(api, 'through-slow-link'), 12, 'no extra pods');
    const lapses = manager
      .output()
      .slice(settled)
      .split('\n')
      .filter((line) => line.includes(LAPSED));
    assert.deepEqual(lapses, [], 'the shards never lapsed once the farm had settled');
  });
});
