// Host-process replicas on two nodes: a `drover server` (scheduler, controllers) and two nodes
// (agent and streaming server, as `drover agent` runs them) with addresses 127.0.0.2 and
// 127.0.0.3. The master binds only to the address its MASTER_ADDR resolves to, so the workers
// reach it only if the agent put the InternalIP of the master's node into their env (cluster
// DNS does not exist for host processes). The master is held unschedulable at first: the
// workers wait in ContainerCreating, with an event, until it is bound. minAvailable 2 lets the
// two workers be placed without the master under gang scheduling too.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNode, type RunningNode } from '../src/cluster/node.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

const PROGRAM = `
import os, socket, time
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
if rank == 0:
    server = socket.socket()
    server.bind((addr, port))
    server.listen(world)
    ranks = sorted(int(server.accept()[0].makefile().readline()) for _ in range(world - 1))
    print("master at %s:%d heard ranks %s" % (addr, port, ranks), flush=True)
else:
    for attempt in range(300):
        try:
            conn = socket.create_connection((addr, port), timeout=2)
            break
        except OSError:
            time.sleep(0.1)
    else:
        raise SystemExit("rank %d cannot reach the master at %s:%d" % (rank, addr, port))
    conn.sendall(b"%d\\n" % rank)
    print("rank %d reached the master at %s:%d" % (rank, addr, port), flush=True)
`;
import { waitFor } from './support/wait-for.js';

function replica(replicas: number, nodeSelector: Record<string, string>) {
  return {
    replicas,
    restartPolicy: 'Never',
    template: {
      spec: {
        runtimeClassName: 'process',
        terminationGracePeriodSeconds: 1,
        nodeSelector,
        containers: [{ name: 'pytorch', image: 'python:3', command: ['python3', '-c', PROGRAM] }],
      },
    },
  };
}

describe('training replicas on two nodes', { timeout: 90_000 }, () => {
  let server: ServerProcess;
  const agents: RunningNode[] = [];
  const dirs: string[] = [];
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, input === undefined ? {} : { input });
  const nodes = [
    { name: `tn-a-${process.pid}`, address: '127.0.0.2' },
    { name: `tn-b-${process.pid}`, address: '127.0.0.3' },
  ];

  before(async () => {
    requireKubectl();
    server = await startServerProcess();
    for (const node of nodes) {
      const dir = mkdtempSync(join(tmpdir(), 'drover-training-node-'));
      dirs.push(dir);
      agents.push(
        await startNode({
          kubeconfig: server.kubeconfig,
          nodeName: node.name,
          dataDir: dir,
          nodeAddress: node.address,
          runtime: 'process',
          serviceProxy: false,
        }),
      );
    }
    for (const node of nodes) {
      await waitFor(
        `${node.name} Ready`,
        async () => (await k(['get', 'node', node.name, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])) === 'True',
        30_000,
      );
    }
  });

  after(async () => {
    if (server) {
      await kubectlRaw(server.kubeconfig, ['delete', 'pytorchjobs', '--all', '--wait=true', '--timeout=20s']);
      await kubectlRaw(server.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=20s']);
    }
    for (const agent of agents) await agent.close();
    await server?.stop();
    await server?.cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("workers wait for the master to be bound, then reach it at its node's address", async () => {
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'kubeflow.org/v1',
        kind: 'PyTorchJob',
        metadata: { name: 'spread' },
        spec: {
          runPolicy: { schedulingPolicy: { minAvailable: 2 } },
          pytorchReplicaSpecs: {
            Master: replica(1, { 'drover.dev/test-role': 'master' }),
            Worker: replica(2, { 'kubernetes.io/hostname': a.name }),
          },
        },
      }),
    );
    // No node is labelled for the master yet: the workers run on node a, waiting for its address.
    await waitFor(
      'worker 0 waiting in ContainerCreating',
      async () => {
        const worker = JSON.parse(await k(['get', 'pod', 'spread-worker-0', '-o', 'json']));
        return worker.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ContainerCreating';
      },
      20_000,
    );
    const events = await k([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=spread-worker-0',
      '-o',
      'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
    ]);
    assert.match(events, /WaitingForReplica: waiting for replica spread-master-0 to be bound/);

    await k(['label', 'node', b.name, 'drover.dev/test-role=master']);
    await k(['wait', '--for=condition=Succeeded', 'pytorchjob/spread', '--timeout=60s'], undefined);
    const master = JSON.parse(await k(['get', 'pod', 'spread-master-0', '-o', 'json']));
    assert.equal(master.spec.nodeName, b.name);
    const port = master.spec.containers[0].ports[0].hostPort;
    assert.match(await k(['logs', 'spread-master-0']), new RegExp(`master at ${b.address.replace(/\./g, '\\.')}:${port} heard ranks \\[1, 2\\]`));
    for (const name of ['spread-worker-0', 'spread-worker-1']) {
      const pod = JSON.parse(await k(['get', 'pod', name, '-o', 'json']));
      assert.equal(pod.spec.nodeName, a.name);
      assert.equal(pod.status.phase, 'Succeeded', `${name} reached the master at ${b.address}`);
    }
  });
});
