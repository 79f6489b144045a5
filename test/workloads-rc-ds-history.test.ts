// ReplicationControllers and DaemonSet rollout history end to end: a real `drover up` (API
// server, scheduler, controllers and a Docker node) driven by the real kubectl.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, waitForNodeReady, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const IMAGE_1 = 'drover-test/busybox:1';
const IMAGE_2 = 'drover-test/busybox:2';

interface PodView {
  metadata: {
    name: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }>;
  };
  spec: { containers: Array<{ image: string }> };
  status: { conditions?: Array<{ type: string; status: string }> };
}

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: IMAGE_1, command: ['sleep', '3600'] }] },
});

describe('ReplicationControllers and DaemonSet history on drover up', { timeout: 240_000 }, () => {
  let cluster: UpProcess;
  const k = (args: string[], input?: string) => kubectl(cluster.kubeconfig, args, input === undefined ? { timeoutMs: 120_000 } : { input });
  const live = async (app: string): Promise<PodView[]> =>
    (JSON.parse(await k(['get', 'pods', '-l', `app=${app}`, '-o', 'json'])).items as PodView[]).filter((p) => !p.metadata.deletionTimestamp);
  const ready = (p: PodView) => p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
  const readyPods = (app: string, count: number, image = IMAGE_1) =>
    waitFor(
      `${count} ready ${app} pods of ${image}`,
      async () => {
        const pods = await live(app);
        return pods.length === count && pods.every((p) => ready(p) && p.spec.containers[0]!.image === image) ? pods : undefined;
      },
      90_000,
    );

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startUpProcess(`rcds-${process.pid}`);
    await waitForNodeReady(cluster);
  });

  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'rc,ds', '--all', '--wait=true', '--timeout=60s']);
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
    await removeNodeObjects(cluster.nodeName);
  });

  it('a ReplicationController is created, scaled and deleted with kubectl', async () => {
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'legacy' }, spec: { replicas: 2, template: template('legacy') } }),
    );
    assert.equal(await k(['get', 'rc', 'legacy', '-o', 'jsonpath={.spec.selector.app}']), 'legacy', 'the selector defaults to the template labels');
    const pods = await readyPods('legacy', 2);
    for (const pod of pods) {
      assert.deepEqual(
        pod.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]),
        [['ReplicationController', 'legacy', true]],
      );
      assert.match(pod.metadata.name, /^legacy-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    }
    const [header] = (await k(['get', 'rc'])).trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    assert.match(await k(['get', 'all']), /replicationcontroller\/legacy/);

    await k(['scale', 'rc', 'legacy', '--replicas=3']);
    await readyPods('legacy', 3);
    await waitFor('DESIRED CURRENT READY 3 3 3', async () => /^legacy\s+3\s+3\s+3\s/m.test(await k(['get', 'rc', 'legacy', '--no-headers'])), 20_000);
    await k(['scale', 'rc', 'legacy', '--replicas=1']);
    await readyPods('legacy', 1);

    const invalid = await kubectlRaw(cluster.kubeconfig, ['patch', 'rc', 'legacy', '-p', '{"spec":{"selector":{"app":"other"}}}']);
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`/);

    await k(['delete', 'rc', 'legacy']);
    await waitFor('legacy pods gone', async () => (await live('legacy')).length === 0, 60_000);
  });

  it('DaemonSet: rollout history lists two revisions after a template change; undo brings the first back', async () => {
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'agent' },
        spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') },
      }),
    );
    await k(['rollout', 'status', 'ds/agent', '--timeout=90s']);
    const [first] = await readyPods('agent', 1);
    const firstHash = first!.metadata.labels?.['controller-revision-hash'];
    assert.ok(firstHash);

    // A revision takes the DaemonSet's annotations when it is made: the cause is given first.
    await k(['annotate', 'ds/agent', 'kubernetes.io/change-cause=image 2']);
    await k(['set', 'image', 'ds/agent', `main=${IMAGE_2}`]);
    await k(['rollout', 'status', 'ds/agent', '--timeout=90s']);
    await readyPods('agent', 1, IMAGE_2);
    const history = await k(['rollout', 'history', 'ds/agent']);
    assert.match(history, /REVISION\s+CHANGE-CAUSE/);
    assert.match(history, /^1\s+<none>$/m);
    assert.match(history, /^2\s+image 2$/m);
    assert.match(await k(['rollout', 'history', 'ds/agent', '--revision=1']), new RegExp(`Image:\\s+${IMAGE_1}`));
    const revisions = await k(['get', 'controllerrevisions']);
    assert.match(revisions, new RegExp(`^agent-${firstHash}\\s+daemonset\\.apps/agent\\s+1\\s`, 'm'));

    assert.match(await k(['rollout', 'undo', 'ds/agent']), /rolled back/);
    await k(['rollout', 'status', 'ds/agent', '--timeout=90s']);
    const [restored] = await readyPods('agent', 1, IMAGE_1);
    assert.equal(restored!.metadata.labels?.['controller-revision-hash'], firstHash, "the first revision's pods again");
    const after = await k(['rollout', 'history', 'ds/agent']);
    assert.match(after, /^2\s+image 2$/m);
    assert.match(after, /^3\s+<none>$/m);
    assert.doesNotMatch(after, /^1\s/m, 'revision 1 became revision 3');
  });
});
