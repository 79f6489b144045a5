// Local-path volumes on a cluster of one `drover server` and two joined `drover agent` processes
// (one with --local-path-dir): a claim's volume is made on the node its first pod went to, under
// that agent's directory; later pods using the claim can only go there; and the directory is
// removed by that node's agent, under its own node identity, when the claim goes.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startAgentProcess, type AgentProcess } from './support/agent-process.js';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const NODES = ['disk-a', 'disk-b'];

function pod(name: string, nodeSelector?: Record<string, string>): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      terminationGracePeriodSeconds: 1,
      ...(nodeSelector ? { nodeSelector } : {}),
      containers: [
        {
          name: 'main',
          image: 'drover-test/busybox:1',
          command: ['sh', '-c', `echo ${name} >> /data/log; trap exit TERM; while true; do sleep 1; done`],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
      ],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'shared' } }],
    },
  });
}

describe('local-path volumes on two agents', { timeout: 240_000 }, () => {
  let server: ServerProcess;
  let storageB: string;
  const agents = new Map<string, AgentProcess>();
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, { timeoutMs: 90_000, ...(input === undefined ? {} : { input }) });
  const field = (args: string[], path: string) => k([...args, '-o', `jsonpath=${path}`]);

  before(async () => {
    requireKubectl();
    server = await startServerProcess();
    storageB = await mkdtemp(join(tmpdir(), 'drover-local-path-'));
    agents.set('disk-a', await startAgentProcess(server, 'disk-a'));
    agents.set('disk-b', await startAgentProcess(server, 'disk-b', ['--local-path-dir', storageB]));
  });

  after(async () => {
    await k(['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']).catch(() => undefined);
    for (const agent of agents.values()) await agent.stop();
    await server?.stop();
    for (const name of NODES) {
      await removeNodeObjects(name);
    }
    await server?.cleanup();
    await rm(storageB, { recursive: true, force: true });
  });

  it('each agent publishes its local-path directory on its Node', async () => {
    assert.equal(await field(['get', 'node', 'disk-a'], '{.metadata.annotations.drover\\.io/local-path-dir}'), join(agents.get('disk-a')!.dataDir, 'storage'));
    assert.equal(await field(['get', 'node', 'disk-b'], '{.metadata.annotations.drover\\.io/local-path-dir}'), storageB);
  });

  it('the volume is made where the first pod went; later pods using the claim can only go there', async () => {
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'shared' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '8Mi' } } },
      }),
    );
    await k(['apply', '-f', '-'], pod('first', { 'kubernetes.io/hostname': 'disk-b' }));
    await k(['wait', '--for=condition=Ready', 'pod/first', '--timeout=80s']);
    const volume = await field(['get', 'pvc', 'shared'], '{.spec.volumeName}');
    const path = await field(['get', 'pv', volume], '{.spec.hostPath.path}');
    assert.equal(path, join(storageB, `${volume}_default_shared`));
    assert.equal(await field(['get', 'pv', volume], '{.metadata.labels.drover\\.io/local-path-node}'), 'disk-b');
    await k(['delete', 'pod', 'first', '--wait=true', '--timeout=60s']);

    await k(['apply', '-f', '-'], pod('second'));
    await k(['wait', '--for=condition=Ready', 'pod/second', '--timeout=80s']);
    assert.equal(await field(['get', 'pod', 'second'], '{.spec.nodeName}'), 'disk-b');
    assert.deepEqual((await readFile(join(path, 'log'), 'utf8')).trim().split('\n'), ['first', 'second']);

    await k(['apply', '-f', '-'], pod('elsewhere', { 'kubernetes.io/hostname': 'disk-a' }));
    await waitFor(
      'elsewhere unschedulable',
      async () =>
        (await field(['get', 'pod', 'elsewhere'], '{.status.conditions[?(@.type=="PodScheduled")].message}')).includes(
          "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had volume node affinity conflict.",
        ),
      20_000,
    );
  });

  it("the claim's node removes the directory when the claim goes", async () => {
    const volume = await field(['get', 'pvc', 'shared'], '{.spec.volumeName}');
    const path = await field(['get', 'pv', volume], '{.spec.hostPath.path}');
    await k(['delete', 'pod', 'second', 'elsewhere', '--wait=true', '--timeout=60s']);
    await k(['delete', 'pvc', 'shared', '--wait=true', '--timeout=30s']);
    await waitFor('the directory removed', () => !existsSync(path), 30_000);
    await waitFor('the volume gone', async () => !(await k(['get', 'pv', '-o', 'name'])).includes(volume), 30_000);
  });
});
