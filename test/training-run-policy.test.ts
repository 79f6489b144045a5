// The run policy of training jobs end to end (drover up, real kubectl, host processes), each
// case a Kubeflow bug we do not copy or a policy a user relies on: ExitCode 137 recreates the
// pod and counts it; ExitCode 1 fails at once (kubeflow/trainer#2044); recreations count against
// backoffLimit (#2045); cleanPodPolicy holds on the backoff (#3419) and deadline paths; suspend
// and resume; ttlSecondsAfterFinished; restartScope Gang. The cases run at once on one cluster.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTrainingCluster, type TrainingCluster } from './support/training-cluster.js';
import { waitFor } from './support/wait-for.js';

interface Replica {
  command: string;
  restartPolicy?: string;
  replicas?: number;
}

function pytorchJob(name: string, runPolicy: Record<string, unknown>, master: Replica, worker?: Replica): string {
  const spec = (r: Replica) => ({
    replicas: r.replicas ?? 1,
    restartPolicy: r.restartPolicy ?? 'OnFailure',
    template: {
      spec: { runtimeClassName: 'process', terminationGracePeriodSeconds: 1, containers: [{ name: 'pytorch', image: 'sh', command: ['sh', '-c', r.command] }] },
    },
  });
  return JSON.stringify({
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name },
    spec: { runPolicy, pytorchReplicaSpecs: { Master: spec(master), ...(worker ? { Worker: spec(worker) } : {}) } },
  });
}

const SLEEP = 'exec sleep 600';

