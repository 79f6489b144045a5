// DaemonSets and Jobs end to end: a real `drover up` (API server, scheduler, controllers and a
// Docker node) driven by the real kubectl. Every workload is created up front so that they run
// side by side; each test then waits for its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, waitForNodeReady, type UpProcess } from './support/up-process.js';
import { ensureDocker } from './support/repo.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

interface PodView {
  metadata: { name: string; annotations?: Record<string, string>; deletionTimestamp?: string };
  spec: { nodeName?: string; hostname?: string; containers: Array<{ image: string }> };
  status: { phase?: string };
}

const container = (command: string) => ({ name: 'main', image: 'drover-test/busybox:1', command: ['sh', '-c', command] });

function job(name: string, spec: Record<string, unknown>, command: string): string {
  return JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { ...spec, template: { spec: { restartPolicy: 'Never', terminationGracePeriodSeconds: 1, containers: [container(command)] } } },
  });
}

const daemonSet = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'node-agent' },
  spec: {
    selector: { matchLabels: { app: 'node-agent' } },
    template: {
      metadata: { labels: { app: 'node-agent' } },
      spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '3600'] }] },
    },
  },
});

describe('DaemonSets and Jobs on drover up', { timeout: 180_000 }, () => {
  let cluster: UpProcess;
  const k = (args: string[], input?: string, timeoutMs?: number) =>
    kubectl(cluster.kubeconfig, args, { ...(input === undefined ? {} : { input }), ...(timeoutMs ? { timeoutMs } : {}) });
  const pods = async (selector: string): Promise<PodView[]> => JSON.parse(await k(['get', 'pods', '-l', selector, '-o', 'json'])).items;

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startUpProcess(`dsjob-${process.pid}`);
    await waitForNodeReady(cluster);
    await k(['apply', '-f', '-'], daemonSet);
    await k(['apply', '-f', '-'], job('sleepy', { completions: 5, parallelism: 2 }, 'sleep 1'));
    await k(['apply', '-f', '-'], job('broken', { backoffLimit: 2 }, 'exit 1'));
    await k(['apply', '-f', '-'], job('indexed', { completions: 3, parallelism: 3, completionMode: 'Indexed' }, 'echo index=$JOB_COMPLETION_INDEX'));
  });

  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'ds,jobs', '--all', '--cascade=foreground', '--wait=true', '--timeout=60s']);
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
    await removeNodeObjects(cluster.nodeName);
  });

  it('a DaemonSet runs its pod on the node and rolls out a new image', async () => {
    await k(['rollout', 'status', 'ds/node-agent', '--timeout=90s'], undefined, 100_000);
    const [pod, ...rest] = (await pods('app=node-agent')).filter((p) => !p.metadata.deletionTimestamp);
    assert.equal(rest.length, 0);
    assert.equal(pod?.spec.nodeName, cluster.nodeName);
    assert.equal(pod?.status.phase, 'Running');
    const columns = (await k(['get', 'ds', 'node-agent', '--no-headers'])).trim().split(/\s+/);
    assert.deepEqual(columns.slice(1, 6), ['1', '1', '1', '1', '1'], 'DESIRED CURRENT READY UP-TO-DATE AVAILABLE');

    await k(['set', 'image', 'ds/node-agent', 'main=drover-test/busybox:2']);
    await k(['rollout', 'status', 'ds/node-agent', '--timeout=90s'], undefined, 100_000);
    const [updated] = (await pods('app=node-agent')).filter((p) => !p.metadata.deletionTimestamp && p.status.phase === 'Running');
    assert.equal(updated?.spec.containers[0]?.image, 'drover-test/busybox:2');
    assert.equal((await k(['exec', updated!.metadata.name, '--', 'cat', '/VERSION'])).trim(), '2');
  });

  it('a Job with completions 5 and parallelism 2 completes', async () => {
    await k(['wait', '--for=condition=complete', 'job/sleepy', '--timeout=90s'], undefined, 100_000);
    assert.equal(await k(['get', 'job', 'sleepy', '-o', 'jsonpath={.status.succeeded}']), '5');
    assert.equal((await pods('job-name=sleepy')).filter((p) => p.status.phase === 'Succeeded').length, 5);
    assert.match(await k(['get', 'job', 'sleepy', '--no-headers']), /^sleepy\s+Complete\s+5\/5/);
  });

  it('a failing Job stops after backoffLimit + 1 pods with BackoffLimitExceeded', async () => {
    // Kubernetes' failure back-off (10 s, then 20 s) spaces the three attempts.
    await k(['wait', '--for=condition=failed', 'job/broken', '--timeout=120s'], undefined, 130_000);
    assert.equal(await k(['get', 'job', 'broken', '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].reason}']), 'BackoffLimitExceeded');
    assert.equal(await k(['get', 'job', 'broken', '-o', 'jsonpath={.status.failed}']), '3');
    const attempts = await pods('job-name=broken');
    assert.equal(attempts.length, 3);
    assert.ok(attempts.every((p) => p.status.phase === 'Failed'));
  });

  it('an Indexed Job gives each pod its JOB_COMPLETION_INDEX', async () => {
    await k(['wait', '--for=condition=complete', 'job/indexed', '--timeout=90s'], undefined, 100_000);
    assert.equal(await k(['get', 'job', 'indexed', '-o', 'jsonpath={.status.completedIndexes}']), '0-2');
    const seen: string[] = [];
    for (const pod of await pods('job-name=indexed')) {
      const index = pod.metadata.annotations?.['batch.kubernetes.io/job-completion-index'];
      assert.equal(pod.spec.hostname, `indexed-${index}`);
      assert.equal((await k(['logs', pod.metadata.name])).trim(), `index=${index}`);
      seen.push(index ?? '?');
    }
    assert.deepEqual(seen.sort(), ['0', '1', '2']);
  });
});
