// Training jobs as gangs on real agents: a `drover server` and two `drover agent`s with
// example.com/gpu=4 each (host processes, so no image is needed). Two PyTorchJobs of 6 GPUs
// (a master and two workers of 2 GPUs each): one is placed whole and runs, the other waits
// whole with the reason — none of its pods holds a GPU — and runs once the first is done. A job
// of 12 GPUs, more than the cluster has, fails fast instead of waiting forever.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { startAgentProcess, type AgentProcess } from './support/agent-process.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

function job(name: string, workers: number, seconds: number): string {
  const replica = `
      template:
        spec:
          runtimeClassName: process
          terminationGracePeriodSeconds: 1
          containers:
          - name: pytorch
            image: none
            command: ["sh", "-c", "echo rank $RANK of $WORLD_SIZE; sleep ${seconds}"]
            resources: {limits: {example.com/gpu: 2}}`;
  return `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: ${name}}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1${replica}
    Worker:
      replicas: ${workers}${replica}
`;
}

describe('PyTorchJobs as gangs on two agents of 4 GPUs', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  const agents: AgentProcess[] = [];
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, input === undefined ? {} : { input });
  const group = async (name: string) =>
    JSON.parse(await k(['get', 'podgroup', name, '-o', 'json'])) as { status?: { phase?: string; conditions?: Array<{ message?: string }> } };
  const bound = async (name: string) =>
    (await k(['get', 'pods', '-l', `training.kubeflow.org/job-name=${name}`, '-o', 'jsonpath={.items[*].spec.nodeName}'])).split(' ').filter(Boolean);

  before(async () => {
    requireKubectl();
    server = await startServerProcess();
    for (const name of ['gpu-a', 'gpu-b'])
      agents.push(await startAgentProcess(server, name, ['--runtime', 'process', '--extended-resource', 'example.com/gpu=4']));
  });

  after(async () => {
    await kubectl(server.kubeconfig, ['delete', 'pytorchjobs', '--all', '--wait=true', '--timeout=30s']).catch(() => '');
    for (const agent of agents) await agent.stop();
    await server?.stop();
    await server?.cleanup();
  });

  it('places one 6-GPU job whole, keeps the other waiting whole with the reason, then runs it', async () => {
    await k(['apply', '-f', '-'], job('first', 2, 6));
    await waitFor('the first gang bound whole', async () => (await bound('first')).length === 3, 20_000);
    await k(['apply', '-f', '-'], job('second', 2, 1));
    const waiting = await waitFor(
      'the second gang says why it waits',
      async () => {
        const status = (await group('second')).status;
        return status?.conditions?.some((c) => /needs example\.com\/gpu 6/.test(c.message ?? '')) ? status : undefined;
      },
      20_000,
    );
    assert.equal(waiting.phase, 'Pending');
    assert.deepEqual(await bound('second'), [], "none of the waiting gang's pods holds a GPU");
    await k(['wait', '--for=condition=Succeeded', 'pytorchjob/first', 'pytorchjob/second', '--timeout=60s']);
    assert.match(await k(['get', 'pytorchjob', 'second', '--no-headers']), /^second\s+Succeeded\s/);
  });

  it("fails a 12-GPU job's gang fast, saying what it needs and what the cluster has", async () => {
    await k(['apply', '-f', '-'], job('huge', 5, 1));
    const status = await waitFor(
      'the huge gang Failed',
      async () => {
        const s = (await group('huge')).status;
        return s?.phase === 'Failed' ? s : undefined;
      },
      20_000,
    );
    assert.match(status.conditions?.[0]?.message ?? '', /needs example\.com\/gpu 12, the cluster has 8 allocatable/);
    assert.deepEqual(await bound('huge'), []);
    assert.match(
      await k(['get', 'events', '--field-selector', 'involvedObject.name=huge', '-o', 'jsonpath={.items[*].message}']),
      /needs example\.com\/gpu 12/,
    );
  });
});
