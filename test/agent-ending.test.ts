// A pod being deleted holds none of the agent's pod workers while it ends: with one worker, a
// pod whose process ignores SIGTERM (`sleep` as PID 1) spends its whole grace period ending,
// and a pod created meanwhile starts within that time, not after it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { resources } from '../src/client/index.js';
import { startAgent, type Agent } from '../src/agent/index.js';
import { deleteAllPods, ensureDocker, podSpec, startTestCluster, waitForPod, waitForPodGone, type TestCluster } from './support/agent/agent-cluster.js';
import { waitFor } from './support/wait-for.js';

/** Long enough that a start which waited for it cannot pass for one that did not. */
const GRACE_S = 20;

let cluster: TestCluster;

async function events(name: string): Promise<string[]> {
  const list = await cluster.api.resource(resources.events, 'default').list();
  return list.items.filter((e) => (e['involvedObject'] as { name?: string }).name === name).map((e) => String(e['reason']));
}
let agent: Agent;

describe('pods ending off the workers', () => {
  before(async () => {
    ensureDocker();
    cluster = await startTestCluster('agent-ending');
    agent = await startAgent({
      kubeconfig: cluster.kubeconfig,
      nodeName: cluster.nodeName,
      dataDir: `${cluster.dir}/agent`,
      serviceProxy: false,
      workers: 1,
    });
  });

  after(async () => {
    if (cluster && agent) await deleteAllPods(cluster, 60_000).catch((error: unknown) => console.error(error));
    await agent?.close();
    await cluster?.close();
  });

  test('a pod starts while another ends through its grace period', async () => {
    await cluster.pods.create(
      podSpec('slow-to-end', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'] }], { terminationGracePeriodSeconds: GRACE_S }),
    );
    await waitForPod(cluster, 'slow-to-end', 'Running', (p) => p.status?.phase === 'Running');
    const deletedAt = Date.now();
    await cluster.pods.delete('slow-to-end');
    // The agent has begun ending it: it sent the SIGTERM that `sleep` ignores (its one worker
    // would be in the grace period now).
    await waitFor('the old pod to be stopped', async () => ((await events('slow-to-end')).includes('Killing') ? true : undefined), 10_000);
    await cluster.pods.create(podSpec('starts-meanwhile', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'] }]));
    await waitForPod(cluster, 'starts-meanwhile', 'Running', (p) => p.status?.phase === 'Running', 30_000);
    const runningAfterS = (Date.now() - deletedAt) / 1000;
    assert.ok(runningAfterS < GRACE_S - 5, `the new pod ran ${runningAfterS.toFixed(1)} s after the old one was deleted: it waited for the grace period`);
    // The old pod still ends: stopped at the end of its grace period, then removed from the API.
    await waitForPodGone(cluster, 'slow-to-end', (GRACE_S + 20) * 1000);
    assert.ok(Date.now() - deletedAt >= (GRACE_S - 1) * 1000, 'the old pod had its grace period');
  });
});
