// Training jobs end to end on `drover up` with the real kubectl and real host processes: the
// PyTorchJob of examples/pytorchjob-process.yaml (1 master, 3 workers) trains a small model over
// TCP, all-reducing gradients through the master, and every replica ends with the same loss;
// the TFJob of examples/tfjob-process.yaml (chief, ps, 2 workers) checks TF_CONFIG by having
// every replica listen on its own address and dial every other. Both run at once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { finalLosses, startTrainingCluster, type TrainingCluster } from './support/training-cluster.js';
import { REPO_ROOT } from './support/repo.js';
import { waitFor } from './support/wait-for.js';

describe('PyTorchJob and TFJob as host processes', { concurrency: true, timeout: 120_000 }, () => {
  let c: TrainingCluster;

  before(async () => {
    c = await startTrainingCluster('training');
    await c.k(['apply', '-f', '-'], readFileSync(resolve(REPO_ROOT, 'examples/pytorchjob-process.yaml'), 'utf8'));
    await c.k(['apply', '-f', '-'], readFileSync(resolve(REPO_ROOT, 'examples/tfjob-process.yaml'), 'utf8'));
  });

  after(async () => {
    await c?.stop();
  });

  it('a PyTorchJob of 1 master and 3 workers trains together and reaches Succeeded', async () => {
    const started = Date.now();
    await c.k(['wait', '--for=condition=Succeeded', 'pytorchjob/linreg', '--timeout=90s'], undefined, 100_000);
    console.log(`# PyTorchJob apply → Succeeded: ${Date.now() - started} ms`);
    assert.match(await c.k(['get', 'pytorchjob', 'linreg', '--no-headers']), /^linreg\s+Succeeded\s/);
    const master = await c.json(['get', 'pod', 'linreg-master-0']);
    const port = master.spec.containers[0].ports.find((p: any) => p.name === 'pytorchjob-port');
    assert.equal(port.hostPort, port.containerPort, "the master's port is declared as a host port");
    const losses = await finalLosses(c, 'linreg', ['master-0', 'worker-0', 'worker-1', 'worker-2'], `127.0.0.1:${port.containerPort}`);
    assert.equal(losses.size, 1, `every replica ends with the same loss: ${[...losses].join(', ')}`);
    assert.ok(Number([...losses][0]) < 0.01, 'the loss converged');
    const worker = await c.json(['get', 'pod', 'linreg-worker-2']);
    const env = Object.fromEntries(worker.spec.containers[0].env.map((e: any) => [e.name, e.value]));
    assert.equal(env.MASTER_ADDR, 'linreg-master-0', "the env carries Kubeflow's Service name; the agent resolves it for host processes");
    assert.equal(env.RANK, '3');
    assert.equal(env.WORLD_SIZE, '4');
    assert.equal(worker.metadata.labels['scheduling.x-k8s.io/pod-group'], 'linreg');
    const job = await c.json(['get', 'pytorchjob', 'linreg']);
    assert.equal(job.status.replicaStatuses.Master.succeeded, 1);
    assert.ok(job.status.startTime && job.status.completionTime);
    const transactions = await c.k(['get', 'transactions', '--no-headers']);
    assert.match(transactions, /PyTorchJob\/linreg\s+launch\s+Succeeded/);
  });

  it("a TFJob's replicas reach each other at the addresses of TF_CONFIG, behind headless Services", async () => {
    await c.k(['wait', '--for=condition=Succeeded', 'tfjob/tfcheck', '--timeout=90s'], undefined, 100_000);
    const names = ['chief-0', 'ps-0', 'worker-0', 'worker-1'];
    for (const name of names) {
      const log = await waitFor(
        `tfcheck-${name} to reach and hear its peers`,
        async () => {
          const text = await c.k(['logs', `tfcheck-${name}`]);
          return /all 3 peers reached and heard/.test(text) && text;
        },
        30_000,
      );
      assert.equal(log.split('\n').filter((l) => / reached \S+ at /.test(l)).length, 3);
    }
    for (const name of names) {
      const service = await c.json(['get', 'service', `tfcheck-${name}`]);
      const pod = await c.json(['get', 'pod', `tfcheck-${name}`]);
      assert.equal(service.spec.clusterIP, 'None');
      const [type, index] = name.split('-');
      assert.deepEqual(service.spec.selector, {
        'training.kubeflow.org/job-name': 'tfcheck',
        'training.kubeflow.org/operator-name': 'tfjob-controller',
        'training.kubeflow.org/replica-type': type,
        'training.kubeflow.org/replica-index': index,
      });
      const port = pod.spec.containers[0].ports.find((p: any) => p.name === 'tfjob-port');
      assert.equal(service.spec.ports[0].port, port.hostPort);
      const tfConfig = JSON.parse(pod.spec.containers[0].env.find((e: any) => e.name === 'TF_CONFIG').value);
      assert.deepEqual(tfConfig.task, { type, index: Number(index) });
      assert.ok(Object.values(tfConfig.cluster).flat().includes(`tfcheck-${name}.default.svc:${port.hostPort}`));
    }
  });
});
