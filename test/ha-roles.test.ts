// Master and standby outside `drover server`: two `drover scheduler` processes against one
// server schedule through whichever holds kube-system/kube-scheduler, and the other takes over
// after a kill -9; `drover controller-manager` runs the node lifecycle controller when no server
// does (a server with --no-control-plane).
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { ApiClient, resources, type Lease } from '../src/client/index.js';
import { pendingPod, readyNode } from './fixtures/nodes.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

describe('leader roles in separate processes', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let api: ApiClient;
  const processes: DroverProcess[] = [];

  before(async () => {
    server = await startServerProcess({ extraArgs: ['--no-control-plane'] });
    api = new ApiClient({ server: server.url, namespace: 'default', tls: server.tls });
  });
  after(async () => {
    api?.close();
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await server?.stop();
    await server?.cleanup();
  });

  const holder = async (name: string) => (await api.resource<Lease>(resources.leases, 'kube-system').get(name)).spec?.holderIdentity;
  const nodeOf = async (pod: string) => ((await api.resource(resources.pods, 'default').get(pod))['spec'] as { nodeName?: string }).nodeName;

  it('schedules through one of two schedulers, and through the other after a kill -9', async () => {
    for (let i = 0; i < 2; i++) processes.push(await startDroverProcess(['scheduler', '--kubeconfig', server.kubeconfig], 'running'));
    await api.resource(resources.nodes).create(readyNode('roles-node'));
    await api.resource(resources.pods, 'default').create(pendingPod('before'));
    assert.equal(await waitFor('the first pod bound', () => nodeOf('before'), 15_000), 'roles-node');
    const leaderIdentity = await waitFor('a scheduler leader', async () => (await holder('kube-scheduler')) || undefined, 5000);
    const leader = processes.find((p) => leaderIdentity === `${hostname()}-${p.child.pid}`);
    assert.ok(leader, `the leader ${leaderIdentity} is one of the two`);
    const killedAt = Date.now();
    await leader.stop('SIGKILL');
    await api.resource(resources.pods, 'default').create(pendingPod('after'));
    assert.equal(await waitFor('the second pod bound', () => nodeOf('after'), 15_000), 'roles-node');
    const boundMs = Date.now() - killedAt;
    console.log(`standby scheduler bound a pod ${boundMs} ms after the leader's kill -9`);
    assert.notEqual(await holder('kube-scheduler'), leaderIdentity);
    assert.ok(boundMs <= 6000, `bound within 6 s of the kill (lease 3 s): ${boundMs} ms`);
  });

  it('runs the node lifecycle controller in drover controller-manager when no server runs it', async () => {
    processes.push(await startDroverProcess(['controller-manager', '--kubeconfig', server.kubeconfig, '--identity', 'roles-cm'], 'running'));
    assert.equal(
      await waitFor('the node lifecycle Lease', async () => ((await holder('drover-node-lifecycle')) === 'roles-cm' ? 'roles-cm' : undefined), 10_000),
      'roles-cm',
    );
  });
});
