// A Job's 'launch' Transaction as the observer reads it from the written Job, against a real API
// server with no Job controller (the test writes the status the controller would): begun by the
// startTime, advanced by succeeded of completions, ended by Complete; and begun late by a member
// that first sees a running Job whose start nobody recorded (its key was nobody's then).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metaTime, type KubeObject } from '../../api/meta.js';
import { resources } from '../../client/index.js';
import { useObserverTest } from '../../../test/support/controllers/observer-test.js';
import { transactionOf, transactionsOf } from '../../../test/support/controllers/transactions.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { JobOperations } from './job-transactions.js';
import type { Job } from './types.js';

describe('job transactions, observed', () => {
  const { bed, owned, writeStatus } = useObserverTest<Job>(resources.jobs, (transactions, jobs, owns) => new JobOperations(transactions).observe(jobs, owns));
  const jobs = () => bed.api.resource<Job>(resources.jobs, 'default');

  const manifest = (name: string): Job => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { completions: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'drover-test/busybox:1' }] } } },
  });

  const launch = (job: KubeObject, phase: string) => transactionOf(bed.api, job, 'launch', phase);

  it('begins the launch at the startTime, advances it by succeeded pods and ends it at Complete', async () => {
    owned.add('default/watched');
    const job = await jobs().create(manifest('watched'));
    await writeStatus('watched', { startTime: metaTime(), active: 2 });
    await waitFor('launch Running', () => launch(job, 'Running'));
    await writeStatus('watched', { succeeded: 1, active: 1 });
    await waitFor('launch at 1/2', async () => ((await launch(job, 'Running'))?.status?.progress === '1/2' ? true : undefined));
    const at = metaTime();
    await writeStatus('watched', {
      succeeded: 2,
      active: 0,
      completionTime: at,
      conditions: [{ type: 'Complete', status: 'True', lastProbeTime: at, lastTransitionTime: at }],
    });
    const done = await waitFor('launch Succeeded', () => launch(job, 'Succeeded'));
    assert.equal(done.status?.message, 'Job completed: 2 pod(s) succeeded');
  });

  it('begins the launch of a running Job it first sees after its start (its key was nobody’s then)', async () => {
    const job = await jobs().create(manifest('handed-over'));
    await writeStatus('handed-over', { startTime: metaTime(), active: 2 });
    assert.equal(await launch(job, 'Running'), undefined, 'nobody watched the start');
    owned.add('default/handed-over');
    await writeStatus('handed-over', { active: 2, ready: 1 });
    const begun = await waitFor('launch begun late', () => launch(job, 'Running'));
    assert.equal(begun.spec.reason, 'Job started');
    await writeStatus('handed-over', { active: 2, ready: 2 });
    assert.equal((await transactionsOf(bed.api, job, 'launch')).length, 1, 'one launch, not one per event');
  });
});
