import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import Docker from 'dockerode';
import { NameConflictError, SandboxError } from '../errors.js';
import { POD_UID, SANDBOX_ID } from '../labels.js';
import {
  RUN_ID,
  RUN_LABEL,
  cleanup,
  ensureDocker,
  freePort,
  newPod,
  newRuntime,
  readAll,
  run,
  startSandbox,
} from '../../../../test/support/agent/docker-runtime.js';
import { waitFor } from '../../../../test/support/wait-for.js';

function httpGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

describe('docker pod sandbox', { timeout: 120_000 }, () => {
  const rt = newRuntime();
  const docker = new Docker();
  before(() => ensureDocker(), { timeout: 600_000 });
  after(() => cleanup());

  it("app containers share the sandbox's localhost", async () => {
    const pod = newPod('shared');
    const sandbox = await startSandbox(rt, pod);
    assert.equal(sandbox.state, 'running');
    assert.ok(sandbox.ip !== '', 'the sandbox has a pod IP');
    await run(rt, pod, sandbox, 'server', { command: ['sh', '-c', 'while :; do echo hello-from-a | nc -l -p 8080; done'] });
    // B reaches A on 127.0.0.1: inside the pod's network namespace that is loopback.
    const client = await run(rt, pod, sandbox, 'client', {
      command: ['sh', '-c', 'for i in $(seq 50); do nc 127.0.0.1 8080 </dev/null && exit 0; sleep 0.1; done; exit 1'],
    });
    assert.equal(await rt.waitContainer(client), 0);
    assert.match(await readAll(await rt.logs(client)), /hello-from-a/);
    await rt.removeSandbox(sandbox.id);
  });

  it('publishes a hostPort on 127.0.0.1 only, reachable from the host', async () => {
    const hostPort = await freePort();
    const pod = newPod('web');
    const sandbox = await startSandbox(rt, pod, { hostname: 'web', ports: [{ containerPort: 8080, hostPort }] });
    await run(rt, pod, sandbox, 'httpd', { command: ['httpd', '-f', '-p', '8080', '-h', '/etc'] });
    const body = await waitFor('httpd answers', () => httpGet(hostPort, '/passwd'));
    assert.match(body, /^root:x:0:0/);
    const info = await docker.getContainer(sandbox.id).inspect();
    assert.deepEqual(info.HostConfig.PortBindings, { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: String(hostPort) }] });
    assert.equal(info.Config.Hostname, 'web');
    await rt.removeSandbox(sandbox.id);
  });

  it('a taken hostPort fails the sandbox and leaves nothing behind', async () => {
    const hostPort = await freePort();
    const first = await startSandbox(rt, newPod('port-a'), { ports: [{ containerPort: 80, hostPort }] });
    const pod = newPod('port-b');
    await assert.rejects(startSandbox(rt, pod, { ports: [{ containerPort: 80, hostPort }] }), (err: unknown) => {
      assert.ok(err instanceof SandboxError, String(err));
      assert.match(err.engineMessage, /already allocated|address already in use/i);
      return true;
    });
    assert.deepEqual(await rt.listSandboxes({ labels: { [POD_UID]: pod.uid } }), []);
    await rt.removeSandbox(first.id);
  });

  it('the same pod and attempt cannot get two sandboxes', async () => {
    const pod = newPod('twice');
    const sandbox = await startSandbox(rt, pod);
    await assert.rejects(startSandbox(rt, pod), NameConflictError);
    await rt.removeSandbox(sandbox.id);
  });

  it('lists sandboxes by label and reads the pod back from them', async () => {
    const pod = newPod('listed');
    const sandbox = await startSandbox(rt, pod, { attempt: 2 });
    const found = await rt.listSandboxes({ labels: { [RUN_LABEL]: RUN_ID, [POD_UID]: pod.uid } });
    assert.equal(found.length, 1);
    assert.equal(found[0]?.id, sandbox.id);
    assert.deepEqual(found[0]?.pod, pod);
    assert.equal(found[0]?.attempt, 2);
    assert.equal(found[0]?.ip, sandbox.ip);
    await rt.removeSandbox(sandbox.id);
  });

  it('removeSandbox removes its containers too, and is idempotent', async () => {
    const pod = newPod('cascade');
    const sandbox = await startSandbox(rt, pod);
    await run(rt, pod, sandbox, 'app', { command: ['sleep', '300'] });
    await rt.removeSandbox(sandbox.id.slice(0, 12));
    const left = await docker.listContainers({ all: true, filters: { label: [`${SANDBOX_ID}=${sandbox.id}`] } });
    assert.deepEqual(left, []);
    await rt.removeSandbox(sandbox.id);
  });

  it('host network sandboxes report the host address as pod IP', async () => {
    const pod = newPod('hostnet');
    const sandbox = await startSandbox(rt, pod, { hostNetwork: true });
    assert.equal(sandbox.ip, '127.0.0.1');
    await rt.removeSandbox(sandbox.id);
  });
});
