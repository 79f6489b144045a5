import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { resources, type ApiClient } from '../../client/index.js';
import { podClient, podsOf, setPodPhase, setPodRunning } from '../../../test/support/controllers/workload-pods.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { StatefulSetController } from './statefulset-controller.js';
import type { StatefulSet } from './types.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { statefulSetManifest as manifest } from '../../../test/support/controllers/statefulset-manifest.js';
import type { Pod } from '../../api/core/index.js';

describe('statefulset controller', () => {
  let harness: ControllerTestBed;
  let api: ApiClient;
  const sets = () => api.resource<StatefulSet>(resources.statefulsets, 'default');
  const names = async (set: StatefulSet) =>
    (await podsOf(api, set))
      .filter((p) => !p.metadata.deletionTimestamp)
      .map((p) => p.metadata.name)
      .sort();
  const pod = (name: string) => podClient(api).get(name);

  before(async () => {
    harness = await startControllerTest((ctx) => new StatefulSetController(ctx));
    api = harness.api;
  });
  after(async () => harness.close());

  it('OrderedReady waits for each pod to be Running and Ready before the next', async () => {
    const set = await sets().create(manifest('ord', 3));
    await waitFor('ord-0', async () => (await names(set)).length === 1);
    // Nothing plays the agent: ord-0 stays Pending, so ord-1 must not come.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await names(set), ['ord-0']);
    await setPodRunning(api, await pod('ord-0'), { ready: false });
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await names(set), ['ord-0'], 'Running but not Ready is not enough');
    await setPodRunning(api, await pod('ord-0'));
    await waitFor('ord-1', async () => (await names(set)).length === 2);
    await setPodRunning(api, await pod('ord-1'));
    await waitFor('ord-2', async () => (await names(set)).length === 3);
    await setPodRunning(api, await pod('ord-2'));
    await waitFor('readyReplicas 3', async () => (await sets().get('ord')).status?.readyReplicas === 3);
  });

  it('deletes a failed pod and recreates it under the same name', async () => {
    const set = await sets().get('ord');
    const failed = await pod('ord-1');
    await setPodPhase(api, failed, 'Failed');
    const back = await waitFor('a new ord-1', async () => {
      const current = await pod('ord-1').catch(() => undefined);
      return current && current.metadata.uid !== failed.metadata.uid ? current : undefined;
    });
    assert.equal(back.metadata.labels?.['apps.kubernetes.io/pod-index'], '1');
    assert.deepEqual(await names(set), ['ord-0', 'ord-1', 'ord-2']);
    const events = await api.resource(resources.events, 'default').list();
    const messages = events.items.filter((e) => (e['involvedObject'] as { name: string }).name === 'ord').map((e) => String(e['message']));
    assert.ok(messages.includes('delete Pod ord-1 in StatefulSet ord successful'), messages.join('\n'));
    assert.ok(messages.includes('create Pod ord-0 in StatefulSet ord successful'), messages.join('\n'));
  });

  it('adopts an orphan pod of its name instead of creating one', async () => {
    const orphan: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'adopt-0', namespace: 'default', labels: { app: 'adopt' } },
      spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] },
    };
    const created = await podClient(api).create(orphan);
    const set = await sets().create(manifest('adopt', 1));
    const adopted = await waitFor('adopt-0 adopted', async () => {
      const current = await pod('adopt-0');
      return current.metadata.ownerReferences?.some((r) => r.controller && r.uid === set.metadata.uid) ? current : undefined;
    });
    assert.equal(adopted.metadata.uid, created.metadata.uid);
  });
});
