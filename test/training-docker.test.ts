// The PyTorchJob of examples/pytorchjob-process.yaml, run as Docker pods on the pod network
// instead of host processes: the replicas find each other at their pods' IPs (the agent puts
// the master's pod IP where Kubeflow's Service name stands: the per-replica Services publish a
// replica only once it is ready) and train together. No registry can be reached, so the busybox test image runs the node's own
// python3, mounted read-only from the host (/usr, /lib, /lib64).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseAllDocuments, stringify } from 'yaml';
import { finalLosses, startTrainingCluster, type TrainingCluster } from './support/training-cluster.js';
import { REPO_ROOT } from './support/repo.js';

const HOST_PYTHON = ['/usr', '/lib', '/lib64'];

/** The example's manifests with every replica as a Docker pod running the host's python3. */
function onDocker(): string {
  const docs = parseAllDocuments(readFileSync(resolve(REPO_ROOT, 'examples/pytorchjob-process.yaml'), 'utf8')).map((doc) => doc.toJS());
  for (const doc of docs) {
    if (doc.kind !== 'PyTorchJob') continue;
    for (const replica of Object.values(doc.spec.pytorchReplicaSpecs) as Array<{ template: { spec: any } }>) {
      const spec = replica.template.spec;
      delete spec.runtimeClassName;
      spec.volumes = HOST_PYTHON.map((path, i) => ({ name: `host-${i}`, hostPath: { path } }));
      for (const container of spec.containers) {
        container.image = 'drover-test/busybox:1';
        container.volumeMounts = HOST_PYTHON.map((path, i) => ({ name: `host-${i}`, mountPath: path, readOnly: true }));
      }
    }
  }
  return docs.map((doc) => stringify(doc)).join('---\n');
}

describe('a PyTorchJob as Docker pods on the pod network', { timeout: 150_000 }, () => {
  let c: TrainingCluster;

  before(async () => {
    c = await startTrainingCluster('training-docker');
    await c.k(['apply', '-f', '-'], onDocker());
  });

  after(async () => {
    await c?.stop();
  });

  it('trains together over the pod IPs and every replica ends with the same loss', async () => {
    await c.k(['wait', '--for=condition=Succeeded', 'pytorchjob/linreg', '--timeout=120s'], undefined, 130_000);
    const master = await c.json(['get', 'pod', 'linreg-master-0']);
    assert.equal(master.spec.runtimeClassName, undefined, 'a Docker pod');
    const masterIP: string = master.status.podIP;
    assert.match(masterIP, /^\d+\.\d+\.\d+\.\d+$/);
    assert.notEqual(masterIP, '127.0.0.1', "on the pod network, not the host's");
    const losses = await finalLosses(c, 'linreg', ['master-0', 'worker-0', 'worker-1', 'worker-2'], `${masterIP}:23456`);
    assert.equal(losses.size, 1, `every replica ends with the same loss: ${[...losses].join(', ')}`);
  });
});
