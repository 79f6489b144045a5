// Two whole clusters (`drover up` twice, each with its own data dir and port) on one Docker
// Engine, with the same node name and a pod of the same namespace/name in each. Each agent must
// leave the other cluster's containers alone: before clusters had an identity, the second agent
// removed the first one's containers as orphans within seconds and the first made them again.
// The pods are watched for two minutes: no restart, no new container, every container running.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Docker from 'dockerode';
import { ensureDocker, removeNodeObjects } from './support/agent/agent-cluster.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';

const WATCH_MS = 120_000;
const SAMPLE_EVERY_MS = 2_000;
const POD = 'twin';

interface PodSample {
  uid: string;
  phase: string;
  restarts: number;
  containerId: string;
}

async function samplePod(cluster: UpProcess): Promise<PodSample> {
  const out = await kubectl(cluster.kubeconfig, [
    'get',
    'pod',
    POD,
    '-o',
    'jsonpath={.metadata.uid} {.status.phase} {.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].containerID}',
  ]);
  const [uid = '', phase = '', restarts = '', containerId = ''] = out.trim().split(' ');
  return { uid, phase, restarts: Number(restarts), containerId: containerId.replace(/^docker:\/\//, '') };
}

async function runningSample(cluster: UpProcess, name: string): Promise<PodSample> {
  return waitFor(
    `${POD} Running in cluster ${name}`,
    async () => {
      const sample = await samplePod(cluster);
      return sample.phase === 'Running' && sample.containerId !== '' ? sample : undefined;
    },
    60_000,
  );
}

describe('two clusters on one Docker Engine', () => {
  const docker = new Docker();
  const nodeName = `twin-${process.pid}`;
  const clusters: Array<{ name: string; cluster: UpProcess }> = [];

  before(() => {
    requireKubectl();
    ensureDocker();
  });
  after(async () => {
    // Both clusters share the node name, so this removes every container either of them made,
    // whatever state a failure left them in.
    await Promise.all(clusters.map(({ cluster }) => cluster.stop().catch(() => undefined)));
    await removeNodeObjects(nodeName);
  });

  it("run side by side: neither agent touches the other cluster's containers", async () => {
    // Cluster b starts while a's pod runs: a new agent's first orphan scan is at once.
    const first = new Map<string, PodSample>();
    for (const name of ['a', 'b']) {
      const cluster = await startUpProcess(nodeName);
      clusters.push({ name, cluster });
      await kubectl(cluster.kubeconfig, ['run', POD, '--image=drover-test/busybox:1', '--', 'sh', '-c', `echo from cluster ${name}; sleep 3600`]);
      first.set(name, await runningSample(cluster, name));
    }
    const [a, b] = [first.get('a')!, first.get('b')!];
    assert.notEqual(a.uid, b.uid);
    assert.notEqual(a.containerId, b.containerId);

    const deadline = Date.now() + WATCH_MS;
    while (Date.now() < deadline) {
      const elapsed = `${Math.round((WATCH_MS - (deadline - Date.now())) / 1000)} s in`;
      for (const { name, cluster } of clusters) {
        const was = first.get(name)!;
        const now = await samplePod(cluster);
        assert.deepEqual(now, { ...was, restarts: 0 }, `cluster ${name}'s pod changed ${elapsed} (restarted, or its container replaced)`);
        const state = await docker
          .getContainer(now.containerId)
          .inspect()
          .then(
            (i) => i.State.Status,
            () => 'gone',
          );
        assert.equal(state, 'running', `cluster ${name}'s container ${now.containerId.slice(0, 12)} is ${state} ${elapsed}`);
      }
      await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
    }

    // Each cluster's streaming path reaches its own container, not its twin's.
    for (const { name, cluster } of clusters) {
      assert.match(await kubectl(cluster.kubeconfig, ['logs', POD]), new RegExp(`from cluster ${name}\\n`));
    }
    for (const { cluster } of clusters) {
      await kubectlRaw(cluster.kubeconfig, ['delete', 'pod', POD, '--grace-period=1', '--wait=true', '--timeout=60s']);
    }
  });
});
