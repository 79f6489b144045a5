// CronJobs end to end: a real `drover up` (API server, scheduler, controllers and a Docker node)
// driven by the real kubectl. A schedule cannot be waited for in a test, so the CronJob runs
// yearly, and its schedule is exercised by moving status.lastScheduleTime back before this
// year's 1 January: the controller then owes that start and makes it at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, waitForNodeReady, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

interface JobView {
  metadata: {
    name: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }>;
  };
}

describe('CronJobs on drover up', { timeout: 150_000 }, () => {
  let cluster: UpProcess;
  const k = (args: string[], timeoutMs?: number) => kubectl(cluster.kubeconfig, args, timeoutMs ? { timeoutMs } : {});
  const getJob = async (name: string): Promise<JobView> => JSON.parse(await k(['get', 'job', name, '-o', 'json']));

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startUpProcess(`cronjob-${process.pid}`);
    await waitForNodeReady(cluster);
    await k(['create', 'cronjob', 'report', '--image=drover-test/busybox:1', '--schedule=0 0 1 1 *', '--', 'sh', '-c', 'echo report done']);
  });

  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'cronjobs,jobs', '--all', '--cascade=foreground', '--wait=true', '--timeout=60s']);
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
    await removeNodeObjects(cluster.nodeName);
  });

  it('kubectl create cronjob, then get cronjobs / cj / all show it with its columns', async () => {
    const [header, row] = (await k(['get', 'cronjobs'])).trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE']);
    assert.deepEqual(row!.split(/\s{2,}/).slice(0, 6), ['report', '0 0 1 1 *', '<none>', 'False', '0', '<none>']);
    assert.match(await k(['get', 'cj', 'report', '-o', 'name']), /^cronjob\.batch\/report$/m);
    assert.match(await k(['get', 'all']), /cronjob\.batch\/report/);
    assert.match(await k(['describe', 'cronjob', 'report']), /Schedule:\s+0 0 1 1 \*[\s\S]*Concurrency Policy:\s+Allow/);
    assert.match(await k(['explain', 'cronjob.spec.schedule']), /FIELD: schedule <string>/);
    const invalid = await kubectlRaw(cluster.kubeconfig, ['create', 'cronjob', 'bad', '--image=drover-test/busybox:1', '--schedule=61 * * * *']);
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /spec\.schedule: Invalid value: "61 \* \* \* \*"/);
  });

  it('kubectl create job --from=cronjob/report runs the template once, owned by the CronJob', async () => {
    await k(['create', 'job', 'report-by-hand', '--from=cronjob/report']);
    const job = await getJob('report-by-hand');
    assert.equal(job.metadata.annotations?.['cronjob.kubernetes.io/instantiate'], 'manual');
    assert.deepEqual(
      job.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]),
      [['CronJob', 'report', true]],
    );
    await k(['wait', '--for=condition=complete', 'job/report-by-hand', '--timeout=60s'], 70_000);
    assert.equal((await k(['logs', 'job/report-by-hand'])).trim(), 'report done');
  });

  it('starts the Job of a scheduled time that is due, and records it in the status', async () => {
    const year = new Date().getUTCFullYear();
    const newYear = Date.UTC(year, 0, 1);
    // Without a zone the schedule is the controller's local time: pin it to keep the name known.
    await k(['patch', 'cronjob', 'report', '--type=merge', '-p', '{"spec":{"timeZone":"UTC"}}']);
    assert.match(await k(['get', 'cronjob', 'report', '--no-headers']), /^report\s+0 0 1 1 \*\s+UTC\s+False/);
    await k([
      'patch',
      'cronjob',
      'report',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { lastScheduleTime: `${year - 1}-12-31T00:00:00Z` } }),
    ]);
    const name = `report-${newYear / 60_000}`;
    await waitFor(`Job ${name}`, async () => (await kubectlRaw(cluster.kubeconfig, ['get', 'job', name])).code === 0, 20_000);
    const job = await getJob(name);
    assert.equal(job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], `${year}-01-01T00:00:00Z`);
    assert.equal(await k(['get', 'cronjob', 'report', '-o', 'jsonpath={.status.lastScheduleTime}']), `${year}-01-01T00:00:00Z`);
    await k(['wait', '--for=condition=complete', `job/${name}`, '--timeout=60s'], 70_000);
    await waitFor(
      'active emptied and lastSuccessfulTime set',
      async () => {
        const status = JSON.parse(await k(['get', 'cronjob', 'report', '-o', 'jsonpath={.status}']));
        return (status.active ?? []).length === 0 && status.lastSuccessfulTime;
      },
      20_000,
    );
    const events = await k(['get', 'events', '--field-selector', 'involvedObject.kind=CronJob', '-o', 'jsonpath={.items[*].reason}']);
    for (const reason of ['SuccessfulCreate', 'SawCompletedJob']) assert.ok(events.includes(reason), `${reason} in ${events}`);
  });

  it('deleting the CronJob deletes its Jobs and their pods', async () => {
    await k(['delete', 'cronjob', 'report']);
    await waitFor('no Jobs left', async () => (await k(['get', 'jobs', '-o', 'name'])).trim() === '', 30_000);
    await waitFor('no pods left', async () => (await k(['get', 'pods', '-o', 'name'])).trim() === '', 30_000);
  });
});
