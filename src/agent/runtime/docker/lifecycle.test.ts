import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Docker from 'dockerode';
import { ContainerNotFoundError, NotRunningError, StartFailedError } from '../errors.js';
import { ATTEMPT, CONTAINER_NAME, KIND, POD_NAME, POD_NAMESPACE, POD_UID, SANDBOX_ID, podFromLabels } from '../labels.js';
import { RUN_ID, RUN_LABEL, containerSpec, newRuntime, run, useDockerSandbox } from '../../../../test/support/agent/docker-runtime.js';
import { eventsUntilDestroy } from '../../../../test/support/agent/runtime-events.js';
import { waitFor } from '../../../../test/support/wait-for.js';

const MiB = 1024 * 1024;

describe('docker container lifecycle', { timeout: 120_000 }, () => {
  const docker = new Docker();
  const bed = useDockerSandbox('life');
  const { rt, pod } = bed;

  it('reports exit codes, times and the image id', async () => {
    const id = await run(rt, pod, bed.sandbox, 'exit3', { command: ['sh', '-c', 'exit 3'] });
    assert.equal(await rt.waitContainer(id), 3);
    const status = await rt.inspectContainer(id);
    assert.equal(status.state, 'exited');
    assert.equal(status.exitCode, 3);
    assert.equal(status.oomKilled, false);
    assert.ok(status.startedAt && status.finishedAt && status.finishedAt >= status.startedAt);
    assert.equal(status.imageId, (await rt.pullImage('drover-test/busybox:1', 'Never')).id);
  });

  it('a created container has no start time; a missing command fails its start', async () => {
    const id = await rt.createContainer(containerSpec(pod, bed.sandbox, 'nocmd', { command: ['/no/such/binary'] }));
    const created = await rt.inspectContainer(id);
    assert.equal(created.state, 'created');
    assert.equal(created.startedAt, undefined);
    await assert.rejects(rt.startContainer(id), (err: unknown) => {
      assert.ok(err instanceof StartFailedError, String(err));
      assert.match(err.engineMessage, /no such file or directory|not found/);
      return true;
    });
    assert.match((await rt.inspectContainer(id)).error, /no\/such\/binary/);
  });

  it('reports OOMKilled for a container past its memory limit', async () => {
    const id = await run(rt, pod, bed.sandbox, 'oom', {
      command: ['sh', '-c', 'x=a; while :; do x="$x$x"; done'],
      resources: { memoryLimitBytes: 16 * MiB },
    });
    assert.equal(await rt.waitContainer(id), 137);
    const status = await rt.inspectContainer(id);
    assert.equal(status.oomKilled, true);
    assert.equal(status.exitCode, 137);
  });

  it('stop: a container that traps TERM exits at once, one that ignores it is killed after the grace', async () => {
    const ready = 'trap "echo got-term; exit 0" TERM; echo ready; while :; do sleep 1 & wait $!; done';
    const polite = await run(rt, pod, bed.sandbox, 'polite', { command: ['sh', '-c', ready] });
    const stubborn = await run(rt, pod, bed.sandbox, 'stubborn', { command: ['sh', '-c', 'trap "" TERM; echo ready; while :; do sleep 1; done'] });
    await waitFor('both ready', async () => ((await logText(polite)).includes('ready') && (await logText(stubborn)).includes('ready') ? true : undefined));

    let t = Date.now();
    await rt.stopContainer(polite, 5);
    assert.ok(Date.now() - t < 2500, `polite stop took ${Date.now() - t} ms`);
    assert.equal((await rt.inspectContainer(polite)).exitCode, 0);
    assert.match(await logText(polite), /got-term/);

    t = Date.now();
    await rt.stopContainer(stubborn, 1);
    const took = Date.now() - t;
    assert.ok(took >= 900 && took < 5000, `stubborn stop took ${took} ms`);
    assert.equal((await rt.inspectContainer(stubborn)).exitCode, 137);
    await rt.stopContainer(stubborn, 1); // already stopped: not an error
  });

  it('kill sends the given signal', async () => {
    const id = await run(rt, pod, bed.sandbox, 'usr1', { command: ['sh', '-c', 'trap "exit 42" USR1; echo ready; while :; do sleep 1 & wait $!; done'] });
    await waitFor('trap installed', async () => ((await logText(id)).includes('ready') ? true : undefined));
    await rt.killContainer(id, 'SIGUSR1');
    assert.equal(await rt.waitContainer(id), 42);
    await assert.rejects(rt.killContainer(id, 'SIGTERM'), NotRunningError);
  });

  it('labels carry the pod identity, and listContainers filters by them', async () => {
    const id = await run(rt, pod, bed.sandbox, 'labelled', { command: ['true'], attempt: 4 });
    const labels = (await rt.inspectContainer(id)).labels;
    assert.equal(labels[POD_UID], pod.uid);
    assert.equal(labels[POD_NAME], pod.name);
    assert.equal(labels[POD_NAMESPACE], pod.namespace);
    assert.equal(labels[CONTAINER_NAME], 'labelled');
    assert.equal(labels[ATTEMPT], '4');
    assert.equal(labels[SANDBOX_ID], bed.sandbox.id);
    assert.equal(labels[KIND], 'container');
    assert.deepEqual(podFromLabels(labels), pod);

    const listed = await rt.listContainers({ labels: { [RUN_LABEL]: RUN_ID, [CONTAINER_NAME]: 'labelled' } });
    assert.deepEqual(
      listed.map((c) => c.id),
      [id],
    );
    const all = await rt.listContainers({ labels: { [RUN_LABEL]: RUN_ID, [POD_UID]: pod.uid } });
    assert.ok(all.length >= 2);
    assert.ok(!all.some((c) => c.id === bed.sandbox.id), 'sandboxes are not app containers');
    assert.deepEqual(await rt.listContainers({ labels: { [POD_UID]: 'no-such-pod' } }), []);
  });

  it('passes env, working dir, user, mounts and a read-only root through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'drover-mount-'));
    try {
      chmodSync(dir, 0o755); // mkdtemp's 0700 would shut out the non-root user below
      writeFileSync(join(dir, 'config.txt'), 'from-the-host');
      const script = [
        'echo "$GREETING $(pwd) $(id -u)"',
        'cat /config/config.txt; echo',
        'touch /x 2>/dev/null && echo root-writable || echo root-readonly',
        'touch /config/y 2>/dev/null && echo bind-writable || echo bind-readonly',
        'echo scratch > /scratch/z && cat /scratch/z',
      ].join('; ');
      const id = await run(rt, pod, bed.sandbox, 'env', {
        command: ['sh', '-c', script],
        env: { GREETING: 'hi there' },
        workingDir: '/tmp',
        mounts: [
          { type: 'bind', source: dir, target: '/config', readOnly: true },
          { type: 'tmpfs', target: '/scratch', sizeBytes: 1 << 20 },
        ],
        securityContext: { user: '65534', readOnlyRootFilesystem: true },
      });
      await rt.waitContainer(id);
      assert.equal(await logText(id), 'hi there /tmp 65534\nfrom-the-host\nroot-readonly\nbind-readonly\nscratch\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets CPU quota and memory limits, and updates them in place', async () => {
    const id = await run(rt, pod, bed.sandbox, 'limits', {
      command: ['sleep', '300'],
      resources: { cpuLimitMillis: 500, cpuRequestMillis: 250, memoryLimitBytes: 64 * MiB },
    });
    let host = (await docker.getContainer(id).inspect()).HostConfig;
    assert.deepEqual([host.CpuQuota, host.CpuPeriod, host.CpuShares, host.Memory, host.MemorySwap], [50_000, 100_000, 256, 64 * MiB, 64 * MiB]);
    await rt.updateResources(id, { cpuLimitMillis: 1500, memoryLimitBytes: 128 * MiB });
    host = (await docker.getContainer(id).inspect()).HostConfig;
    assert.deepEqual([host.CpuQuota, host.Memory, host.MemorySwap], [150_000, 128 * MiB, 128 * MiB]);
    await rt.removeContainer(id, { force: true });
  });

  it('remove is idempotent; inspect of a removed container is ContainerNotFound', async () => {
    const id = await run(rt, pod, bed.sandbox, 'gone', { command: ['true'] });
    await rt.waitContainer(id);
    await rt.removeContainer(id);
    await rt.removeContainer(id);
    await assert.rejects(rt.inspectContainer(id), ContainerNotFoundError);
    await assert.rejects(rt.startContainer(id), ContainerNotFoundError);
  });

  it('streams start, die and destroy events of its containers', async () => {
    const abort = new AbortController();
    const stream = rt.events({ labels: { [POD_UID]: pod.uid, [CONTAINER_NAME]: 'evented' } }, abort.signal);
    // Read only after the container is gone: events count from the call, not the first read.
    const id = await run(rt, pod, bed.sandbox, 'evented', { command: ['sh', '-c', 'exit 7'] });
    await rt.waitContainer(id);
    await rt.removeContainer(id);
    const seen = await eventsUntilDestroy(stream, abort);
    assert.deepEqual(
      seen.map((e) => e.type),
      ['create', 'start', 'die', 'destroy'],
    );
    assert.equal(seen.find((e) => e.type === 'die')?.exitCode, 7);
    assert.equal(seen[0]?.labels[CONTAINER_NAME], 'evented');
  });

  it('reports its version and status', async () => {
    const version = await rt.version();
    assert.equal(version.runtimeName, 'docker');
    assert.match(version.runtimeVersion, /^\d+\.\d+/);
    const status = await rt.status();
    assert.equal(status.ready, true);
    assert.ok((status.info?.cpus ?? 0) > 0);
    const down = await newRuntime({ socketPath: '/nonexistent/docker.sock' }).status();
    assert.equal(down.ready, false);
    assert.equal(down.reason, 'RuntimeUnavailable');
  });

  async function logText(id: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of await rt.logs(id)) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString();
  }
});
