// A Job's 'launch' Transaction as the observer reads it from the written Job, against a real API
// server with no Job controller (the test writes the status the controller would): begun by the
// startTime, advanced by succeeded of completions, ended by Complete; and begun late by a member
// that first sees a running Job whose start nobody recorded (its key was nobody's then).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metaTime, type KubeObject } from '../../api/meta.js';
import { resources, type Informer } from '../../client/index.js';
import { useControllerTest } from '../../../test/support/controllers/controller-test.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { ControllerFactory } from '../manager.js';
import { LABEL_TARGET_UID, type Transaction } from '../transactions/types.js';
import { JobOperations } from './job-transactions.js';
import type { Job, JobStatus } from './types.js';

describe('job transactions, observed', () => {
  let observed: Informer<Job>;
  /** The keys this "member" owns: a Job outside it is watched by nobody. */
  const owned = new Set<string>();

  const observerOnly: ControllerFactory = (ctx) => {
    observed = ctx.factory.informerFor<Job>(resources.jobs);
    new JobOperations(ctx.transactions).observe(observed, (key) => owned.has(key));
    return { name: 'job-transactions', start() {}, async stop() {} };
  };

  const bed = useControllerTest(observerOnly);
  const jobs = () => bed.api.resource<Job>(resources.jobs, 'default');

  const manifest = (name: string): Job => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { completions: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'drover-test/busybox:1' }] } } },
  });

  async function launch(job: KubeObject, phase: string): Promise<Transaction | undefined> {
    const list = await bed.api.resource<Transaction>(resources.transactions, 'default').list({ labelSelector: { [LABEL_TARGET_UID]: job.metadata.uid! } });
    return list.items.find((tx) => tx.spec.operation === 'launch' && tx.status?.phase === phase);
  }

  async function writeStatus(name: string, status: JobStatus): Promise<void> {
    const written = await jobs().patch(name, 'merge', { status }, { subresource: 'status' });
    await waitFor('the status in the cache', () => observed.get(`default/${name}`)?.metadata.resourceVersion === written.metadata.resourceVersion);
  }

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
    const launches = (await bed.api.resource<Transaction>(resources.transactions, 'default').list({ labelSelector: { [LABEL_TARGET_UID]: job.metadata.uid! } }))
      .items;
    assert.equal(launches.filter((tx) => tx.spec.operation === 'launch').length, 1, 'one launch, not one per event');
  });
});
