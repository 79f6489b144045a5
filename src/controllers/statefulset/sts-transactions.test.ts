// A StatefulSet's Transactions as the observer reads them from the written set, against a real
// API server with no StatefulSet controller (the test writes the status the controller would):
// the launch ended by every replica ready, the scale begun by spec.replicas, the rollout begun
// by a new updateRevision; and a launch begun late by a member that first sees a set still
// launching whose launch nobody recorded (its key was nobody's then).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { resources } from '../../client/index.js';
import { useObserverTest } from '../../../test/support/controllers/observer-test.js';
import { transactionOf, transactionsOf } from '../../../test/support/controllers/transactions.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { statefulSetManifest as manifest } from '../../../test/support/controllers/statefulset-manifest.js';
import { StatefulSetOperations } from './sts-transactions.js';
import type { StatefulSet, StatefulSetStatus } from './types.js';

describe('statefulset transactions, observed', () => {
  const observer = useObserverTest<StatefulSet>(resources.statefulsets, (transactions, sets, owns) =>
    new StatefulSetOperations(transactions).observe(sets, owns),
  );
  const { bed, owned } = observer;
  const sets = () => bed.api.resource<StatefulSet>(resources.statefulsets, 'default');

  const transaction = (set: KubeObject, operation: string, phase: string) => transactionOf(bed.api, set, operation, phase);

  const at = (set: KubeObject, operation: string, progress: string) =>
    waitFor(`${operation} at ${progress}`, async () => ((await transaction(set, operation, 'Running'))?.status?.progress === progress ? true : undefined));

  /** The status a pass of the controller would write, counts in the order replicas/ready/updated. */
  async function writeStatus(name: string, counts: [number, number, number], revisions: [string, string], generation: number): Promise<void> {
    const [replicas, readyReplicas, updatedReplicas] = counts;
    const status: StatefulSetStatus = {
      observedGeneration: generation,
      replicas,
      readyReplicas,
      availableReplicas: readyReplicas,
      currentReplicas: replicas - updatedReplicas,
      updatedReplicas,
      currentRevision: revisions[0],
      updateRevision: revisions[1],
    };
    await observer.writeStatus(name, status);
  }

  it('ends the launch when every replica is ready, and the scale when the new count is', async () => {
    owned.add('default/web');
    const set = await sets().create(manifest('web', 2));
    await waitFor('launch Running', () => transaction(set, 'launch', 'Running'));
    await writeStatus('web', [1, 1, 1], ['web-a', 'web-a'], 1);
    await at(set, 'launch', '1/2');
    await writeStatus('web', [2, 2, 2], ['web-a', 'web-a'], 1);
    const launched = await waitFor('launch Succeeded', () => transaction(set, 'launch', 'Succeeded'));
    assert.equal(launched.status?.message, '2 of 2 replicas ready');

    await sets().patch('web', 'merge', { spec: { replicas: 3 } });
    const scale = await waitFor('scale Running', () => transaction(set, 'scale', 'Running'));
    assert.equal(scale.spec.reason, 'replicas changed from 2 to 3');
    // A status of the previous generation never ends it, however its counts read.
    await writeStatus('web', [3, 3, 3], ['web-a', 'web-a'], 1);
    await at(set, 'scale', '3/3');
    await writeStatus('web', [3, 3, 3], ['web-a', 'web-a'], 2);
    const scaled = await waitFor('scale Succeeded', () => transaction(set, 'scale', 'Succeeded'));
    assert.equal(scaled.status?.message, '3 of 3 replicas ready');
  });

  it('follows a rollout by the written update revision until every pod runs it', async () => {
    const set = await sets().get('web');
    await writeStatus('web', [3, 3, 1], ['web-a', 'web-b'], 2);
    const update = await waitFor('update Running', () => transaction(set, 'update', 'Running'));
    assert.equal(update.spec.reason, 'rolling update to revision web-b');
    await at(set, 'update', '1/3');
    await writeStatus('web', [3, 3, 3], ['web-b', 'web-b'], 2);
    const done = await waitFor('update Succeeded', () => transaction(set, 'update', 'Succeeded'));
    assert.equal(done.status?.message, '3 pod(s) at revision web-b');
  });

  it('begins the launch of a set it first sees still launching (its key was nobody’s then)', async () => {
    const set = await sets().create(manifest('handed-over', 2));
    await writeStatus('handed-over', [1, 0, 1], ['h-a', 'h-a'], 1);
    assert.equal(await transaction(set, 'launch', 'Running'), undefined, 'nobody watched the creation');
    owned.add('default/handed-over');
    await writeStatus('handed-over', [2, 1, 2], ['h-a', 'h-a'], 1);
    const begun = await waitFor('launch begun late', () => transaction(set, 'launch', 'Running'));
    assert.equal(begun.spec.reason, 'created with 2 replicas');
    await writeStatus('handed-over', [2, 2, 2], ['h-a', 'h-a'], 1);
    await waitFor('launch Succeeded', () => transaction(set, 'launch', 'Succeeded'));
    assert.equal((await transactionsOf(bed.api, set, 'launch')).length, 1, 'one launch, not one per event');
  });
});
