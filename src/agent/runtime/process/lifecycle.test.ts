import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ContainerNotFoundError, CreateFailedError, NotRunningError, RuntimeError, SandboxError, StartFailedError } from '../errors.js';
import { CONTAINER_NAME, KIND, POD_UID, SANDBOX_ID, podFromLabels } from '../labels.js';
import { groupAlive, harness, logText, processAlive, type Harness } from '../../../../test/support/agent/process-runtime.js';
import { eventsUntilDestroy } from '../../../../test/support/agent/runtime-events.js';
import { waitFor } from '../../../../test/support/wait-for.js';

describe('process runtime: container lifecycle', { timeout: 30_000 }, () => {
  let h: Harness;
  let scratch: string;
  before(async () => {
    h = await harness('life');
    scratch = mkdtempSync(join(tmpdir(), 'drover-process-scratch-'));
    chmodSync(scratch, 0o755); // mkdtemp's 0700 would shut out the non-root user below
  });
  after(async () => {
    await h.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('reports exit codes, times, the pid and a synthetic image id', async () => {
    const ok = await h.run('ok', { command: ['true'] });
    const three = await h.run('three', { command: ['sh', '-c', 'exit 3'] });
    assert.equal(await h.rt.waitContainer(ok), 0);
    assert.equal(await h.rt.waitContainer(three), 3);
    const s = await h.rt.inspectContainer(three);
    assert.equal(s.state, 'exited');
    assert.equal(s.exitCode, 3);
    assert.equal(s.oomKilled, false);
    assert.equal(s.pid, 0);
    assert.ok(s.startedAt && s.finishedAt && s.finishedAt >= s.startedAt);
    assert.equal(s.imageId, (await h.rt.pullImage('host', 'Never')).id);
    assert.match(s.imageId, /^sha256:[0-9a-f]{64}$/);
  });

  it('a created container has no start time; a missing executable fails its start with 127', async () => {
    const id = await h.rt.createContainer(h.spec('nocmd', { command: ['/no/such/binary', 'x'] }));
    const created = await h.rt.inspectContainer(id);
    assert.equal(created.state, 'created');
    assert.equal(created.startedAt, undefined);
    await assert.rejects(h.rt.startContainer(id), (err: unknown) => {
      assert.ok(err instanceof StartFailedError, String(err));
      assert.match(err.engineMessage, /no\/such\/binary.*no such file or directory/);
      return true;
    });
    const failed = await h.rt.inspectContainer(id);
    assert.equal(failed.exitCode, 127);
    assert.match(failed.error, /no\/such\/binary/);
    const onPath = await h.rt.createContainer(h.spec('notonpath', { command: ['no-such-command-xyz'] }));
    await assert.rejects(h.rt.startContainer(onPath), /executable file not found in \$PATH/);
  });

  it('a missing working directory fails the start; a missing command fails the create', async () => {
    const id = await h.rt.createContainer(h.spec('nowd', { command: ['true'], workingDir: join(scratch, 'missing') }));
    await assert.rejects(h.rt.startContainer(id), (err: unknown) => err instanceof StartFailedError && /missing/.test(err.message));
    await assert.rejects(h.rt.createContainer(h.spec('empty')), CreateFailedError);
    await assert.rejects(h.rt.createContainer(h.spec('tty', { command: ['true'], tty: true })), CreateFailedError);
    await assert.rejects(h.rt.createContainer({ ...h.spec('nosandbox', { command: ['true'] }), sandboxId: 'f'.repeat(64) }), SandboxError);
  });

  it("passes exactly the env (plus the node's PATH: the agent's), the working dir and the user", async () => {
    const id = await h.run('env', {
      command: ['sh', '-c', 'env | sort; pwd; id -u; id -g'],
      env: { GREETING: 'hi there', EMPTY: '' },
      workingDir: scratch,
      securityContext: { user: '65534:65534' },
    });
    assert.equal(await h.rt.waitContainer(id), 0);
    const lines = (await logText(h.rt, id)).trim().split('\n');
    const env = lines.filter((l) => /^[A-Z_]+=/.test(l) && !/^(PWD|SHLVL|_)=/.test(l));
    assert.deepEqual(env, ['EMPTY=', 'GREETING=hi there', `PATH=${process.env['PATH']}`]);
    assert.deepEqual(lines.slice(-3), [scratch, '65534', '65534']);
    const unknown = await h.rt.createContainer(h.spec('nouser', { command: ['true'], securityContext: { user: 'no-such-user' } }));
    await assert.rejects(h.rt.startContainer(unknown), /unable to find user no-such-user/);
  });

  it('stop: TERM ends a polite process at once (143 when untrapped); one that ignores it is killed after the grace', async () => {
    const plain = await h.run('plain', { command: ['sleep', '30'] });
    const polite = await h.run('polite', { command: ['sh', '-c', 'trap "echo got-term; exit 0" TERM; echo ready; while :; do sleep 0.05; done'] });
    const stubborn = await h.run('stubborn', { command: ['sh', '-c', 'trap "" TERM; echo ready; sleep 30'] });
    await waitFor(
      'ready',
      async () => ((await logText(h.rt, polite)).includes('ready') && (await logText(h.rt, stubborn)).includes('ready') ? true : undefined),
      5000,
    );
    const { pid } = await h.rt.inspectContainer(stubborn);

    let t = Date.now();
    await h.rt.stopContainer(plain, 5);
    await h.rt.stopContainer(polite, 5);
    assert.ok(Date.now() - t < 2000, `polite stops took ${Date.now() - t} ms`);
    assert.equal((await h.rt.inspectContainer(plain)).exitCode, 143);
    assert.equal((await h.rt.inspectContainer(polite)).exitCode, 0);
    assert.match(await logText(h.rt, polite), /got-term/);

    t = Date.now();
    await h.rt.stopContainer(stubborn, 1);
    const took = Date.now() - t;
    assert.ok(took >= 950 && took < 4000, `stubborn stop took ${took} ms`);
    assert.equal((await h.rt.inspectContainer(stubborn)).exitCode, 137);
    assert.equal(groupAlive(pid), false, 'the sleep under the shell is gone too');
    await h.rt.stopContainer(stubborn, 1); // stopped already: not an error
  });

  it('kill sends the given signal to the main process', async () => {
    const marker = join(scratch, 'usr1');
    const id = await h.run('usr1', { command: ['sh', '-c', `trap "touch ${marker}; exit 42" USR1; echo ready; while :; do sleep 0.05; done`] });
    await waitFor('trap installed', async () => ((await logText(h.rt, id)).includes('ready') ? true : undefined), 5000);
    await assert.rejects(h.rt.killContainer(id, 'SIGNOPE'), RuntimeError);
    await h.rt.killContainer(id, 'SIGUSR1');
    assert.equal(await h.rt.waitContainer(id), 42);
    assert.ok(existsSync(marker));
    await assert.rejects(h.rt.killContainer(id, 'TERM'), NotRunningError);
  });

  it('the main process ending takes the rest of its processes with it', async () => {
    const id = await h.run('orphans', { command: ['sh', '-c', 'sleep 30 & echo $!; exit 5'] });
    assert.equal(await h.rt.waitContainer(id), 5);
    const child = Number((await logText(h.rt, id)).trim());
    assert.ok(child > 0);
    await waitFor('the background sleep is killed', async () => (processAlive(child) ? undefined : true), 2000);
  });

  it('labels carry the pod identity, and listContainers filters by them', async () => {
    const id = await h.run('labelled', { command: ['sleep', '30'], labels: { team: 'a' } });
    const { labels } = await h.rt.inspectContainer(id);
    assert.deepEqual(podFromLabels(labels), h.pod);
    assert.equal(labels[CONTAINER_NAME], 'labelled');
    assert.equal(labels[SANDBOX_ID], h.sandbox.id);
    assert.equal(labels[KIND], 'container');
    assert.deepEqual(
      (await h.rt.listContainers({ labels: { team: 'a' } })).map((c) => c.id),
      [id],
    );
    assert.ok((await h.rt.listContainers({ labels: { [POD_UID]: h.pod.uid }, all: false })).every((c) => c.state === 'running'));
    assert.deepEqual(await h.rt.listContainers({ labels: { team: 'b' } }), []);
    await assert.rejects(h.rt.createContainer(h.spec('labelled', { command: ['true'] })), /already in use/);
  });

  it('remove refuses a running container unless forced, then is idempotent', async () => {
    const id = await h.run('gone', { command: ['sleep', '30'] });
    const { pid } = await h.rt.inspectContainer(id);
    await assert.rejects(h.rt.removeContainer(id), /cannot remove a running container/);
    await h.rt.removeContainer(id, { force: true });
    assert.equal(groupAlive(pid), false);
    await h.rt.removeContainer(id);
    await assert.rejects(h.rt.inspectContainer(id), ContainerNotFoundError);
    await assert.rejects(h.rt.startContainer(id), ContainerNotFoundError);
    assert.equal(existsSync(join(h.stateDir, 'containers', id)), false);
  });

  it('streams create, start, die and destroy events', async () => {
    const abort = new AbortController();
    const stream = h.rt.events({ labels: { [CONTAINER_NAME]: 'evented' } }, abort.signal);
    const id = await h.run('evented', { command: ['sh', '-c', 'sleep 0.2; exit 7'] });
    await h.rt.waitContainer(id);
    await h.rt.removeContainer(id);
    const seen = await eventsUntilDestroy(stream, abort);
    assert.deepEqual(
      seen.map((e) => e.type),
      ['create', 'start', 'die', 'destroy'],
    );
    assert.equal(seen.find((e) => e.type === 'die')?.exitCode, 7);
  });

  it('sandboxes: host address, recorded hostPorts, removal takes their containers', async () => {
    assert.equal(h.sandbox.ip, '127.0.0.1');
    const pod = { uid: 'sb-uid', name: 'sb', namespace: 'test' };
    const sb = await h.rt.createSandbox({ pod, attempt: 0, ports: [{ containerPort: 8080, hostPort: 18080 }] });
    await assert.rejects(
      h.rt.createSandbox({ pod: { ...pod, uid: 'other' }, attempt: 0, ports: [{ containerPort: 1, hostPort: 18080 }] }),
      /already allocated/,
    );
    await assert.rejects(h.rt.createSandbox({ pod, attempt: 0 }), /already in use/);
    const id = await h.rt.createContainer({ ...h.spec('member', { command: ['sleep', '30'] }), sandboxId: sb.id });
    await h.rt.startContainer(id);
    assert.deepEqual(
      (await h.rt.listSandboxes({ labels: { [POD_UID]: 'sb-uid' } })).map((s) => s.id),
      [sb.id],
    );
    await h.rt.removeSandbox(sb.id);
    await h.rt.removeSandbox(sb.id);
    await assert.rejects(h.rt.inspectContainer(id), ContainerNotFoundError);
    await assert.rejects(h.rt.inspectSandbox(sb.id), SandboxError);
  });

  it('reports its version and status', async () => {
    assert.equal((await h.rt.version()).runtimeName, 'process');
    const status = await h.rt.status();
    assert.equal(status.ready, true, status.message);
    assert.ok((status.info?.cpus ?? 0) > 0);
    const { ProcessRuntime } = await import('./process-runtime.js');
    const broken = await new ProcessRuntime({ stateDir: h.stateDir, perl: join(scratch, 'no-perl') }).status();
    assert.equal(broken.ready, false);
    assert.equal(broken.reason, 'RuntimeUnavailable');
  });
});
