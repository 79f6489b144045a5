// The CronJob controller against a real API server, on a clock the test moves. No Job
// controller runs: the test finishes Jobs itself by writing their status.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metaTime } from '../../api/meta.js';
import { resources } from '../../client/index.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { useControllerTest } from '../../../test/support/controllers/controller-test.js';
import { CronJobController } from './cronjob-controller.js';
import { SCHEDULED_TIMESTAMP_ANNOTATION, type CronJob, type CronJobSpec, type Job } from './types.js';

const HOUR = 3600_000;
const MINUTE = 60_000;

describe('cronjob controller', () => {
  const bed = useControllerTest((ctx) => (controller = new CronJobController(ctx, { now, defaultTimeZone: 'UTC' })));
  let controller: CronJobController;
  /** The fake clock runs at the real pace, shifted by this much. */
  let offset = 0;
  const now = () => Date.now() + offset;
  /** Moves the clock to `at` and has the controller look at every CronJob. */
  const setClock = (at: number) => {
    offset = at - Date.now();
    controller.resync();
  };

  const cronJobs = () => bed.api.resource<CronJob>(resources.cronjobs, 'default');
  const jobs = () => bed.api.resource<Job>(resources.jobs, 'default');

  function manifest(name: string, spec: Partial<CronJobSpec> = {}): CronJob {
    return {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name, namespace: 'default' },
      spec: {
        schedule: '0 * * * *',
        jobTemplate: {
          metadata: { labels: { app: name }, annotations: { team: 'ops' } },
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'drover-test/busybox:1' }] } } },
        },
        ...spec,
      },
    };
  }

  /** A created CronJob, and the first whole hour after its creation. */
  async function create(name: string, spec: Partial<CronJobSpec> = {}): Promise<{ cronJob: CronJob; hour: number }> {
    offset = 0;
    const cronJob = await cronJobs().create(manifest(name, spec));
    const created = Date.parse(cronJob.metadata.creationTimestamp!);
    return { cronJob, hour: Math.floor(created / HOUR) * HOUR + HOUR };
  }

  const jobsOf = async (cronJob: CronJob) =>
    (await jobs().list()).items.filter((j) => !j.metadata.deletionTimestamp && j.metadata.ownerReferences?.some((r) => r.uid === cronJob.metadata.uid));
  const jobName = (cronJob: CronJob, at: number) => `${cronJob.metadata.name}-${at / MINUTE}`;

  async function events(name: string): Promise<string[]> {
    const list = await bed.api.resource(resources.events, 'default').list();
    return list.items
      .filter((e) => (e['involvedObject'] as { name: string; kind: string }).name === name && (e['involvedObject'] as { kind: string }).kind === 'CronJob')
      .map((e) => `${String(e['reason'])}: ${String(e['message'])}`);
  }
  const hasEvent = (name: string, prefix: string) => waitFor(`event ${prefix}`, async () => (await events(name)).some((e) => e.startsWith(prefix)));

  async function finish(name: string, type: 'Complete' | 'Failed', at: number): Promise<void> {
    const time = metaTime(new Date(at));
    await jobs().patch(
      name,
      'merge',
      {
        status: {
          startTime: time,
          ...(type === 'Complete' ? { completionTime: time, succeeded: 1 } : { failed: 1 }),
          conditions: [{ type, status: 'True', lastProbeTime: time, lastTransitionTime: time }],
        },
      },
      { subresource: 'status' },
    );
  }

  async function statusOf(name: string) {
    return (await cronJobs().get(name)).status ?? {};
  }

  it('starts the Job of a scheduled time once it is due, and lists it as active', async () => {
    const { cronJob, hour } = await create('hourly');
    setClock(hour - 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await jobsOf(cronJob)).length, 0, 'not yet due');
    setClock(hour + 5_000);
    const [job] = await waitFor('the Job', async () => {
      const list = await jobsOf(cronJob);
      return list.length > 0 ? list : undefined;
    });
    assert.equal(job!.metadata.name, jobName(cronJob, hour));
    assert.deepEqual(job!.metadata.labels, { app: 'hourly' });
    assert.equal(job!.metadata.annotations?.[SCHEDULED_TIMESTAMP_ANNOTATION], new Date(hour).toISOString().replace('.000Z', 'Z'));
    assert.equal(job!.metadata.annotations?.['team'], 'ops');
    assert.deepEqual(job!.metadata.ownerReferences, [
      { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hourly', uid: cronJob.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    const status = await waitFor('status', async () => {
      const s = await statusOf('hourly');
      return s.active?.length === 1 ? s : undefined;
    });
    assert.equal(status.active![0]!.name, job!.metadata.name);
    assert.equal(status.lastScheduleTime, metaTime(new Date(hour)));
    await hasEvent('hourly', `SuccessfulCreate: Created job ${job!.metadata.name}`);

    await finish(job!.metadata.name!, 'Complete', hour + 60_000);
    const done = await waitFor('active emptied', async () => {
      const s = await statusOf('hourly');
      return (s.active ?? []).length === 0 && s.lastSuccessfulTime ? s : undefined;
    });
    assert.equal(done.lastSuccessfulTime, metaTime(new Date(hour + 60_000)));
    await hasEvent('hourly', `SawCompletedJob: Saw completed job: ${job!.metadata.name}, condition: Complete`);
    await cronJobs().delete('hourly');
  });

  it('is requeued for the next scheduled time instead of polling', async () => {
    const { cronJob, hour } = await create('timely');
    offset = hour - 1_500 - Date.now(); // no resync: only the controller's own timer can start it
    await cronJobs().patch('timely', 'merge', { metadata: { labels: { nudge: '1' } } });
    await waitFor('the Job at the next time', async () => (await jobsOf(cronJob)).some((j) => j.metadata.name === jobName(cronJob, hour)), 8_000);
    await cronJobs().delete('timely');
  });

  it('Forbid skips a start while a Job runs; Replace deletes it first', async () => {
    const forbid = await create('forbid', { concurrencyPolicy: 'Forbid' });
    const replace = await create('replace', { concurrencyPolicy: 'Replace' });
    const hour = Math.max(forbid.hour, replace.hour);
    setClock(hour + 1_000);
    await waitFor('first Jobs', async () => (await jobsOf(forbid.cronJob)).length === 1 && (await jobsOf(replace.cronJob)).length === 1);
    await waitFor('both listed', async () => (await statusOf('forbid')).active?.length === 1 && (await statusOf('replace')).active?.length === 1);
    setClock(hour + HOUR + 1_000);
    await hasEvent('forbid', 'JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid');
    assert.deepEqual(
      (await jobsOf(forbid.cronJob)).map((j) => j.metadata.name),
      [jobName(forbid.cronJob, hour)],
    );
    await waitFor('replaced', async () => (await jobsOf(replace.cronJob)).map((j) => j.metadata.name).join() === jobName(replace.cronJob, hour + HOUR));
    await hasEvent('replace', `SuccessfulDelete: Deleted job ${jobName(replace.cronJob, hour)}`);
    const status = await waitFor('replace lists the new one', async () => {
      const s = await statusOf('replace');
      return s.active?.length === 1 && s.active[0]!.name === jobName(replace.cronJob, hour + HOUR) ? s : undefined;
    });
    assert.equal(status.lastScheduleTime, metaTime(new Date(hour + HOUR)));
    await cronJobs().delete('forbid');
    await cronJobs().delete('replace');
  });

  it('suspend stops new starts', async () => {
    const { cronJob, hour } = await create('paused', { suspend: true });
    setClock(hour + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await jobsOf(cronJob)).length, 0);
    await cronJobs().patch('paused', 'merge', { spec: { suspend: false } });
    await waitFor('started once resumed', async () => (await jobsOf(cronJob)).length === 1);
    await cronJobs().delete('paused');
  });

  it('skips a start later than startingDeadlineSeconds', async () => {
    const { cronJob, hour } = await create('late', { startingDeadlineSeconds: 60 });
    setClock(hour + 2 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await jobsOf(cronJob)).length, 0, 'past the deadline: earliest is now - 60 s, after the hour');
    setClock(hour + HOUR + 30_000);
    await waitFor('the next one, within its deadline', async () => (await jobsOf(cronJob)).some((j) => j.metadata.name === jobName(cronJob, hour + HOUR)));
    await cronJobs().delete('late');
  });

  it('warns about more than 100 missed times and starts only the latest', async () => {
    const { cronJob, hour } = await create('behind', { schedule: '* * * * *' });
    setClock(hour + 3 * HOUR + 10_000);
    await waitFor('one Job', async () => (await jobsOf(cronJob)).length === 1);
    assert.equal((await jobsOf(cronJob))[0]!.metadata.name, jobName(cronJob, hour + 3 * HOUR));
    await hasEvent('behind', 'TooManyMissedTimes: too many missed start times: ');
    await cronJobs().delete('behind');
  });

  it('deletes finished Jobs past the history limits, oldest first', async () => {
    const { cronJob, hour } = await create('trimmed', { successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 0 });
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      setClock(hour + i * HOUR + 1_000);
      const name = jobName(cronJob, hour + i * HOUR);
      names.push(name);
      await waitFor(`Job ${i}`, async () => (await statusOf('trimmed')).active?.some((r) => r.name === name));
      await finish(name, i === 1 ? 'Failed' : 'Complete', hour + i * HOUR + 2_000);
      await waitFor(`Job ${i} seen finished`, async () => (await statusOf('trimmed')).active?.length === 0);
    }
    await waitFor('only the newest success kept', async () => (await jobsOf(cronJob)).map((j) => j.metadata.name).join() === names[2]);
    await hasEvent('trimmed', `SuccessfulDelete: Deleted job ${names[0]}`);
    await hasEvent('trimmed', `SuccessfulDelete: Deleted job ${names[1]}`);
    await cronJobs().delete('trimmed');
  });

  it('unlists an active Job that was deleted', async () => {
    const { cronJob, hour } = await create('vanishing');
    setClock(hour + 1_000);
    await waitFor('listed', async () => (await statusOf('vanishing')).active?.length === 1);
    await jobs().delete(jobName(cronJob, hour));
    await waitFor('unlisted', async () => (await statusOf('vanishing')).active?.length === 0);
    await hasEvent('vanishing', `MissingJob: Active job went missing: ${jobName(cronJob, hour)}`);
    await cronJobs().delete('vanishing');
  });

  it("schedules in the CronJob's time zone", async () => {
    const { cronJob } = await create('zoned', { schedule: '30 * * * *', timeZone: 'Asia/Kolkata' });
    // Kolkata is UTC+5:30: its hh:30 is a whole UTC hour.
    const created = Date.parse(cronJob.metadata.creationTimestamp!);
    const hour = Math.floor(created / HOUR) * HOUR + HOUR;
    setClock(hour + 1_000);
    const job = await waitFor('the Job', async () => (await jobsOf(cronJob))[0]);
    assert.equal(job.metadata.name, jobName(cronJob, hour));
    assert.match(job.metadata.annotations?.[SCHEDULED_TIMESTAMP_ANNOTATION] ?? '', /T\d\d:30:00\+05:30$/);
    await cronJobs().delete('zoned');
  });
});
