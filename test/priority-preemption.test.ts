// PriorityClasses and preemption end to end, with real kubectl and one hollow node of 2 cpus:
// the built-in classes are listed, two low-priority pods fill the node, a pod of a Never class
// waits, and a high-priority pod preempts one low pod (deleted, with a Preempted event) and is
// bound to the node it was nominated for; room freed later goes to the most important pending pod.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useCluster } from './support/cluster-fixture.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { pendingPod } from './fixtures/nodes.js';
import { waitFor } from './support/wait-for.js';

const PODS = '/api/v1/namespaces/default/pods';
const NODE = 'prio-0';

interface PodItem {
  metadata: { name: string; uid: string };
  spec: { nodeName?: string; priority?: number };
  status: { phase?: string; nominatedNodeName?: string; conditions?: Array<{ type: string; status: string }> };
}

describe('priority and preemption', () => {
  const cluster = useCluster();
  let simulation: DroverProcess | undefined;

  before(async () => {
    simulation = await startDroverProcess(
      ['simulate', '--nodes', '1', '--name-prefix', 'prio-', '--node-cpu', '2', '--kubeconfig', cluster.server().kubeconfig],
      '1 hollow nodes ready',
    );
  });
  after(async () => {
    await simulation?.stop();
  });

  const getPod = async (name: string): Promise<PodItem | undefined> => {
    const answer = await cluster.api('GET', `${PODS}/${name}`);
    return answer.status === 200 ? answer.body : undefined;
  };
  const createPod = async (name: string, priorityClassName: string) => {
    const body = pendingPod(name, { cpu: '1' });
    (body.spec as Record<string, unknown>)['priorityClassName'] = priorityClassName;
    const answer = await cluster.api('POST', PODS, body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body as PodItem;
  };

  it('kubectl get pc lists the built-in classes', async () => {
    const out = await cluster.kubectl(['get', 'pc']);
    assert.match(out, /^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\s+PREEMPTIONPOLICY/);
    assert.match(out, /system-cluster-critical\s+2000000000\s+false\s+\S+\s+PreemptLowerPriority/);
    assert.match(out, /system-node-critical\s+2000001000\s+false/);
    const refused = await cluster.kubectlRaw(['delete', 'pc', 'system-node-critical']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /this is a system priority class and cannot be deleted/);
  });

  it('a high-priority pod preempts a low one and is bound there; a Never pod waits', async () => {
    await cluster.kubectl(['create', 'priorityclass', 'low', '--value=100']);
    await cluster.kubectl(['create', 'priorityclass', 'high', '--value=1000']);
    await cluster.kubectl(['create', 'priorityclass', 'polite', '--value=1000', '--preemption-policy=Never']);
    const lows = [await createPod('low-0', 'low'), await createPod('low-1', 'low')];
    assert.equal(lows[0]!.spec.priority, 100);
    await waitFor(
      'the low pods running',
      async () => {
        const pods = await Promise.all(['low-0', 'low-1'].map(getPod));
        return pods.every((p) => p?.spec.nodeName === NODE && p.status.phase === 'Running');
      },
      15_000,
    );

    await createPod('polite', 'polite');
    await waitFor(
      'the polite pod unschedulable',
      async () => (await getPod('polite'))?.status.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False'),
      15_000,
    );

    const high = await createPod('high', 'high');
    const bound = await waitFor(
      'the high pod bound',
      async () => {
        const pod = await getPod('high');
        return pod?.spec.nodeName ? pod : undefined;
      },
      30_000,
    );
    assert.equal(bound.spec.nodeName, NODE);
    assert.equal(bound.status.nominatedNodeName, NODE);
    const remaining = (await Promise.all(['low-0', 'low-1'].map(getPod))).filter((p) => p !== undefined);
    assert.equal(remaining.length, 1, 'exactly one low pod was preempted');
    const events = await cluster.kubectl([
      'get',
      'events',
      '--field-selector',
      'reason=Preempted',
      '-o',
      'jsonpath={range .items[*]}{.involvedObject.name} {.message}{"\\n"}{end}',
    ]);
    assert.match(events, new RegExp(`^low-[01] Preempted by pod ${high.metadata.uid} on node ${NODE}$`, 'm'));
    // The Never pod took nothing: it still waits, and no pod of priority 1000 was touched.
    const polite = await getPod('polite');
    assert.equal(polite?.spec.nodeName, undefined);
    assert.equal(polite?.status.nominatedNodeName, undefined);
  });

  it('the queue takes higher priority first: freed room goes to the later, more important pod', async () => {
    await cluster.kubectl(['delete', 'pod', 'polite', '--wait']);
    const unschedulable = async (name: string) => (await getPod(name))?.status.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False');
    await createPod('late-low', 'low');
    await waitFor('late-low unschedulable', () => unschedulable('late-low'), 15_000);
    // Never: it cannot make room for itself, so only the queue's order decides who gets it.
    await createPod('late-high', 'polite');
    await waitFor('late-high unschedulable', () => unschedulable('late-high'), 15_000);
    await cluster.kubectl(['delete', 'pod', 'high', '--wait']);
    assert.equal(await waitFor('late-high bound', async () => (await getPod('late-high'))?.spec.nodeName, 15_000), NODE);
    assert.equal((await getPod('late-low'))?.spec.nodeName, undefined);
  });
});
