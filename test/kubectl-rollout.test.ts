// Deployments through the real kubectl against `drover up` with a real Docker node: rollout
// status, set image (sampling availability during the rollout), rollout history with
// change-cause, undo (to the previous revision and --to-revision), pause/resume, restart and
// scale.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';

const REPLICAS = 3;
// The defaults (25 % each) of 3 replicas: surge rounds up to 1, unavailability down to 0.
const MAX_UNAVAILABLE = 0;

const MANIFEST = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: REPLICAS,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '3600'] }],
      },
    },
  },
});

interface PodView {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { containers: Array<{ image: string }> };
  status: { conditions?: Array<{ type: string; status: string }> };
}

interface ReplicaSetView {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { replicas: number; template: { spec: { containers: Array<{ image: string }> } } };
}

describe('kubectl rollout', { timeout: 180_000 }, () => {
  let cluster: UpProcess;
  const k = (...args: string[]) => kubectl(cluster.kubeconfig, args);
  const rolloutStatus = () => k('rollout', 'status', 'deploy/web', '--timeout=90s');

  const livePods = async (): Promise<PodView[]> =>
    (JSON.parse(await k('get', 'pods', '-l', 'app=web', '-o', 'json')).items as PodView[]).filter((p) => !p.metadata.deletionTimestamp);
  const isReady = (pod: PodView) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
  const replicaSets = async (): Promise<ReplicaSetView[]> => JSON.parse(await k('get', 'rs', '-l', 'app=web', '-o', 'json')).items;
  const images = async () => [...new Set((await livePods()).map((p) => p.spec.containers[0]!.image))];

  /** Ready, not-terminating pods with the image, once there are exactly `count` pods and all run it. */
  async function allRunning(image: string, count = REPLICAS): Promise<PodView[]> {
    return waitFor(
      `${count} ready pods of ${image}`,
      async () => {
        const pods = await livePods();
        return pods.length === count && pods.every((p) => isReady(p) && p.spec.containers[0]!.image === image) ? pods : undefined;
      },
      60_000,
    );
  }

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startUpProcess(`rollout-${process.pid}`);
  });
  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'deploy', 'web', '--wait=true', '--timeout=60s']);
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
  });

  it('applies a Deployment and waits for its rollout', async () => {
    await kubectl(cluster.kubeconfig, ['apply', '-f', '-'], { input: MANIFEST });
    assert.match(await rolloutStatus(), /deployment "web" successfully rolled out/);
    await allRunning('drover-test/busybox:1');
    const [rs, ...others] = await replicaSets();
    assert.equal(others.length, 0);
    assert.match(rs!.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(rs!.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
  });

  it('sets a new image: the rollout keeps replicas − maxUnavailable pods ready throughout', async () => {
    let minReady = Infinity;
    let samples = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const ready = (await livePods()).filter(isReady).length;
        minReady = Math.min(minReady, ready);
        samples++;
      }
    })();
    try {
      await k('set', 'image', 'deploy/web', 'main=drover-test/busybox:2');
      await k('annotate', 'deploy/web', 'kubernetes.io/change-cause=image 2');
      assert.match(await rolloutStatus(), /successfully rolled out/);
    } finally {
      sampling = false;
      await sampler;
    }
    await allRunning('drover-test/busybox:2');
    assert.ok(samples >= 3, `only ${samples} samples`);
    assert.ok(minReady >= REPLICAS - MAX_UNAVAILABLE, `ready pods fell to ${minReady} during the rollout`);
    const sets = await replicaSets();
    assert.equal(sets.length, 2);
    assert.deepEqual(sets.map((rs) => rs.spec.replicas).sort(), [0, REPLICAS]);
  });

  it('shows the rollout history with change causes', async () => {
    const history = await k('rollout', 'history', 'deploy/web');
    assert.match(history, /REVISION\s+CHANGE-CAUSE/);
    assert.match(history, /^1\s+<none>$/m);
    assert.match(history, /^2\s+image 2$/m);
    const second = await k('rollout', 'history', 'deploy/web', '--revision=2');
    assert.match(second, /Image:\s+drover-test\/busybox:2/);
  });

  it('undoes the rollout to the previous revision, and to a given one', async () => {
    assert.match(await k('rollout', 'undo', 'deploy/web'), /rolled back/);
    await rolloutStatus();
    await allRunning('drover-test/busybox:1');
    assert.equal((await replicaSets()).length, 2, "revision 1's ReplicaSet was reused");
    const history = await k('rollout', 'history', 'deploy/web');
    assert.match(history, /^2\s+image 2$/m);
    assert.match(history, /^3\s+<none>$/m);
    assert.doesNotMatch(history, /^1\s/m, 'revision 1 became revision 3');

    assert.match(await k('rollout', 'undo', 'deploy/web', '--to-revision=2'), /rolled back/);
    await rolloutStatus();
    await allRunning('drover-test/busybox:2');
    assert.equal(await k('get', 'deploy/web', '-o', 'jsonpath={.metadata.annotations.kubernetes\\.io/change-cause}'), 'image 2');
    const missing = await kubectlRaw(cluster.kubeconfig, ['rollout', 'undo', 'deploy/web', '--to-revision=9']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /unable to find specified revision 9/);
  });

  it('pauses: a new template does not roll out until resumed', async () => {
    await k('rollout', 'pause', 'deploy/web');
    await k('set', 'image', 'deploy/web', 'main=drover-test/busybox:1');
    await waitFor(
      'DeploymentPaused',
      async () => (await k('get', 'deploy/web', '-o', 'jsonpath={.status.conditions[?(@.type=="Progressing")].reason}')) === 'DeploymentPaused',
      10_000,
    );
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(await images(), ['drover-test/busybox:2'], 'nothing rolled out while paused');
    const undo = await kubectlRaw(cluster.kubeconfig, ['rollout', 'undo', 'deploy/web']);
    assert.match(undo.stderr, /cannot rollback a paused deployment/);
    await k('rollout', 'resume', 'deploy/web');
    await rolloutStatus();
    await allRunning('drover-test/busybox:1');
  });

  it('restarts: every pod is replaced', async () => {
    const before = new Set((await livePods()).map((p) => p.metadata.name));
    await k('rollout', 'restart', 'deploy/web');
    await rolloutStatus();
    const after = await allRunning('drover-test/busybox:1');
    assert.ok(
      after.every((p) => !before.has(p.metadata.name)),
      'a pod survived the restart',
    );
    assert.notEqual(await k('get', 'deploy/web', '-o', 'jsonpath={.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}'), '');
  });

  it('scales up and down', async () => {
    await k('scale', 'deploy/web', '--replicas=5');
    await rolloutStatus();
    await allRunning('drover-test/busybox:1', 5);
    assert.equal(await k('get', 'deploy/web', '-o', 'jsonpath={.status.readyReplicas}'), '5');
    await k('scale', 'deploy/web', '--replicas=2');
    await rolloutStatus();
    await allRunning('drover-test/busybox:1', 2);
    const scales = JSON.parse(await k('get', 'tx', '-o', 'json')).items.filter(
      (tx: { spec: { operation: string; target: { name: string } } }) => tx.spec.operation === 'scale' && tx.spec.target.name === 'web',
    );
    assert.ok(scales.length >= 2, 'each scale is a transaction');
  });
});
