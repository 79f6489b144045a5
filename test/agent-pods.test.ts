// The node agent against a real API server (in process) and the real Docker Engine: pods run,
// crash and back off, fail to pull, publish host ports, see their env and volumes, are probed,
// initialise in order, finish, run as host processes, are deleted; the node reports extended
// resources and renews its Lease. The cases run concurrently on one agent.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { resources } from '../src/client/index.js';
import { ResolveError, startAgent, type Agent } from '../src/agent/index.js';
import { freePort } from './support/free-port.js';
import {
  containerIdOf,
  deleteAllPods,
  dockerExec,
  ensureDocker,
  podSpec,
  startTestCluster,
  waitForPod,
  waitForPodGone,
  type TestCluster,
} from './support/agent/agent-cluster.js';
import { waitFor } from './support/wait-for.js';
import type { Pod } from '../src/api/core/index.js';

const GPU = 'example.com/gpu';

let cluster: TestCluster;
let agent: Agent;

function ready(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function main(pod: Pod, name = 'main') {
  return pod.status?.containerStatuses?.find((s) => s.name === name);
}

async function events(name: string): Promise<Array<{ reason: string; message: string }>> {
  const list = await cluster.api.resource(resources.events, 'default').list();
  return list.items
    .filter((e) => (e['involvedObject'] as { name?: string }).name === name)
    .map((e) => ({ reason: String(e['reason']), message: String(e['message']) }));
}

describe('node agent on Docker', { concurrency: true }, () => {
  before(async () => {
    ensureDocker();
    cluster = await startTestCluster('agent-pods');
    agent = await startAgent({
      kubeconfig: cluster.kubeconfig,
      nodeName: cluster.nodeName,
      dataDir: `${cluster.dir}/agent`,
      extendedResources: { [GPU]: 2 },
      labels: { 'drover.dev/test': 'yes' },
      streamingPort: 10250,
      // The default ranges: leave this machine's shared service rules alone.
      serviceProxy: false,
    });
  });

  after(async () => {
    if (cluster && agent) await deleteAllPods(cluster).catch((error: unknown) => console.error(error));
    await agent?.close();
    await cluster?.close();
  });

  test('a pod runs: Running, ready, pod IP, docker container id', async () => {
    const started = Date.now();
    await cluster.pods.create(podSpec('runs', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'] }]));
    const pod = await waitForPod(cluster, 'runs', 'Running and Ready', (p) => p.status?.phase === 'Running' && ready(p));
    console.log(`# pod create → Running and Ready, with the other cases starting at once: ${Date.now() - started} ms`);
    assert.match(pod.status?.podIP ?? '', /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(pod.status?.hostIP, '127.0.0.1');
    assert.match(main(pod)?.containerID ?? '', /^docker:\/\/[0-9a-f]{64}$/);
    assert.match(main(pod)?.imageID ?? '', /^sha256:/);
    assert.equal(main(pod)?.restartCount, 0);
    assert.equal(main(pod)?.started, true);
    assert.ok(main(pod)?.state.running?.startedAt);
    const resolved = await agent.resolver.resolve('default', 'runs');
    assert.equal(`docker://${resolved.containerId}`, main(pod)?.containerID);
    assert.equal(resolved.dialDirect, false);
    assert.ok(resolved.sandboxId);
    assert.equal((await agent.resolver.resolve('default', 'runs', 'main')).containerId, resolved.containerId);
    assert.equal((await agent.resolver.resolveSandbox('default', 'runs')).sandboxId, resolved.sandboxId);
    await assert.rejects(agent.resolver.resolve('default', 'no-such-pod', 'main'), (error: unknown) => {
      assert.ok(error instanceof ResolveError);
      assert.equal(error.code, 404);
      assert.equal(error.message, 'pods "no-such-pod" not found');
      return true;
    });
    const reasons = (await events('runs')).map((e) => e.reason);
    for (const reason of ['Pulled', 'Created', 'Started']) assert.ok(reasons.includes(reason), `event ${reason} in ${reasons.join(',')}`);
  });

  test('a crashing container restarts and goes into CrashLoopBackOff', async () => {
    await cluster.pods.create(podSpec('crash', cluster.nodeName, [{ name: 'main', command: ['sh', '-c', 'echo dying; exit 1'] }]));
    const pod = await waitForPod(cluster, 'crash', 'CrashLoopBackOff', (p) => main(p)?.state.waiting?.reason === 'CrashLoopBackOff');
    const status = main(pod)!;
    assert.ok(status.restartCount >= 1, `restartCount ${status.restartCount}`);
    assert.equal(status.lastState.terminated?.exitCode, 1);
    assert.equal(status.lastState.terminated?.reason, 'Error');
    assert.match(status.state.waiting?.message ?? '', /^back-off 10s restarting failed container=main pod=crash_default/);
    assert.equal(pod.status?.phase, 'Running');
    // The event is written beside the status, not before it: on a loaded machine it may come a moment later.
    await waitFor('the BackOff event', async () => (await events('crash')).some((e) => e.reason === 'BackOff'), 30_000);
    assert.ok((await agent.resolver.resolve('default', 'crash', 'main')).previousContainerId, 'logs --previous has a container');
  });

  test('a missing image is ErrImagePull, then ImagePullBackOff with the engine message', async () => {
    await cluster.pods.create(podSpec('noimage', cluster.nodeName, [{ name: 'main', image: '127.0.0.1:1/nope:1' }]));
    const first = await waitForPod(cluster, 'noimage', 'ErrImagePull', (p) => main(p)?.state.waiting?.reason === 'ErrImagePull');
    assert.match(main(first)?.state.waiting?.message ?? '', /127\.0\.0\.1:1/);
    const later = await waitForPod(cluster, 'noimage', 'ImagePullBackOff', (p) => main(p)?.state.waiting?.reason === 'ImagePullBackOff');
    assert.match(main(later)?.state.waiting?.message ?? '', /Back-off pulling image "127\.0\.0\.1:1\/nope:1"/);
    assert.equal(later.status?.phase, 'Pending');
    const reasons = (await events('noimage')).map((e) => e.reason);
    assert.ok(reasons.includes('Pulling') && reasons.includes('Failed'), reasons.join(','));
  });

  test('a hostPort is reachable on 127.0.0.1', async () => {
    const hostPort = await freePort();
    await cluster.pods.create(
      podSpec('web', cluster.nodeName, [
        {
          name: 'main',
          command: ['sh', '-c', 'mkdir -p /www && echo hello-from-pod > /www/index.html && exec httpd -f -p 8080 -h /www'],
          ports: [{ name: 'http', containerPort: 8080, hostPort }],
          readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 1 },
          livenessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1, failureThreshold: 2 },
        },
      ]),
    );
    await waitForPod(cluster, 'web', 'Ready (httpGet probe)', ready);
    const body = await waitFor(
      'the page',
      async () => {
        const res = await fetch(`http://127.0.0.1:${hostPort}/`).catch(() => undefined);
        return res?.ok ? res.text() : undefined;
      },
      20_000,
    );
    assert.equal(body.trim(), 'hello-from-pod');
    const pod = await cluster.pods.get('web');
    assert.equal(main(pod)?.restartCount, 0, 'the tcpSocket liveness probe passes');
  });

  test('env, configMap and secret volumes and downward API reach the container', async () => {
    await cluster.api.resource(resources.configmaps, 'default').create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg' },
      data: { 'app.conf': 'color=blue', greeting: 'hi' },
    });
    await cluster.api.resource(resources.secrets, 'default').create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sec' },
      data: { password: Buffer.from('s3cret').toString('base64') },
    });
    await cluster.pods.create(
      podSpec(
        'envvol',
        cluster.nodeName,
        [
          {
            name: 'main',
            command: ['sleep', '3600'],
            env: [
              { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'greeting' } } },
              { name: 'MESSAGE', value: '$(GREETING) there' },
              { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'sec', key: 'password' } } },
              { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
            ],
            volumeMounts: [
              { name: 'cfg', mountPath: '/etc/cfg' },
              { name: 'sec', mountPath: '/etc/sec' },
              { name: 'scratch', mountPath: '/scratch' },
              { name: 'cfg', mountPath: '/etc/app.conf', subPath: 'app.conf' },
              { name: 'info', mountPath: '/etc/info' },
            ],
            lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo hooked > /scratch/post-start'] } } },
          },
        ],
        {
          volumes: [
            { name: 'cfg', configMap: { name: 'cfg' } },
            { name: 'sec', secret: { secretName: 'sec' } },
            { name: 'scratch', emptyDir: {} },
            { name: 'info', downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } },
          ],
        },
      ),
    );
    const pod = await waitForPod(cluster, 'envvol', 'Running', (p) => p.status?.phase === 'Running');
    const id = containerIdOf(pod, 'main');
    const env = (await dockerExec(id, ['env'])).output;
    assert.match(env, /^MESSAGE=hi there$/m);
    assert.match(env, /^PASSWORD=s3cret$/m);
    assert.match(env, /^POD_NAME=envvol$/m);
    assert.match(env, new RegExp(`^NODE=${cluster.nodeName}$`, 'm'));
    assert.equal((await dockerExec(id, ['cat', '/etc/cfg/app.conf'])).output, 'color=blue');
    assert.equal((await dockerExec(id, ['cat', '/etc/sec/password'])).output, 's3cret');
    assert.equal((await dockerExec(id, ['sh', '-c', 'echo ok > /scratch/x && cat /scratch/x'])).output.trim(), 'ok');
    assert.equal((await dockerExec(id, ['cat', '/scratch/post-start'])).output.trim(), 'hooked');
    assert.equal((await dockerExec(id, ['cat', '/etc/app.conf'])).output, 'color=blue');
    assert.equal((await dockerExec(id, ['cat', '/etc/info/name'])).output, 'envvol');
    assert.notEqual((await dockerExec(id, ['sh', '-c', 'echo x > /etc/cfg/new'])).code, 0, 'configMap volumes are read-only');
  });

  test('a missing command cannot run and backs off', async () => {
    await cluster.pods.create(podSpec('nocmd', cluster.nodeName, [{ name: 'main', command: ['/no/such/binary'] }]));
    const pod = await waitForPod(cluster, 'nocmd', 'CrashLoopBackOff', (p) => main(p)?.state.waiting?.reason === 'CrashLoopBackOff');
    assert.equal(main(pod)?.lastState.terminated?.reason, 'ContainerCannotRun');
    assert.match(main(pod)?.lastState.terminated?.message ?? '', /no such file or directory/);
  });

  test('a container over its memory limit is OOMKilled', async () => {
    await cluster.pods.create(
      podSpec(
        'oom',
        cluster.nodeName,
        [
          {
            name: 'main',
            command: ['sh', '-c', 'a=$(head -c 67108864 /dev/zero | tr "\\0" a); echo ${#a}'],
            resources: { limits: { memory: '16Mi' } },
          },
        ],
        { restartPolicy: 'Never' },
      ),
    );
    await waitForPod(cluster, 'oom', 'Failed', (p) => p.status?.phase === 'Failed');
    // Docker learns of the OOM kill from the kernel's event, which can come after the exit:
    // the status may say Error first and must then turn to OOMKilled.
    const pod = await waitForPod(cluster, 'oom', 'OOMKilled', (p) => main(p)?.state.terminated?.reason === 'OOMKilled');
    assert.equal(main(pod)?.state.terminated?.exitCode, 137);
  });

  test('a dead sandbox is replaced and the pod started over; only the last dead container stays, for logs --previous', async () => {
    const uid = (
      await cluster.pods.create(
        podSpec('resandbox', cluster.nodeName, [{ name: 'main', command: ['sh', '-c', 'echo instance $(cat /proc/sys/kernel/random/uuid); exec sleep 3600'] }]),
      )
    ).metadata.uid!;
    const podObjects = () =>
      execFileSync(
        'docker',
        ['ps', '-a', '--no-trunc', '--format', '{{.ID}} {{.Label "drover.dev/container-name"}}', '--filter', `label=drover.dev/pod-uid=${uid}`],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n')
        .sort();
    // What `kubectl logs [--previous]` reads: the container the agent resolves, and its log.
    const log = async (previous: boolean) => {
      const { containerId } = await agent.resolver.resolve('default', 'resandbox', 'main', { previous });
      return execFileSync('docker', ['logs', containerId], { encoding: 'utf8' });
    };
    let current = await waitForPod(cluster, 'resandbox', 'Running', (p) => main(p)?.state.running !== undefined);
    const ids = [containerIdOf(current, 'main')];
    for (let replacement = 1; replacement <= 2; replacement++) {
      const firstLog = await log(false);
      execFileSync('docker', ['kill', (await agent.resolver.resolveSandbox('default', 'resandbox')).sandboxId]);
      current = await waitForPod(
        cluster,
        'resandbox',
        `running again (${replacement})`,
        (p) => (main(p)?.restartCount ?? 0) >= replacement && main(p)?.state.running !== undefined,
      );
      ids.push(containerIdOf(current, 'main'));
      assert.match(await log(true), /^instance [0-9a-f-]{36}\n$/);
      assert.equal(await log(true), firstLog, 'logs --previous reads the container of the replaced sandbox');
      assert.notEqual(await log(false), firstLog);
    }
    const sandbox = (await agent.resolver.resolveSandbox('default', 'resandbox')).sandboxId;
    // The new sandbox and its container, and the newest dead container; the first one is gone.
    assert.deepEqual(podObjects(), [`${sandbox} `, `${ids[2]} main`, `${ids[1]} main`].sort());
    assert.ok((await events('resandbox')).some((e) => e.reason === 'SandboxChanged'));
  });

  test('a changed image replaces the running container', async () => {
    await cluster.pods.create(podSpec('upgrade', cluster.nodeName, [{ name: 'main', command: ['sh', '-c', 'cat /VERSION; exec sleep 3600'] }]));
    const before = await waitForPod(cluster, 'upgrade', 'Running', (p) => main(p)?.state.running !== undefined);
    await cluster.pods.patch('upgrade', 'strategic', { spec: { containers: [{ name: 'main', image: 'drover-test/busybox:2' }] } });
    const after = await waitForPod(
      cluster,
      'upgrade',
      'running the new image',
      (p) => main(p)?.image === 'drover-test/busybox:2' && main(p)?.state.running !== undefined,
    );
    assert.notEqual(containerIdOf(after, 'main'), containerIdOf(before, 'main'));
    assert.equal((await dockerExec(containerIdOf(after, 'main'), ['cat', '/VERSION'])).output.trim(), '2');
    assert.ok((await events('upgrade')).some((e) => e.reason === 'Killing' && /definition changed/.test(e.message)));
  });

  test('a missing configMap in env is CreateContainerConfigError', async () => {
    await cluster.pods.create(
      podSpec('nocfg', cluster.nodeName, [
        {
          name: 'main',
          command: ['sleep', '3600'],
          env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'absent', key: 'k' } } }],
        },
      ]),
    );
    const pod = await waitForPod(cluster, 'nocfg', 'CreateContainerConfigError', (p) => main(p)?.state.waiting?.reason === 'CreateContainerConfigError');
    assert.equal(main(pod)?.state.waiting?.message, 'configmap "absent" not found');
  });

  test('a missing configMap volume is FailedMount until the configMap appears', async () => {
    await cluster.pods.create(
      podSpec('latecfg', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'], volumeMounts: [{ name: 'c', mountPath: '/c' }] }], {
        volumes: [{ name: 'c', configMap: { name: 'late' } }],
      }),
    );
    await waitFor(
      'FailedMount',
      async () => ((await events('latecfg')).some((e) => e.reason === 'FailedMount' && /configmap "late" not found/.test(e.message)) ? true : undefined),
      20_000,
    );
    // The status may follow the event by a moment (the sandbox is still starting).
    await waitForPod(cluster, 'latecfg', 'ContainerCreating', (p) => main(p)?.state.waiting?.reason === 'ContainerCreating');
    await cluster.api.resource(resources.configmaps, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' }, data: { k: 'v' } });
    const pod = await waitForPod(cluster, 'latecfg', 'Running', (p) => p.status?.phase === 'Running');
    assert.equal((await dockerExec(containerIdOf(pod, 'main'), ['cat', '/c/k'])).output, 'v');
  });

  test('an exec readiness probe toggles Ready', async () => {
    await cluster.pods.create(
      podSpec('readiness', cluster.nodeName, [
        {
          name: 'main',
          command: ['sh', '-c', 'touch /tmp/ready; exec sleep 3600'],
          readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1, failureThreshold: 1 },
        },
      ]),
    );
    const pod = await waitForPod(cluster, 'readiness', 'Ready', ready);
    const id = containerIdOf(pod, 'main');
    await dockerExec(id, ['rm', '/tmp/ready']);
    const notReady = await waitForPod(cluster, 'readiness', 'not Ready', (p) => !ready(p));
    assert.equal(main(notReady)?.ready, false);
    assert.equal(notReady.status?.phase, 'Running');
    await dockerExec(id, ['touch', '/tmp/ready']);
    await waitForPod(cluster, 'readiness', 'Ready again', ready);
    assert.ok((await events('readiness')).some((e) => e.reason === 'Unhealthy' && e.message.startsWith('Readiness probe failed')));
  });

  test('a failing liveness probe restarts the container', async () => {
    await cluster.pods.create(
      podSpec('liveness', cluster.nodeName, [
        {
          name: 'main',
          command: ['sh', '-c', 'touch /tmp/alive; exec sleep 3600'],
          livenessProbe: { exec: { command: ['cat', '/tmp/alive'] }, periodSeconds: 1, failureThreshold: 1 },
        },
      ]),
    );
    const pod = await waitForPod(cluster, 'liveness', 'Running', (p) => main(p)?.state.running !== undefined);
    await dockerExec(containerIdOf(pod, 'main'), ['rm', '/tmp/alive']);
    const restarted = await waitForPod(cluster, 'liveness', 'restarted', (p) => (main(p)?.restartCount ?? 0) >= 1 && main(p)?.state.running !== undefined);
    assert.notEqual(containerIdOf(restarted, 'main'), containerIdOf(pod, 'main'));
    const all = await events('liveness');
    assert.ok(
      all.some((e) => e.reason === 'Killing' && /failed liveness probe, will be restarted/.test(e.message)),
      JSON.stringify(all),
    );
    assert.ok(all.some((e) => e.reason === 'Unhealthy' && e.message.startsWith('Liveness probe failed')));
  });

  test('init containers run in order before the app container', async () => {
    await cluster.pods.create(
      podSpec(
        'init',
        cluster.nodeName,
        [{ name: 'main', command: ['sh', '-c', 'cat /work/order; exec sleep 3600'], volumeMounts: [{ name: 'work', mountPath: '/work' }] }],
        {
          volumes: [{ name: 'work', emptyDir: {} }],
          initContainers: [
            {
              name: 'first',
              image: 'drover-test/busybox:1',
              command: ['sh', '-c', 'sleep 0.5; echo first >> /work/order'],
              volumeMounts: [{ name: 'work', mountPath: '/work' }],
            },
            {
              name: 'second',
              image: 'drover-test/busybox:1',
              command: ['sh', '-c', 'echo second >> /work/order'],
              volumeMounts: [{ name: 'work', mountPath: '/work' }],
            },
          ],
        },
      ),
    );
    const pod = await waitForPod(cluster, 'init', 'Running', (p) => p.status?.phase === 'Running' && main(p)?.state.running !== undefined);
    assert.deepEqual(
      pod.status?.initContainerStatuses?.map((s) => s.state.terminated?.reason),
      ['Completed', 'Completed'],
    );
    assert.equal((await dockerExec(containerIdOf(pod, 'main'), ['cat', '/work/order'])).output, 'first\nsecond\n');
    assert.ok(pod.status?.conditions?.some((c) => c.type === 'Initialized' && c.status === 'True'));
  });

  test('restartPolicy Never: exit 0 is Succeeded, exit 3 is Failed', async () => {
    await cluster.pods.create(podSpec('ok', cluster.nodeName, [{ name: 'main', command: ['sh', '-c', 'exit 0'] }], { restartPolicy: 'Never' }));
    await cluster.pods.create(podSpec('bad', cluster.nodeName, [{ name: 'main', command: ['sh', '-c', 'echo failing; exit 3'] }], { restartPolicy: 'Never' }));
    const ok = await waitForPod(cluster, 'ok', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    const bad = await waitForPod(cluster, 'bad', 'Failed', (p) => p.status?.phase === 'Failed');
    assert.equal(main(ok)?.state.terminated?.reason, 'Completed');
    assert.equal(main(bad)?.state.terminated?.exitCode, 3);
    assert.equal(main(bad)?.state.terminated?.reason, 'Error');
    assert.equal(main(bad)?.restartCount, 0);
  });

  test('a process-runtime pod runs as a host process', async () => {
    await cluster.pods.create(
      podSpec('proc', cluster.nodeName, [{ name: 'main', command: ['sh', '-c', 'echo hi; sleep 30'] }], { runtimeClassName: 'process' }),
    );
    const pod = await waitForPod(cluster, 'proc', 'Running', (p) => p.status?.phase === 'Running' && ready(p));
    assert.match(main(pod)?.containerID ?? '', /^process:\/\//);
    assert.equal(pod.status?.podIP, '127.0.0.1');
    const resolved = await agent.resolver.resolve('default', 'proc');
    assert.equal(resolved.runtime.name, 'process');
    assert.equal(resolved.dialDirect, true);
    assert.equal((await agent.resolver.resolveSandbox('default', 'proc')).dialDirect, true, 'port-forward dials the node');
    const chunks: Buffer[] = [];
    for await (const chunk of await resolved.runtime.logs(resolved.containerId)) chunks.push(Buffer.from(chunk as Buffer));
    assert.match(Buffer.concat(chunks).toString(), /hi/);
  });

  test('deleting a pod runs preStop, stops its containers and removes the object', async () => {
    const out = `${cluster.dir}/prestop`;
    await cluster.pods.create(
      podSpec(
        'gone',
        cluster.nodeName,
        [
          {
            name: 'main',
            command: ['sleep', '3600'],
            volumeMounts: [{ name: 'out', mountPath: '/out' }],
            lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo bye > /out/said'] } } },
          },
        ],
        { volumes: [{ name: 'out', hostPath: { path: out, type: 'DirectoryOrCreate' } }] },
      ),
    );
    const pod = await waitForPod(cluster, 'gone', 'Running', (p) => p.status?.phase === 'Running');
    const id = containerIdOf(pod, 'main');
    await cluster.pods.delete('gone');
    await waitForPodGone(cluster, 'gone');
    const left = await dockerExec(id, ['true']);
    assert.notEqual(left.code, 0, 'the container is gone');
    assert.equal(readFileSync(`${out}/said`, 'utf8').trim(), 'bye');
  });

  test('a startup probe holds readiness until it succeeds', async () => {
    await cluster.pods.create(
      podSpec('slowstart', cluster.nodeName, [
        {
          name: 'main',
          command: ['sh', '-c', 'sleep 2; touch /tmp/started; exec sleep 3600'],
          startupProbe: { exec: { command: ['test', '-f', '/tmp/started'] }, periodSeconds: 1, failureThreshold: 30 },
        },
      ]),
    );
    const early = await waitForPod(cluster, 'slowstart', 'Running', (p) => main(p)?.state.running !== undefined);
    assert.equal(main(early)?.started, false);
    assert.equal(ready(early), false);
    const later = await waitForPod(cluster, 'slowstart', 'started and Ready', (p) => main(p)?.started === true && ready(p));
    assert.equal(main(later)?.restartCount, 0);
  });

  test('extended resources: node capacity and device env', async () => {
    const node = await cluster.api.resource(resources.nodes).get(cluster.nodeName);
    const status = node['status'] as {
      capacity: Record<string, string>;
      allocatable: Record<string, string>;
      daemonEndpoints: { kubeletEndpoint: { Port: number } };
    };
    assert.equal(status.capacity[GPU], '2');
    assert.equal(status.allocatable[GPU], '2');
    assert.equal(status.daemonEndpoints.kubeletEndpoint.Port, 10250);
    assert.equal(node.metadata.labels?.['drover.dev/test'], 'yes');
    await cluster.pods.create(podSpec('gpu', cluster.nodeName, [{ name: 'main', command: ['sleep', '3600'], resources: { limits: { [GPU]: '1' } } }]));
    const pod = await waitForPod(cluster, 'gpu', 'Running', (p) => p.status?.phase === 'Running');
    const env = (await dockerExec(containerIdOf(pod, 'main'), ['env'])).output;
    assert.match(env, /^DROVER_VISIBLE_DEVICES=[01]$/m);
  });

  test('the node Lease is renewed', async () => {
    const leases = cluster.api.resource(resources.leases, 'kube-node-lease');
    const first = await leases.get(cluster.nodeName);
    const spec = first['spec'] as { holderIdentity: string; leaseDurationSeconds: number; renewTime: string };
    assert.equal(spec.holderIdentity, cluster.nodeName);
    assert.equal(spec.leaseDurationSeconds, 40);
    await waitFor(
      'a renewal',
      async () => {
        const next = await leases.get(cluster.nodeName);
        return (next['spec'] as { renewTime: string }).renewTime !== spec.renewTime ? true : undefined;
      },
      15_000,
    );
  });
});
