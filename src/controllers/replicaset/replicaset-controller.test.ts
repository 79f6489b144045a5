import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { resources, type ApiClient } from '../../client/index.js';
import { ANNOTATION_HOST_RETAIN, ANNOTATION_RETAIN_NODE, ANNOTATION_RETAIN_UNTIL } from '../../api/scheduling/annotations.js';
import { ReplicaSetController } from './replicaset-controller.js';
import { bindPod, keepReady, podClient, podsOf, replicaSetManifest, setPodPhase, setPodRunning } from '../../../test/support/controllers/workload-pods.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import type { ReplicaSet } from './types.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { Pod } from '../../api/core/index.js';
import { transactionsOf } from '../../../test/support/controllers/transactions.js';

describe('replicaset controller', () => {
  let harness: ControllerTestBed;
  let api: ApiClient;
  const rsClient = () => api.resource<ReplicaSet>(resources.replicasets, 'default');

  before(async () => {
    harness = await startControllerTest((ctx) => new ReplicaSetController(ctx));
    api = harness.api;
  });
  after(async () => harness.close());

  const live = async (rs: KubeObject) => (await podsOf(api, rs)).filter((pod) => !pod.metadata.deletionTimestamp);

  it('creates the replicas from the template, owned by the set, and reports them', async () => {
    const rs = await rsClient().create(replicaSetManifest('web', 3) as ReplicaSet);
    const pods = await waitFor('3 pods', async () => {
      const found = await podsOf(api, rs);
      return found.length === 3 ? found : undefined;
    });
    for (const pod of pods) {
      assert.match(pod.metadata.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.deepEqual(pod.metadata.labels, { app: 'web' });
      const [ref] = pod.metadata.ownerReferences!;
      assert.deepEqual(ref, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true });
    }
    await waitFor('status.replicas 3', async () => (await rsClient().get('web')).status?.replicas === 3);
    await keepReady(api, rs, 3, 'three ready pods');
    const status = await waitFor('readyReplicas 3', async () => {
      const current = (await rsClient().get('web')).status;
      return current?.readyReplicas === 3 ? current : undefined;
    });
    assert.deepEqual(
      [status.replicas, status.fullyLabeledReplicas, status.readyReplicas, status.availableReplicas, status.observedGeneration],
      [3, 3, 3, 3, 1],
    );
    const events = await api.resource(resources.events, 'default').list();
    const created = events.items.filter((e) => e['reason'] === 'SuccessfulCreate' && (e['involvedObject'] as { name: string }).name === 'web');
    assert.ok(created.length >= 1);
    assert.match(String(created[0]!['message']), /^Created pod: web-/);
  });

  it("records a stand-alone set's launch and scale as transactions", async () => {
    const rs = await rsClient().get('web');
    const launch = await waitFor('launch Succeeded', async () =>
      (await transactionsOf(api, rs)).find((tx) => tx.spec.operation === 'launch' && tx.status?.phase === 'Succeeded'),
    );
    assert.equal(launch.status?.progress, '3/3');
    await rsClient().patch('web', 'merge', { spec: { replicas: 4 } });
    await keepReady(api, rs, 4, 'four ready pods');
    const scale = await waitFor('scale Succeeded', async () =>
      (await transactionsOf(api, rs)).find((tx) => tx.spec.operation === 'scale' && tx.status?.phase === 'Succeeded'),
    );
    assert.equal(scale.spec.reason, 'replicas changed from 3 to 4');
    assert.equal(scale.status?.progress, '4/4');
  });

  it('fails the open launch of a set deleted before it was ready', async () => {
    const rs = await rsClient().create(replicaSetManifest('doomed', 2) as ReplicaSet);
    await waitFor('launch Running', async () => (await transactionsOf(api, rs)).find((tx) => tx.spec.operation === 'launch' && tx.status?.phase === 'Running'));
    await rsClient().delete('doomed');
    const launch = await waitFor('launch Failed', async () =>
      (await transactionsOf(api, rs)).find((tx) => tx.spec.operation === 'launch' && tx.status?.phase === 'Failed'),
    );
    assert.equal(launch.status?.message, 'the ReplicaSet was deleted');
    for (const pod of await podsOf(api, rs))
      await podClient(api)
        .delete(pod.metadata.name!)
        .catch(() => undefined);
  });

  it('scales down unscheduled, then pending, then not-ready pods before ready ones', async () => {
    const rs = await rsClient().create(replicaSetManifest('order', 4) as ReplicaSet);
    const pods = await waitFor('4 pods', async () => {
      const found = await podsOf(api, rs);
      return found.length === 4 ? found : undefined;
    });
    const [oldReady, newReady, notReady, unscheduled] = pods as [Pod, Pod, Pod, Pod];
    await setPodRunning(api, oldReady, { readySince: new Date(Date.now() - 60_000) });
    await setPodRunning(api, newReady);
    await setPodRunning(api, notReady, { ready: false });
    void unscheduled;
    await waitFor('two ready', async () => (await rsClient().get('order')).status?.readyReplicas === 2);
    const expectKept = async (replicas: number, kept: Pod[]) => {
      await rsClient().patch('order', 'merge', { spec: { replicas } });
      const names = await waitFor(`${replicas} pods left`, async () => {
        const left = (await live(rs)).map((pod) => pod.metadata.name).sort();
        return left.length === replicas ? left : undefined;
      });
      assert.deepEqual(names, kept.map((pod) => pod.metadata.name).sort());
    };
    await expectKept(3, [oldReady, newReady, notReady]);
    await expectKept(2, [oldReady, newReady]);
    // Of two ready pods, the one ready for less time goes first.
    await expectKept(1, [oldReady]);
  });

  it('adopts matching orphans and releases pods whose labels no longer match', async () => {
    await podClient(api).create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stray', labels: { app: 'adopt' } },
      spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] },
    });
    const rs = await rsClient().create(replicaSetManifest('adopt', 2) as ReplicaSet);
    const pods = await waitFor('two pods (one adopted)', async () => {
      const found = await podsOf(api, rs);
      return found.length === 2 ? found : undefined;
    });
    assert.ok(
      pods.some((pod) => pod.metadata.name === 'stray'),
      'the orphan was adopted',
    );
    await podClient(api).patch('stray', 'merge', { metadata: { labels: { app: 'elsewhere' } } });
    await waitFor('stray released', async () => !(await podClient(api).get('stray')).metadata.ownerReferences?.length);
    await waitFor('a replacement for the released pod', async () => (await live(rs)).length === 2);
  });

  it('does not count terminating pods, and holds the replacement of a lost pod for its node', async () => {
    const annotations = { [ANNOTATION_HOST_RETAIN]: '300' };
    const rs = await rsClient().create(replicaSetManifest('retain', 1, { annotations }) as ReplicaSet);
    const [pod] = await keepReady(api, rs, 1, 'one ready pod');
    assert.equal(pod!.spec?.nodeName, 'node-1');
    // The node lifecycle controller deletes the pods of a lost node gracefully; with no agent
    // to confirm, the pod stays terminating.
    await podClient(api).delete(pod!.metadata.name!, { gracePeriodSeconds: 30 });
    const replacement = await waitFor('a replacement pod', async () => (await live(rs))[0]);
    assert.notEqual(replacement.metadata.name, pod!.metadata.name);
    assert.equal(replacement.metadata.annotations?.[ANNOTATION_RETAIN_NODE], 'node-1');
    const until = Date.parse(replacement.metadata.annotations?.[ANNOTATION_RETAIN_UNTIL] ?? '');
    assert.ok(until > Date.now() + 250_000 && until <= Date.now() + 300_000, `retain-until ${replacement.metadata.annotations?.[ANNOTATION_RETAIN_UNTIL]}`);
    assert.equal((await podsOf(api, rs)).length, 2, 'the terminating pod is still there, not counted');
    // Found while Running, perhaps: its end is written by the next sync.
    const reschedule = await waitFor('a reschedule transaction, Succeeded', async () =>
      (await transactionsOf(api, rs)).find((tx) => tx.spec.operation === 'reschedule' && tx.status?.phase === 'Succeeded'),
    );
    assert.match(reschedule.spec.reason, /on node node-1 was deleted/);
  });

  it("deletes and replaces a failed pod: a reschedule held for the failed pod's node", async () => {
    const annotations = { [ANNOTATION_HOST_RETAIN]: '60' };
    const rs = await rsClient().create(replicaSetManifest('crashy', 2, { annotations }) as ReplicaSet);
    const pods = await keepReady(api, rs, 2, 'two ready pods');
    const victim = pods[0]!;
    await setPodPhase(api, victim, 'Failed');
    const replacement = await waitFor('a replacement', async () => (await live(rs)).find((pod) => pod.metadata.annotations?.[ANNOTATION_RETAIN_NODE]));
    assert.equal(replacement.metadata.annotations?.[ANNOTATION_RETAIN_NODE], victim.spec?.nodeName);
    await waitFor('the failed pod to be deleted', async () => {
      const current = await podClient(api)
        .get(victim.metadata.name!)
        .catch(() => undefined);
      return current === undefined || current.metadata.deletionTimestamp !== undefined;
    });
    const reschedule = await waitFor('a reschedule', async () =>
      (await transactionsOf(api, rs)).find((tx) => tx.spec.operation === 'reschedule' && tx.status?.phase === 'Succeeded'),
    );
    assert.equal(reschedule.spec.reason, `pod ${victim.metadata.name} failed on node node-1`);
  });

  it('counts a pod available only after minReadySeconds', async () => {
    const rs = await rsClient().create(replicaSetManifest('slow', 1, { minReadySeconds: 1 }) as ReplicaSet);
    await keepReady(api, rs, 1, 'one ready pod');
    const early = await waitFor('ready', async () => {
      const status = (await rsClient().get('slow')).status;
      return status?.readyReplicas === 1 ? status : undefined;
    });
    assert.equal(early.availableReplicas ?? 0, 0);
    await waitFor('available after 1 s', async () => (await rsClient().get('slow')).status?.availableReplicas === 1, 5000);
  });

  it('reports ReplicaFailure when pods cannot be created', async () => {
    // A pod name is the set's name plus 6 characters: past 253 it is invalid.
    const name = `x${'a'.repeat(249)}`;
    const manifest = replicaSetManifest(name, 1, { labels: { app: 'toolong' } });
    await rsClient().create(manifest as ReplicaSet);
    const condition = await waitFor('ReplicaFailure', async () => (await rsClient().get(name)).status?.conditions?.find((c) => c.type === 'ReplicaFailure'));
    assert.equal(condition.status, 'True');
    assert.equal(condition.reason, 'FailedCreate');
    await rsClient().delete(name);
  });

  it('ignores pods owned by another controller', async () => {
    const other = await rsClient().create(replicaSetManifest('first', 1, { labels: { app: 'shared' } }) as ReplicaSet);
    await waitFor('first has its pod', async () => (await podsOf(api, other)).length === 1);
    const manifest = replicaSetManifest('second', 1, { labels: { app: 'shared' } });
    const second = await rsClient().create(manifest as ReplicaSet);
    await waitFor('second has its own pod', async () => (await podsOf(api, second)).length === 1);
    assert.equal((await podsOf(api, other)).length, 1);
    const [pod] = await podsOf(api, second);
    await bindPod(api, pod!, 'node-2');
  });
});