describe('training-job run policy', { concurrency: true, timeout: 120_000 }, () => {
  let c: TrainingCluster;
  let dir: string;
  /** A command that exits with `code` the first `times` runs (counted in a file), then runs `then`. */
  const failFirst = (name: string, code: number, times: number, then: string) =>
    `f=${dir}/${name}; n=$(cat $f 2>/dev/null || echo 0); echo $((n+1)) > $f; if [ $n -lt ${times} ]; then exit ${code}; fi; ${then}`;
  const runs = (name: string) => Number(readFileSync(join(dir, name), 'utf8').trim());
  const job = (name: string) => c.json(['get', 'pytorchjob', name]);
  const conditionTypes = async (name: string) => ((await job(name)).status?.conditions ?? []).filter((x: any) => x.status === 'True').map((x: any) => x.type);
  const podNames = async (name: string) =>
    (await c.json(['get', 'pods', '-l', `training.kubeflow.org/job-name=${name}`])).items
      .filter((p: any) => !p.metadata.deletionTimestamp)
      .map((p: any) => p.metadata.name)
      .sort();
  const serviceNames = async (name: string) =>
    (await c.json(['get', 'services', '-l', `training.kubeflow.org/job-name=${name}`])).items.map((s: any) => s.metadata.name).sort();
  const waitForCondition = (name: string, condition: string) =>
    c.k(['wait', `--for=condition=${condition}`, `pytorchjob/${name}`, '--timeout=60s'], undefined, 70_000);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'drover-training-'));
    c = await startTrainingCluster('runpolicy');
  });

  after(async () => {
    await c?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ExitCode: exit 137 deletes and recreates the pod, and every recreation counts', async () => {
    await c.k(['apply', '-f', '-'], pytorchJob('exit137', { backoffLimit: 5 }, { restartPolicy: 'ExitCode', command: failFirst('exit137', 137, 2, 'exit 0') }));
    await waitForCondition('exit137', 'Succeeded');
    const status = (await job('exit137')).status;
    assert.equal(status.restarts, 2);
    assert.equal(runs('exit137'), 3);
    // Running replaces Restarting again once the new pod runs (as in Kubeflow), so the event is what stays.
    const restarts = await c.k(['get', 'events', '--field-selector', 'involvedObject.name=exit137,reason=PyTorchJobRestarting', '-o', 'name']);
    assert.ok(restarts.trim() !== '', 'the job went through Restarting');
    const pod = await c.json(['get', 'pod', 'exit137-master-0']);
    assert.equal(pod.spec.restartPolicy, 'Never', 'ExitCode runs the pod with Never');
    const events = await c.k(['get', 'events', '--field-selector', 'involvedObject.name=exit137', '-o', 'jsonpath={range .items[*]}{.reason}{"\\n"}{end}']);
    assert.match(events, /SuccessfulDeletePod/);
    assert.match(events, /PyTorchJobRestarting/);
    assert.match(events, /ExitedWithCode/);
    // The recreated pod (same name, same host port) waited for its predecessor's cleanup on the node, not for a retry.
    const podEvents = await c.k([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=exit137-master-0',
      '-o',
      'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
    ]);
    assert.doesNotMatch(podEvents, /FailedCreatePodSandBox/);
    assert.match(await c.k(['get', 'transactions', '--no-headers']), /PyTorchJob\/exit137\s+restart\s+Succeeded/);
  });

  it('ExitCode: exit 1 fails the job at once, never Restarting (kubeflow/trainer#2044)', async () => {
    await c.k(['apply', '-f', '-'], pytorchJob('exit1', { backoffLimit: 5 }, { restartPolicy: 'ExitCode', command: failFirst('exit1', 1, 99, 'exit 0') }));
    await waitForCondition('exit1', 'Failed');
    const status = (await job('exit1')).status;
    assert.equal(runs('exit1'), 1, 'never recreated');
    assert.equal(status.restarts ?? 0, 0);
    assert.ok(!status.conditions.some((x: any) => x.type === 'Restarting'));
    assert.match(status.conditions.find((x: any) => x.type === 'Failed').message, /exit code 1/);
  });

  it('backoffLimit counts recreations: exit 137 forever stops after backoffLimit recreations (kubeflow/trainer#2045)', async () => {
    await c.k(
      ['apply', '-f', '-'],
      pytorchJob('backoff', { backoffLimit: 2 }, { restartPolicy: 'ExitCode', command: failFirst('backoff', 137, 99, 'exit 0') }),
    );
    await waitForCondition('backoff', 'Failed');
    const status = (await job('backoff')).status;
    assert.match(status.conditions.find((x: any) => x.type === 'Failed').message, /backoff limit/);
    assert.equal(status.restarts, 2);
    assert.equal(runs('backoff'), 3, 'the first run and two recreations');
  });

  it('backoffLimit counts container restarts in place (OnFailure) through restartCount', async () => {
    await c.k(
      ['apply', '-f', '-'],
      pytorchJob('inplace', { backoffLimit: 1 }, { command: SLEEP }, { restartPolicy: 'OnFailure', command: failFirst('inplace', 1, 99, 'exit 0') }),
    );
    await waitForCondition('inplace', 'Failed');
    const status = (await job('inplace')).status;
    assert.match(status.conditions.find((x: any) => x.type === 'Failed').message, /backoff limit/);
    assert.equal(status.restarts, 2, 'the second restart passed backoffLimit 1');
    const worker = await c.json(['get', 'pod', 'inplace-worker-0']);
    assert.equal(worker.spec.restartPolicy, 'OnFailure');
    assert.ok(worker.status.containerStatuses[0].restartCount >= 2, 'restarted in place by the agent, not recreated');
  });

  it('cleanPodPolicy None holds on the backoffLimit path: the running worker and the Services stay (kubeflow/trainer#3419)', async () => {
    await c.k(
      ['apply', '-f', '-'],
      pytorchJob(
        'keep',
        { backoffLimit: 0, cleanPodPolicy: 'None' },
        { restartPolicy: 'ExitCode', command: failFirst('keep', 137, 99, 'exit 0') },
        { command: SLEEP },
      ),
    );
    await waitForCondition('keep', 'Failed');
    // The worker may still have been starting when the job failed: it goes on to run.
    await waitFor('the worker running on', async () => (await c.json(['get', 'pod', 'keep-worker-0'])).status.phase === 'Running', 15_000);
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(await podNames('keep'), ['keep-master-0', 'keep-worker-0']);
    assert.deepEqual(await serviceNames('keep'), ['keep-master-0', 'keep-worker-0']);
  });

  it('cleanPodPolicy Running holds on the activeDeadlineSeconds path: running pods and their Services go', async () => {
    await c.k(['apply', '-f', '-'], pytorchJob('deadline', { activeDeadlineSeconds: 2, cleanPodPolicy: 'Running' }, { command: SLEEP }, { command: SLEEP }));
    await waitForCondition('deadline', 'Failed');
    const status = (await job('deadline')).status;
    assert.match(status.conditions.find((x: any) => x.type === 'Failed').message, /deadline/);
    await waitFor('the running pods deleted', async () => (await podNames('deadline')).length === 0, 15_000);
    await waitFor('their Services deleted', async () => (await serviceNames('deadline')).length === 0, 15_000);
  });

  it('suspend removes pods, Services and the PodGroup and keeps the job; resume recreates them with a new startTime', async () => {
    await c.k(['apply', '-f', '-'], pytorchJob('pause', { suspend: true }, { command: SLEEP }, { command: SLEEP }));
    await waitForCondition('pause', 'Suspended');
    assert.deepEqual(await podNames('pause'), []);
    await c.k(['patch', 'pytorchjob', 'pause', '--type=merge', '-p', '{"spec":{"runPolicy":{"suspend":false}}}']);
    await waitForCondition('pause', 'Running');
    const firstStart = (await job('pause')).status.startTime;
    assert.ok(firstStart);
    assert.equal((await c.json(['get', 'podgroup', 'pause'])).spec.minMember, 2);
    await c.k(['patch', 'pytorchjob', 'pause', '--type=merge', '-p', '{"spec":{"runPolicy":{"suspend":true}}}']);
    await waitForCondition('pause', 'Suspended');
    await waitFor('pods and Services gone', async () => (await podNames('pause')).length === 0 && (await serviceNames('pause')).length === 0, 15_000);
    await waitFor('the PodGroup gone', async () => !(await c.k(['get', 'podgroups', '--no-headers', '--ignore-not-found'])).includes('pause'), 15_000);
    assert.equal((await job('pause')).status.startTime, undefined);
    assert.ok(!(await conditionTypes('pause')).includes('Running'));
    await new Promise((r) => setTimeout(r, 1100)); // startTime has a resolution of seconds
    await c.k(['patch', 'pytorchjob', 'pause', '--type=merge', '-p', '{"spec":{"runPolicy":{"suspend":false}}}']);
    await waitForCondition('pause', 'Running');
    assert.deepEqual(await podNames('pause'), ['pause-master-0', 'pause-worker-0']);
    assert.ok(Date.parse((await job('pause')).status.startTime) > Date.parse(firstStart), 'startTime reset on resume');
  });

  it('ttlSecondsAfterFinished deletes the finished job, and its pods with it', async () => {
    await c.k(['apply', '-f', '-'], pytorchJob('ttl', { ttlSecondsAfterFinished: 1 }, { command: 'exit 0' }));
    await c.k(['apply', '-f', '-'], pytorchJob('ttlclean', { ttlSecondsAfterFinished: 1, cleanPodPolicy: 'All' }, { command: 'exit 0' }));
    await waitForCondition('ttl', 'Succeeded');
    await waitFor('the job deleted', async () => (await c.k(['get', 'pytorchjobs', '--no-headers', '--ignore-not-found'])).includes('ttl ') === false, 20_000);
    await waitFor('its pods collected', async () => (await podNames('ttl')).length === 0, 20_000);
    // With pods left the garbage collector records the deletion; with none (cleanPodPolicy All), the controller does.
    for (const name of ['ttl', 'ttlclean']) {
      await waitFor(
        `a delete Transaction of ${name}`,
        async () => new RegExp(`PyTorchJob/${name}\\s+delete\\s+Succeeded`).test(await c.k(['get', 'transactions', '--no-headers'])),
        15_000,
      );
    }
    assert.equal(await c.k(['get', 'pytorchjob', 'ttlclean', '--ignore-not-found']), '');
  });

  it('restartScope Gang: one failed worker restarts every pod of the job, counted once', async () => {
    await c.k(
      ['apply', '-f', '-'],
      pytorchJob(
        'gang',
        { restartScope: 'Gang', backoffLimit: 3 },
        { command: SLEEP },
        { replicas: 2, command: `[ "$RANK" = 2 ] && { ${failFirst('gang', 137, 1, SLEEP)}; }; ${SLEEP}` },
      ),
    );
    const group = await waitFor('the PodGroup', async () => c.json(['get', 'podgroup', 'gang']).catch(() => undefined), 15_000);
    assert.equal(group.spec.minMember, 3);
    assert.equal(group.metadata.ownerReferences[0].kind, 'PyTorchJob');
    const status = await waitFor(
      'the gang restarted and running again',
      async () => {
        const s = (await job('gang')).status;
        return s?.restarts === 1 && s.conditions?.some((x: any) => x.type === 'Running' && x.status === 'True') && s;
      },
      40_000,
    );
    assert.equal(status.replicaStatuses.Worker.active, 2);
    await waitFor('the failed worker to run again with the new gang', async () => runs('gang') === 2, 15_000);
    const events = await c.k(['get', 'events', '--field-selector', 'involvedObject.name=gang', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}']);
    for (const pod of ['gang-master-0', 'gang-worker-0', 'gang-worker-1'])
      assert.match(events, new RegExp(`Deleted pod: ${pod}`), `${pod} was recreated with the gang`);
    assert.match(events, /restarting the whole gang/);
    // The PodGroup follows the job's scheduling policy.
    await c.k([
      'patch',
      'pytorchjob',
      'gang',
      '--type=merge',
      '-p',
      '{"spec":{"runPolicy":{"schedulingPolicy":{"minAvailable":2,"scheduleTimeoutSeconds":30}}}}',
    ]);
    await waitFor(
      'the PodGroup updated',
      async () => {
        const spec = (await c.json(['get', 'podgroup', 'gang'])).spec;
        return spec.minMember === 2 && spec.scheduleTimeoutSeconds === 30;
      },
      15_000,
    );
  });
});
