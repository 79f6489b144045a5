// bench:startup's pieces work (nothing here is timed): the stage breakdown's rows chain from
// `kubectl apply` to Running seen; against a real `drover up`, every pod started by kubectl has
// every stage noted by the API server, scheduler and agent, which only a cluster admin may read;
// raw `docker run` and the pod floor remove what they made; the churn run prints its waves; and
// a second agent joins, serves its own pods' stages, and leaves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient, ApiStatusError } from '../src/client/index.js';
import { loadClientConfig } from '../src/client/config.js';
import { POD_START_STAGES, POD_START_STAGES_PATH } from '../src/metrics/pod-start-stages.js';
import { POOL_MEMBER } from '../src/agent/runtime/labels.js';
import { startExtraAgent } from '../bench/startup-agents.js';
import { churn, churnLines } from '../bench/startup-churn.js';
import { containerIds, DroverPods } from '../bench/startup-drover.js';
import { PodFloor } from '../bench/pod-floor.js';
import { IMAGE } from '../bench/startup-drover.js';
import { rawDocker } from '../bench/startup-peers.js';
import { breakdownLines, rowMs, STAGE_ROWS, type PodMarks } from '../bench/startup-stages.js';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { ensureDocker } from './support/repo.js';
import { reserveTestNetwork, type TestNetwork } from './support/test-network.js';
import { startUpProcess, type UpProcess } from './support/up-process.js';

function assertEveryStage(marks: PodMarks[], count: number): void {
  assert.equal(marks.length, count);
  for (const pod of marks) {
    for (const row of STAGE_ROWS) assert.notEqual(rowMs(row, pod), undefined, `${row.label} of ${JSON.stringify(pod)}`);
  }
}

describe('bench:startup stage breakdown', () => {
  it("chains its rows: a pod's steps on the critical path add up to its total", () => {
    const marks: PodMarks = { applyStarted: 0, observed: 100 };
    POD_START_STAGES.forEach((stage, i) => (marks[stage] = 5 + i * 5));
    // The sandbox runs only after the app container was created: the wait shows.
    marks.sandboxStarted = marks.appCreated! + 7;
    const path = STAGE_ROWS.filter((row) => !row.aside && !row.label.startsWith('total'));
    const sum = path.reduce((total, row) => total + rowMs(row, marks)!, 0);
    assert.equal(sum, rowMs(STAGE_ROWS.at(-1)!, marks));
    assert.equal(
      rowMs(
        STAGE_ROWS.find((row) => row.label === 'wait for the sandbox to run')!,
        marks,
      ),
      7,
    );
    // Volumes ready before the sandbox (they are set up beside it): their row is 0 and the chain still adds up.
    const early: PodMarks = { ...marks, volumesReady: marks.runtimeRead! + 1 };
    const volumesRow = STAGE_ROWS.find((row) => row.label.startsWith('volumes'))!;
    assert.equal(rowMs(volumesRow, early), 0);
    assert.equal(
      path.reduce((total, row) => total + rowMs(row, early)!, 0),
      rowMs(STAGE_ROWS.at(-1)!, early),
    );
    const lines = breakdownLines([[marks]]);
    for (const row of STAGE_ROWS)
      assert.ok(
        lines.some((line) => line.includes(row.label)),
        row.label,
      );
  });
});

describe('bench:startup against drover up', { timeout: 300_000 }, () => {
  let cluster: UpProcess;
  let pods: DroverPods;
  let network: TestNetwork;

  before(async () => {
    requireKubectl();
    ensureDocker();
    // A pod network of its own, as the bench's (no service rules: the pods use none).
    network = reserveTestNetwork();
    cluster = await startUpProcess(`bench-${process.pid}`, { extraArgs: network.flags() });
    pods = await DroverPods.open(cluster.kubeconfig, cluster.nodeName);
  });
  after(async () => {
    await pods?.deleteAll().catch(() => undefined);
    pods?.close();
    await cluster?.stop();
    network?.release();
  });

  it('notes every stage of each pod kubectl starts, and deletes them', async () => {
    const started = await pods.start(3, 'smoke');
    assertEveryStage(started.marks, 3);
    assert.ok(!breakdownLines([started.marks]).some((line) => line.includes('lacked')));
    await pods.deleteAll();
    // What stays on the node is its sandbox pool (made ahead of pods, labelled as such), nothing of the pods.
    const onNode = await containerIds(`label=drover.dev/node=${cluster.nodeName}`);
    const pool = await containerIds(`label=drover.dev/node=${cluster.nodeName}`, `label=${POOL_MEMBER}`);
    assert.deepEqual(
      onNode.filter((id) => !pool.includes(id)),
      [],
    );
  });

  it('serves the stages to a cluster admin only', async () => {
    const { server, tls } = await loadClientConfig({ kubeconfig: cluster.kubeconfig });
    const token = (await kubectl(cluster.kubeconfig, ['create', 'token', 'default'])).trim();
    const user = new ApiClient({ server, namespace: 'default', token, tls: { ca: tls!.ca! } });
    try {
      await assert.rejects(user.request('GET', POD_START_STAGES_PATH), (error: unknown) => error instanceof ApiStatusError && error.code === 403);
    } finally {
      user.close();
    }
  });

  it('raw docker and the pod floor leave no container behind', async () => {
    await rawDocker(2);
    assert.deepEqual(await containerIds(`label=drover-bench=startup-${process.pid}`), []);
    const floor = new PodFloor();
    await floor.start(2, IMAGE, ['sleep', '3600']);
    assert.equal((await containerIds(`label=drover.dev/bench-floor=${floor.run}`)).length, 4, 'two pods: a sandbox and an app container each');
    await floor.removeAll();
    assert.deepEqual(await containerIds(`label=drover.dev/bench-floor=${floor.run}`), []);
  });

  it('churns waves one after another and prints each', async () => {
    const figures = await churn(pods, 2, 1, undefined, false);
    assert.equal(figures.drover.length, 2);
    figures.marks.forEach((wave) => assertEveryStage(wave, 1));
    const lines = churnLines(figures, 1).join('\n');
    assert.match(lines, /^ +1 +\d+/m);
    assert.match(lines, /^ +2 +\d+/m);
  });

  it('starts pods on a second agent, which serves the stages of its own', async () => {
    const second = await startExtraAgent(cluster.dataDir, `${cluster.nodeName}-b`, network.flags());
    pods.stageSources.add(second.stageRecords);
    pods.nodeNames.add(second.nodeName);
    // The first node cordoned: the pods go to the second, whose process alone holds their agent stages.
    await kubectl(cluster.kubeconfig, ['cordon', cluster.nodeName]);
    try {
      const started = await pods.start(2, 'second');
      assertEveryStage(started.marks, 2);
      const nodes = await kubectl(cluster.kubeconfig, ['get', 'pods', '-l', 'bench=startup', '-o', 'jsonpath={.items[*].spec.nodeName}']);
      assert.deepEqual(nodes.split(' '), [second.nodeName, second.nodeName]);
      await pods.deleteAll();
    } finally {
      await kubectl(cluster.kubeconfig, ['uncordon', cluster.nodeName]);
      pods.stageSources.delete(second.stageRecords);
      await second.stop();
      pods.nodeNames.delete(second.nodeName);
    }
    assert.deepEqual(await containerIds(`label=drover.dev/node=${second.nodeName}`), []);
  });
});
