// Workloads on a real cluster of one `drover server` and two `drover agent` processes sharing
// this machine's Docker, driven by the real kubectl: a Deployment converges and heals (killed
// container, deleted pod, a node lost for good), a DaemonSet covers both nodes, a delete with
// --cascade=orphan leaves the pods, and every operation is a Transaction with the right phase —
// including one that times out.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startAgentProcess, type AgentProcess } from './support/agent-process.js';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const run = promisify(execFile);
const NODES = ['worker-a', 'worker-b'];

interface PodView {
  metadata: { name: string; uid: string; deletionTimestamp?: string; ownerReferences?: Array<{ kind: string; name: string }> };
  spec: { nodeName?: string };
  status: { phase?: string; conditions?: Array<{ type: string; status: string }>; containerStatuses?: Array<{ restartCount: number; containerID?: string }> };
}

interface TxView {
  spec: { operation: string; target: { kind: string; name: string } };
  status?: { phase?: string; progress?: string; message?: string };
}

function deployment(name: string, replicas: number, extra: { image?: string; annotations?: Record<string, string> } = {}): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, annotations: extra.annotations ?? {} },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: extra.image ?? 'drover-test/busybox:1', command: ['sleep', '3600'] }] },
      },
    },
  });
}

const isReady = (pod: PodView) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

describe('workloads on two agents', { timeout: 240_000 }, () => {
  let server: ServerProcess;
  const agents = new Map<string, AgentProcess>();
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, input === undefined ? {} : { input });
  const pods = async (selector: string): Promise<PodView[]> => JSON.parse(await k(['get', 'pods', '-l', selector, '-o', 'json'])).items;
  const live = async (selector: string) => (await pods(selector)).filter((p) => !p.metadata.deletionTimestamp);
  const transactions = async (): Promise<TxView[]> => JSON.parse(await k(['get', 'tx', '-o', 'json'])).items;
  const readyCount = async (selector: string) => (await live(selector)).filter(isReady).length;

  before(async () => {
    requireKubectl();
    // Agents renew their Lease every 10 s: a node is lost 15 s after its last renewal.
    server = await startServerProcess({ extraArgs: ['--node-monitor-grace-period', '15', '--pod-eviction-timeout', '2'] });
    for (const name of NODES) agents.set(name, await startAgentProcess(server, name));
  });

  after(async () => {
    await k(['delete', 'deploy,ds,rs,pods', '--all', '--wait=false']).catch(() => undefined);
    for (const agent of agents.values()) await agent.stop();
    await server?.stop();
    // Containers of an agent killed for good stay behind in Docker, as on a machine that died.
    for (const name of NODES) {
      await removeNodeObjects(name);
    }
    await server?.cleanup();
  });

  it('a 3-replica Deployment converges, recorded as a launch that succeeds', async () => {
    await k(['apply', '-f', '-'], deployment('web', 3));
    await k(['rollout', 'status', 'deploy/web', '--timeout=90s']);
    assert.equal(await readyCount('app=web'), 3);
    const launch = await waitFor(
      'launch Succeeded',
      async () => (await transactions()).find((tx) => tx.spec.target.name === 'web' && tx.spec.operation === 'launch' && tx.status?.phase === 'Succeeded'),
      20_000,
    );
    assert.equal(launch.status?.progress, '3/3');
    assert.match(await k(['get', 'tx']), /TARGET\s+OPERATION\s+PHASE\s+PROGRESS\s+AGE/);
  });

  it('a killed container restarts in place', async () => {
    const [victim] = await live('app=web');
    const containerId = victim!.status.containerStatuses![0]!.containerID!.replace(/^docker:\/\//, '');
    await run('docker', ['kill', containerId]);
    await waitFor(
      'the container restarted',
      async () => {
        const pod = (await pods('app=web')).find((p) => p.metadata.uid === victim!.metadata.uid);
        return pod && isReady(pod) && pod.status.containerStatuses![0]!.restartCount >= 1;
      },
      60_000,
    );
  });

  it('a deleted pod is replaced', async () => {
    const [victim] = await live('app=web');
    await k(['delete', 'pod', victim!.metadata.name, '--wait=false']);
    await waitFor(
      'three ready pods again, without the deleted one',
      async () => {
        const now = await live('app=web');
        return now.length === 3 && !now.some((p) => p.metadata.uid === victim!.metadata.uid) && now.filter(isReady).length === 3;
      },
      60_000,
    );
  });

  it('a DaemonSet runs one pod on each agent', async () => {
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'logger' },
        spec: {
          selector: { matchLabels: { app: 'logger' } },
          template: {
            metadata: { labels: { app: 'logger' } },
            spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '3600'] }] },
          },
        },
      }),
    );
    await k(['rollout', 'status', 'ds/logger', '--timeout=60s']);
    const nodes = (await live('app=logger')).map((p) => p.spec.nodeName).sort();
    assert.deepEqual(nodes, NODES);
  });

  it('an operation that outlives its life period times out with a Warning event', async () => {
    // The image exists nowhere: the launch can never finish.
    await k(
      ['apply', '-f', '-'],
      deployment('stuck', 1, { image: 'drover-test/missing:1', annotations: { 'drover.dev/transaction-life-period-seconds': '3' } }),
    );
    const timedOut = await waitFor(
      'a TimedOut transaction',
      async () => (await transactions()).find((tx) => tx.spec.target.name === 'stuck' && tx.status?.phase === 'TimedOut'),
      30_000,
    );
    assert.match(timedOut.status?.message ?? '', /did not finish within 3s/);
    await waitFor(
      'the Warning event',
      async () => (await k(['get', 'events', '--field-selector', 'reason=TransactionTimedOut,involvedObject.name=stuck'])).includes('TransactionTimedOut'),
      20_000,
    );
    await k(['delete', 'deploy', 'stuck']);
  });

  it('pods of an agent lost for good are rescheduled onto the other one', async () => {
    await k(['scale', 'deploy/web', '--replicas=2']);
    await waitFor('two replicas', async () => (await live('app=web')).length === 2, 30_000);
    const lost = (await live('app=web'))[0]!.spec.nodeName!;
    const survivor = NODES.find((name) => name !== lost)!;

    await agents.get(lost)!.stop('SIGKILL');
    agents.delete(lost);
    await waitFor(
      'both replicas running on the surviving node',
      async () => {
        const now = await live('app=web');
        return now.length === 2 && now.every((p) => p.spec.nodeName === survivor && isReady(p));
      },
      120_000,
    );
    const reschedules = (await transactions()).filter((tx) => tx.spec.target.name === 'web' && tx.spec.operation === 'reschedule');
    assert.ok(reschedules.length >= 1, 'the replacements are recorded as reschedules');
  });

  it('--cascade=orphan leaves the ReplicaSet and pods; deleting them then removes the pods', async () => {
    await k(['delete', 'deploy', 'web', '--cascade=orphan']);
    await waitFor('the Deployment gone', async () => !(await k(['get', 'deploy'])).includes('web'), 20_000);
    const orphans = await live('app=web');
    assert.equal(orphans.length, 2, 'the pods stay');
    const rs = JSON.parse(await k(['get', 'rs', '-l', 'app=web', '-o', 'json'])).items as Array<{ metadata: { name: string; ownerReferences?: unknown[] } }>;
    assert.equal(rs.length, 1);
    assert.equal(rs[0]!.metadata.ownerReferences, undefined, 'the ReplicaSet no longer names its owner');
    await k(['delete', 'rs', rs[0]!.metadata.name]);
    await waitFor('the pods deleted with their ReplicaSet', async () => (await live('app=web')).length === 0, 30_000);
  });
});
