// The pod sync against a runtime held in memory (test/support/agent/fake-runtime.ts) and a real
// API server: what the sync asks the runtime for, in which order, and the status it writes —
// sandbox first, init containers one at a time, restarts by restartPolicy under the crash
// back-off, kills on a changed spec and on deletion. No Docker: the test plays the engine.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FakeRuntime } from '../../../../test/support/agent/fake-runtime.js';
import { startFakeNodeBed, type FakeNodeBed } from '../../../../test/support/agent/fake-node.js';
import { isNotFound, resources } from '../../../client/index.js';
import { waitFor } from '../../../../test/support/wait-for.js';
import { podSpec, type TestCluster } from '../../../../test/support/agent/agent-cluster.js';
import { PodRecord } from '../record.js';
import { RESYNC_MS, syncPod, terminatePod } from './sync-pod.js';
import type { Container, Pod } from '../../../api/core/index.js';

describe('pod sync against a fake runtime', () => {
  let bed: FakeNodeBed;
  let cluster: TestCluster;

  before(async () => {
    bed = await startFakeNodeBed('sync-unit');
    cluster = bed.cluster;
  });

  after(() => bed.close());

  /** One pod on one node, synced as the pod worker does: each sync sees the pod as the API has it now. */
  async function worker(name: string, containers: Array<Partial<Container>>, spec: Partial<Pod['spec']> = {}, runtime = new FakeRuntime()) {
    const deps = bed.deps(runtime);
    const record = new PodRecord(await cluster.pods.create(podSpec(name, cluster.nodeName, containers, spec)));
    return {
      runtime,
      deps,
      async sync() {
        record.pod = await cluster.pods.get(name);
        return syncPod(deps, record);
      },
      /** What the pod manager runs for a deleted pod, off its workers. */
      async end() {
        record.pod = await cluster.pods.get(name);
        await terminatePod(deps, record);
      },
      /** The calls a sync (or another step) made. */
      async callsOf(step: () => Promise<unknown> = () => this.sync()): Promise<string[]> {
        const before = runtime.calls.length;
        await step();
        return runtime.calls.slice(before);
      },
      pod: () => cluster.pods.get(name),
    };
  }

  async function reasons(name: string): Promise<string[]> {
    const list = await cluster.api.resource(resources.events, 'default').list();
    return list.items.filter((e) => (e['involvedObject'] as { name?: string }).name === name).map((e) => String(e['reason']));
  }

  test("a new pod: its sandbox first, then its container made and started in it; Running with the sandbox's IP", async () => {
    const w = await worker('fresh', [{ name: 'app' }]);
    assert.deepEqual(await w.callsOf(), ['createSandbox', 'createContainer app', 'startContainer app']);
    const pod = await w.pod();
    const [sandbox] = w.runtime.sandboxes;
    const [app] = w.runtime.containersNamed('app');
    assert.equal(pod.status?.phase, 'Running');
    assert.equal(pod.status?.podIP, sandbox?.ip);
    assert.equal(pod.status?.containerStatuses?.[0]?.containerID, `docker://${app?.id}`);
    assert.equal(app?.labels['drover.dev/sandbox-id'], sandbox?.id);
    assert.deepEqual(await w.callsOf(), [], 'a pod that runs as asked is left alone');
  });

  test('init containers run one at a time, in order, and the app only after all succeeded', async () => {
    const w = await worker('inits', [{ name: 'app' }], {
      initContainers: [
        { name: 'a', image: 'drover-test/busybox:1' },
        { name: 'b', image: 'drover-test/busybox:1' },
      ],
    });
    assert.deepEqual(await w.callsOf(), ['createSandbox', 'createContainer a', 'startContainer a']);
    let pod = await w.pod();
    assert.equal(pod.status?.phase, 'Pending');
    assert.equal(pod.status?.containerStatuses?.[0]?.state.waiting?.reason, 'PodInitializing');
    assert.deepEqual(await w.callsOf(), [], 'b waits while a runs');
    w.runtime.exit('a', 0);
    assert.deepEqual(await w.callsOf(), ['createContainer b', 'startContainer b']);
    w.runtime.exit('b', 0);
    assert.deepEqual(await w.callsOf(), ['createContainer app', 'startContainer app']);
    pod = await w.pod();
    assert.equal(pod.status?.phase, 'Running');
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'Initialized')?.status, 'True');
  });

  test('a failed init container under restartPolicy Never fails the pod and nothing else starts', async () => {
    const w = await worker('init-fails', [{ name: 'app' }], { restartPolicy: 'Never', initContainers: [{ name: 'a', image: 'drover-test/busybox:1' }] });
    await w.sync();
    w.runtime.exit('a', 3);
    const calls = await w.callsOf();
    assert.ok(!calls.some((c) => c.startsWith('createContainer')), calls.join(', '));
    assert.equal((await w.pod()).status?.phase, 'Failed');
  });

  test('restartPolicy Always: a crash restarts at once, the next waits out the back-off in CrashLoopBackOff', async () => {
    const w = await worker('crashy', [{ name: 'app' }]);
    await w.sync();
    w.runtime.exit('app', 1);
    assert.deepEqual(await w.callsOf(), ['createContainer app', 'startContainer app']);
    assert.equal((await w.pod()).status?.containerStatuses?.[0]?.restartCount, 1);
    w.runtime.exit('app', 1);
    const before = w.runtime.calls.length;
    const result = await w.sync();
    assert.deepEqual(w.runtime.calls.slice(before), [], 'no start inside the back-off');
    const status = (await w.pod()).status?.containerStatuses?.[0];
    assert.equal(status?.state.waiting?.reason, 'CrashLoopBackOff');
    assert.equal(status?.lastState.terminated?.exitCode, 1);
    // The sync asks to be run again when the back-off (10 s after the first restart) ends.
    assert.ok((result.requeueAfterMs ?? 0) > 0 && (result.requeueAfterMs ?? 0) <= RESYNC_MS, String(result.requeueAfterMs));
    assert.ok((await reasons('crashy')).includes('BackOff'));
  });

  test('restartPolicy OnFailure: exit 0 is Succeeded and not restarted; Never: exit 1 is Failed and not restarted', async () => {
    const done = await worker('done', [{ name: 'app' }], { restartPolicy: 'OnFailure' });
    await done.sync();
    done.runtime.exit('app', 0);
    assert.deepEqual(await done.callsOf(), []);
    assert.equal((await done.pod()).status?.phase, 'Succeeded');
    const failed = await worker('failed', [{ name: 'app' }], { restartPolicy: 'Never' });
    await failed.sync();
    failed.runtime.exit('app', 1);
    const result = await failed.sync();
    assert.equal((await failed.pod()).status?.phase, 'Failed');
    // Finished: looked at again at once, and then its sandbox is stopped too; nothing of it runs.
    assert.equal(result.requeueAfterMs, 0);
    assert.deepEqual(await failed.callsOf(), ['stopContainer sandbox']);
    assert.deepEqual(
      failed.runtime.sandboxes.map((s) => s.state),
      ['exited'],
    );
    assert.equal(failed.runtime.containersNamed('app').length, 1, 'its container stays, for logs');
  });

  test('a changed container spec kills the running container and starts the new one at once', async () => {
    const w = await worker('upgrade', [{ name: 'app' }]);
    await w.sync();
    const pod = await w.pod();
    pod.spec.containers[0]!.image = 'drover-test/busybox:2';
    await cluster.pods.update(pod);
    assert.deepEqual(await w.callsOf(), ['stopContainer app', 'createContainer app', 'startContainer app']);
    assert.deepEqual(
      w.runtime.containersNamed('app').map((c) => [c.image, c.state]),
      [
        ['drover-test/busybox:1', 'exited'],
        ['drover-test/busybox:2', 'running'],
      ],
    );
    assert.ok((await reasons('upgrade')).includes('Killing'));
  });

  test('a dead sandbox is replaced and the pod started over in the new one', async () => {
    const w = await worker('phoenix', [{ name: 'app' }]);
    await w.sync();
    const [old] = w.runtime.sandboxes;
    w.runtime.killSandbox(old!.id);
    const calls = await w.callsOf();
    assert.deepEqual(calls, ['createSandbox', 'removeSandbox', 'createContainer app', 'startContainer app']);
    const [fresh] = w.runtime.sandboxes;
    assert.notEqual(fresh?.id, old?.id);
    assert.equal(w.runtime.containersNamed('app').at(-1)?.labels['drover.dev/sandbox-id'], fresh?.id);
    assert.equal((await w.pod()).status?.podIP, fresh?.ip);
    assert.ok((await reasons('phoenix')).includes('SandboxChanged'));
  });

  test('a missing image is ErrImagePull and no container is made', async () => {
    const w = await worker('noimage', [{ name: 'app', image: 'drover-test/none:1' }]);
    w.runtime.missingImages.add('drover-test/none:1');
    const calls = await w.callsOf();
    assert.deepEqual(calls, ['createSandbox', 'pullImage drover-test/none:1']);
    assert.equal((await w.pod()).status?.containerStatuses?.[0]?.state.waiting?.reason, 'ErrImagePull');
  });

  test('a sandbox still starting: the container is made meanwhile and started once the sandbox runs', async () => {
    const w = await worker('halves', [{ name: 'app' }], {}, new FakeRuntime('docker', { twoHalves: true }));
    const syncing = w.sync();
    await waitFor('the container made while its sandbox starts', () => w.runtime.calls.includes('createContainer app'));
    assert.equal(w.runtime.sandboxStartsHeld, 1);
    assert.ok(!w.runtime.calls.includes('startContainer app'), 'not started before its sandbox runs');
    w.runtime.finishSandboxStart();
    await syncing;
    assert.deepEqual(w.runtime.calls, ['createSandbox', 'createContainer app', 'sandbox running', 'startContainer app']);
    const pod = await w.pod();
    assert.equal(pod.status?.phase, 'Running');
    assert.equal(pod.status?.podIP, w.runtime.sandboxes[0]?.ip);
  });

  test('a sandbox that cannot start: the container made meanwhile goes, and the next try waits for the back-off', async () => {
    const w = await worker('no-start', [{ name: 'app' }], {}, new FakeRuntime('docker', { twoHalves: true }));
    const syncing = w.sync();
    await waitFor('the container made while its sandbox starts', () => w.runtime.calls.includes('createContainer app'));
    w.runtime.finishSandboxStart('port is already allocated');
    const result = await syncing;
    assert.deepEqual(w.runtime.calls, ['createSandbox', 'createContainer app', 'sandbox failed', 'removeContainer app']);
    assert.deepEqual(w.runtime.sandboxes, []);
    assert.deepEqual(w.runtime.containersNamed('app'), [], 'a container that never ran leaves no trace');
    assert.ok((await reasons('no-start')).includes('FailedCreatePodSandBox'));
    const pod = await w.pod();
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status, 'False');
    assert.ok((result.requeueAfterMs ?? 0) > 0, String(result.requeueAfterMs));
    assert.deepEqual(await w.callsOf(), [], 'no new sandbox inside the back-off');
  });

  test('a deleted pod: its containers stopped, its objects removed, and the pod object deleted', async () => {
    const w = await worker('leaving', [{ name: 'app' }]);
    await w.sync();
    await cluster.pods.delete('leaving');
    const calls = await w.callsOf(() => w.end());
    await w.deps.reaper.drain();
    assert.equal(calls[0], 'stopContainer app');
    assert.deepEqual(w.runtime.sandboxes, []);
    assert.deepEqual(w.runtime.containersNamed('app'), []);
    await assert.rejects(cluster.pods.get('leaving'), (error: unknown) => isNotFound(error));
  });
});
