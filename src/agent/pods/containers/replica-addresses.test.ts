import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiStatusError, type ApiClient } from '../../../client/index.js';
import { ReplicaNotBoundError, resolveReplicaAddresses } from './replica-addresses.js';
import type { Pod } from '../../../api/core/index.js';

function fakeApi(pods: Record<string, { nodeName?: string; job?: string; podIP?: string }>, nodes: Record<string, string>): { api: ApiClient; gets: string[] } {
  const gets: string[] = [];
  const api = {
    resource: (ref: { plural: string }) => ({
      get: async (name: string) => {
        gets.push(`${ref.plural}/${name}`);
        if (ref.plural === 'nodes')
          return {
            metadata: { name },
            status: {
              addresses: [
                { type: 'Hostname', address: name },
                { type: 'InternalIP', address: nodes[name] },
              ],
            },
          };
        const pod = pods[name];
        if (!pod)
          throw new ApiStatusError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' } as never);
        return {
          metadata: { name, labels: { 'training.kubeflow.org/job-name': pod.job ?? 'tj' } },
          spec: { nodeName: pod.nodeName },
          status: { podIP: pod.podIP },
        };
      },
    }),
  } as unknown as ApiClient;
  return { api, gets };
}

function pod(spec: Partial<Pod['spec']> = { runtimeClassName: 'process' }, job = 'tj'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'tj-worker-0', namespace: 'ml', labels: { 'training.kubeflow.org/job-name': job } },
    spec: { containers: [], ...spec },
  } as Pod;
}

describe('replica addresses of training pods', () => {
  it('MASTER_ADDR and the TF_CONFIG hosts become the InternalIP of the node each replica is bound to', async () => {
    const { api } = fakeApi({ 'tj-master-0': { nodeName: 'n1' }, 'tj-worker-0': { nodeName: 'n2' } }, { n1: '127.0.0.2', n2: '127.0.0.3' });
    const tf = JSON.stringify({
      cluster: { worker: ['tj-worker-0.ml.svc:20001'], chief: { 0: 'tj-master-0.ml.svc:20000' } },
      task: { type: 'worker', index: 0 },
    });
    const env = await resolveReplicaAddresses(api, pod(), {
      MASTER_ADDR: 'tj-master-0',
      PET_MASTER_ADDR: 'tj-master-0',
      MASTER_PORT: '20000',
      TF_CONFIG: tf,
      OTHER: 'tj-master-0',
    });
    assert.equal(env['MASTER_ADDR'], '127.0.0.2');
    assert.equal(env['PET_MASTER_ADDR'], '127.0.0.2');
    assert.equal(env['OTHER'], 'tj-master-0', 'only the training variables are rewritten');
    assert.deepEqual(JSON.parse(env['TF_CONFIG']!).cluster, { worker: ['127.0.0.3:20001'], chief: { 0: '127.0.0.2:20000' } });
  });

  it('waits while the named replica is not bound (or does not exist yet)', async () => {
    const { api } = fakeApi({ 'tj-master-0': {} }, {});
    await assert.rejects(resolveReplicaAddresses(api, pod(), { MASTER_ADDR: 'tj-master-0' }), ReplicaNotBoundError);
    await assert.rejects(resolveReplicaAddresses(api, pod(), { MASTER_ADDR: 'tj-master-1' }), ReplicaNotBoundError);
  });

  it("gives pod-network replicas the named replica's pod IP (their own sandbox IP for themselves), once it has one", async () => {
    const { api } = fakeApi({ 'tj-master-0': { nodeName: 'n1', podIP: '172.17.0.5' }, 'tj-worker-1': { nodeName: 'n1' } }, { n1: '127.0.0.2' });
    const tf = JSON.stringify({ cluster: { chief: ['tj-master-0.ml.svc:2222'], worker: ['tj-worker-0.ml.svc:2222'] }, task: { type: 'worker', index: 0 } });
    const env = await resolveReplicaAddresses(api, pod({}), { MASTER_ADDR: 'tj-master-0', TF_CONFIG: tf }, '172.17.0.9');
    assert.equal(env['MASTER_ADDR'], '172.17.0.5');
    assert.deepEqual(JSON.parse(env['TF_CONFIG']!).cluster, { chief: ['172.17.0.5:2222'], worker: ['172.17.0.9:2222'] });
    await assert.rejects(resolveReplicaAddresses(api, pod({}), { MASTER_ADDR: 'tj-worker-1' }, '172.17.0.9'), ReplicaNotBoundError, 'no pod IP yet');
  });

  it("leaves pods of no job and other jobs' names alone", async () => {
    const { api, gets } = fakeApi({ 'other-master-0': { nodeName: 'n1', job: 'other' } }, { n1: '127.0.0.2' });
    const env = { MASTER_ADDR: 'tj-master-0' };
    assert.deepEqual(await resolveReplicaAddresses(api, { ...pod(), metadata: { name: 'x', namespace: 'ml' } }, env), env);
    assert.deepEqual(await resolveReplicaAddresses(api, pod(), { MASTER_ADDR: 'somewhere.example' }), { MASTER_ADDR: 'somewhere.example' });
    assert.deepEqual(gets, []);
    assert.deepEqual(await resolveReplicaAddresses(api, pod({ hostNetwork: true }), { MASTER_ADDR: '10.1.2.3' }), { MASTER_ADDR: '10.1.2.3' });
  });
});
