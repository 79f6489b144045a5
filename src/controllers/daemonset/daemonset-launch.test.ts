// A DaemonSet's 'launch' Transaction as the observer reads it from the written DaemonSet, against
// a real API server with no DaemonSet controller (the test writes the status the controller
// would): begun by the first status written, advanced by numberReady of desiredNumberScheduled, ended when every
// desired pod is ready and updated, or at once when no node is eligible; and begun late by a
// member that first sees a DaemonSet still launching whose launch nobody recorded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { resources } from '../../client/index.js';
import { useObserverTest } from '../../../test/support/controllers/observer-test.js';
import { transactionOf, transactionsOf } from '../../../test/support/controllers/transactions.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { DaemonSetLaunch } from './daemonset-launch.js';
import type { DaemonSet, DaemonSetStatus } from './types.js';

describe('daemonset launch transaction, observed', () => {
  const observer = useObserverTest<DaemonSet>(resources.daemonsets, (transactions, daemonSets, owns) =>
    new DaemonSetLaunch(transactions).observe(daemonSets, owns),
  );
  const { bed, owned } = observer;
  const daemonSets = () => bed.api.resource<DaemonSet>(resources.daemonsets, 'default');

  const manifest = (name: string): DaemonSet => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] } },
    },
  });

  const launch = (ds: KubeObject, phase: string) => transactionOf(bed.api, ds, 'launch', phase);

  /** The status a pass of the controller would write: desired, ready and updated pods. */
  async function writeStatus(name: string, desired: number, ready: number, updated: number): Promise<void> {
    const status: DaemonSetStatus = {
      observedGeneration: 1,
      desiredNumberScheduled: desired,
      currentNumberScheduled: desired,
      numberMisscheduled: 0,
      numberReady: ready,
      updatedNumberScheduled: updated,
      numberAvailable: ready,
      numberUnavailable: desired - ready,
    };
    await observer.writeStatus(name, status);
  }

  it('advances the launch by ready pods and ends it when every desired pod is ready and updated', async () => {
    owned.add('default/logs');
    const ds = await daemonSets().create(manifest('logs'));
    await writeStatus('logs', 2, 0, 2);
    const begun = await waitFor('launch Running', () => launch(ds, 'Running'));
    assert.deepEqual([begun.spec.reason, begun.status?.progress], ['DaemonSet created', '0/2']);
    await writeStatus('logs', 2, 1, 2);
    await waitFor('launch at 1/2', async () => ((await launch(ds, 'Running'))?.status?.progress === '1/2' ? true : undefined));
    await writeStatus('logs', 2, 2, 1);
    await waitFor('launch at 2/2, an old pod still there', async () => ((await launch(ds, 'Running'))?.status?.progress === '2/2' ? true : undefined));
    await writeStatus('logs', 2, 2, 2);
    const done = await waitFor('launch Succeeded', () => launch(ds, 'Succeeded'));
    assert.deepEqual([done.status?.progress, done.status?.message], ['2/2', '2 daemon pod(s) ready']);
  });

  it('ends the launch at once when no node is eligible', async () => {
    owned.add('default/nowhere');
    const ds = await daemonSets().create(manifest('nowhere'));
    await writeStatus('nowhere', 0, 0, 0);
    const done = await waitFor('launch Succeeded', () => launch(ds, 'Succeeded'));
    assert.equal(done.status?.message, 'no node is eligible for the daemon pod');
  });

  it('begins the launch of a DaemonSet it first sees still launching (its key was nobody’s then)', async () => {
    const ds = await daemonSets().create(manifest('handed-over'));
    await writeStatus('handed-over', 2, 0, 2);
    assert.equal(await launch(ds, 'Running'), undefined, 'nobody watched the creation');
    owned.add('default/handed-over');
    await writeStatus('handed-over', 2, 1, 2);
    const begun = await waitFor('launch begun late', () => launch(ds, 'Running'));
    assert.equal(begun.spec.reason, 'DaemonSet created');
    await writeStatus('handed-over', 2, 2, 2);
    await waitFor('launch Succeeded', () => launch(ds, 'Succeeded'));
    assert.equal((await transactionsOf(bed.api, ds, 'launch')).length, 1, 'one launch, not one per event');
  });
});
