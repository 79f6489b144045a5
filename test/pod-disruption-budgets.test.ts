// PodDisruptionBudgets end to end: a Deployment of 2 on two hollow nodes (`drover simulate`:
// bound pods reported Running and Ready, no containers) under a budget of minAvailable 1.
// Evictions through the API spend the budget one at a time; `kubectl drain` goes through while
// the budget allows, and waits (429, retried every 5 s by kubectl) while it does not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useCluster } from './support/cluster-fixture.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { waitFor } from './support/wait-for.js';

interface PodItem {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { nodeName?: string };
  status: { conditions?: Array<{ type: string; status: string }> };
}

const PODS = '/api/v1/namespaces/default/pods';
const PDB = '/apis/policy/v1/namespaces/default/poddisruptionbudgets/web';
const MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";

describe('PodDisruptionBudgets, evictions and kubectl drain', () => {
  const cluster = useCluster();
  let simulation: DroverProcess | undefined;

  before(async () => {
    simulation = await startDroverProcess(
      ['simulate', '--nodes', '2', '--kubeconfig', cluster.server().kubeconfig, '--lease-renew-interval', '1'],
      '2 hollow nodes ready',
    );
  });
  after(async () => {
    await simulation?.stop();
  });

  const isReady = (pod: PodItem) => !pod.metadata.deletionTimestamp && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  const webPods = async (): Promise<PodItem[]> => (await cluster.api('GET', `${PODS}?labelSelector=app%3Dweb`)).body.items;
  const allowed = async (): Promise<number | undefined> => (await cluster.api('GET', PDB)).body.status?.disruptionsAllowed;
  /** Two Ready pods and a budget that allows one disruption again. */
  const settled = (what: string) =>
    waitFor(
      what,
      async () => {
        const pods = (await webPods()).filter(isReady);
        return pods.length === 2 && (await webPods()).length === 2 && (await allowed()) === 1 ? pods : undefined;
      },
      30_000,
    );
  const evict = (name: string) =>
    cluster.api('POST', `${PODS}/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } });

  it('computes the budget of a Deployment of 2 spread over the two nodes; kubectl get pdb prints it', async () => {
    await cluster.kubectl(['create', 'deployment', 'web', '--image=drover-test/busybox:1', '--replicas=2']);
    await cluster.kubectl(['create', 'poddisruptionbudget', 'web', '--selector=app=web', '--min-available=1']);
    const pods = await settled('2 ready pods and 1 disruption allowed');
    assert.deepEqual(new Set(pods.map((p) => p.spec.nodeName)), new Set(['hollow-0', 'hollow-1']));
    const table = await cluster.kubectl(['get', 'pdb']);
    assert.match(table, /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\n/);
    assert.match(table, /^web\s+1\s+N\/A\s+1\s+\d+s$/m);
    const described = await cluster.kubectl(['describe', 'pdb', 'web']);
    assert.match(described, /Allowed disruptions:\s+1\n\s+Current:\s+2\n\s+Desired:\s+1\n\s+Total:\s+2/);
    assert.match(await cluster.kubectl(['explain', 'pdb.spec.unhealthyPodEvictionPolicy']), /IfHealthyBudget/);
  });

  it('lets exactly one of two simultaneous evictions through, the other 429 as Kubernetes words it', async () => {
    const [a, b] = (await webPods()).map((p) => p.metadata.name);
    const answers = await Promise.all([evict(a!), evict(b!)]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 429]);
    const refused = answers.find((r) => r.status === 429)!.body;
    assert.equal(refused.reason, 'TooManyRequests');
    assert.equal(refused.message, MESSAGE);
    assert.deepEqual(refused.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 2 currently' }]);
    // The ReplicaSet replaces the evicted pod; once it is Ready the budget allows one again.
    await settled('the replacement ready');
  });

  it('kubectl drain: through while the budget allows, held (429, retried) while it does not', async () => {
    const onNode = async (node: string) => (await webPods()).filter((p) => p.spec.nodeName === node).length;
    const drained = (await onNode('hollow-0')) > 0 ? 'hollow-0' : 'hollow-1';
    const other = drained === 'hollow-0' ? 'hollow-1' : 'hollow-0';
    const drainArgs = (node: string) => ['drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=60s'];
    await cluster.kubectl(drainArgs(drained), { timeoutMs: 70_000 });
    // Every web pod now runs on the other node.
    const moved = await settled('both pods on the other node');
    assert.deepEqual(
      moved.map((p) => p.spec.nodeName),
      [other, other],
    );

    // Both nodes cordoned: the first eviction's replacement has nowhere to go, the second waits.
    const started = Date.now();
    let finished = false;
    const held = cluster.kubectlRaw(drainArgs(other), { timeoutMs: 70_000 }).finally(() => {
      finished = true;
    });
    await waitFor('one pod evicted and the budget spent', async () => (await webPods()).filter(isReady).length === 1 && (await allowed()) === 0, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    assert.equal(finished, false, 'the drain waits for the budget');
    await cluster.kubectl(['uncordon', drained]);
    const result = await held;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(Date.now() - started > 6_000);
    assert.match(
      result.stderr,
      /error when evicting pods\/"web-[^"]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./,
    );
    assert.match(result.stdout, new RegExp(`node/${other} drained`));
    const final = await settled('both pods on the uncordoned node');
    assert.deepEqual(
      final.map((p) => p.spec.nodeName),
      [drained, drained],
    );
  });
});
