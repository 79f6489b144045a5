// Service endpoints end to end: `drover up` with a real Docker node, pods with a readiness
// probe, a Service selecting them, and the real kubectl reading Endpoints and EndpointSlices as
// the pods become ready (the test makes them ready with `kubectl exec`).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { ensureDocker } from './support/repo.js';

function pod(name: string): string {
  return `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: { app: echo }
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: drover-test/busybox:1
    command: ["sh", "-c", "trap 'exit 0' TERM; while :; do sleep 1; done"]
    ports:
    - { name: http, containerPort: 8080 }
    readinessProbe:
      exec: { command: ["test", "-f", "/tmp/ready"] }
      periodSeconds: 1
      failureThreshold: 1
---`;
}

const SERVICE = `
apiVersion: v1
kind: Service
metadata: { name: echo }
spec:
  selector: { app: echo }
  ports:
  - { name: web, port: 80, targetPort: http }
`;

describe('service endpoints (drover up, kubectl)', () => {
  let cluster: UpProcess;
  const k = (...args: string[]) => kubectl(cluster.kubeconfig, args);
  const ipOf = async (name: string) =>
    waitFor(`${name} to get an IP`, async () => (await k('get', 'pod', name, '-o', 'jsonpath={.status.podIP}')) || undefined, 60_000);
  const readyIPs = async () => (await k('get', 'endpoints', 'echo', '-o', 'jsonpath={.subsets[*].addresses[*].ip}')).split(' ').filter(Boolean).sort();
  const notReadyIPs = async () =>
    (await k('get', 'endpoints', 'echo', '-o', 'jsonpath={.subsets[*].notReadyAddresses[*].ip}')).split(' ').filter(Boolean).sort();

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startUpProcess(`endpoints-${process.pid}`);
  });
  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
  });

  it('lists pods in the Endpoints only once they are ready, and every pod in the EndpointSlices', async () => {
    await kubectl(cluster.kubeconfig, ['apply', '-f', '-'], { input: `${pod('echo-1')}\n${pod('echo-2')}\n${SERVICE}` });
    const ip1 = await ipOf('echo-1');
    const ip2 = await ipOf('echo-2');
    await waitFor('both pods listed as not ready', async () => JSON.stringify(await notReadyIPs()) === JSON.stringify([ip1, ip2].sort()), 30_000);
    assert.deepEqual(await readyIPs(), []);

    await k('exec', 'echo-1', '--', 'touch', '/tmp/ready');
    await waitFor('echo-1 ready in the Endpoints', async () => JSON.stringify(await readyIPs()) === JSON.stringify([ip1]), 30_000);
    assert.deepEqual(await notReadyIPs(), [ip2]);
    const table = await k('get', 'endpoints', 'echo');
    assert.match(table, /^NAME\s+ENDPOINTS\s+AGE\n/);
    assert.match(table, new RegExp(`^echo\\s+${ip1.replaceAll('.', '\\.')}:8080\\s+\\S+\\n$`, 'm'));

    const slices = await k('get', 'endpointslices', '-l', 'kubernetes.io/service-name=echo');
    assert.match(slices, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\n/);
    const row = slices.split('\n')[1] ?? '';
    assert.match(row, /^echo-[a-z0-9]{5}\s+IPv4\s+8080\s+\S+\s+\S+$/);
    assert.deepEqual(row.split(/\s+/)[3]?.split(',').sort(), [ip1, ip2].sort());
    const conditions = await k(
      'get',
      'endpointslices',
      '-l',
      'kubernetes.io/service-name=echo',
      '-o',
      'jsonpath={range .items[*].endpoints[*]}{.targetRef.name}={.conditions.ready}{"\\n"}{end}',
    );
    assert.deepEqual(conditions.trim().split('\n').sort(), ['echo-1=true', 'echo-2=false']);
    assert.equal(
      await k(
        'get',
        'endpointslices',
        '-l',
        'kubernetes.io/service-name=echo',
        '-o',
        'jsonpath={.items[0].metadata.ownerReferences[0].kind}/{.items[0].metadata.ownerReferences[0].name}',
      ),
      'Service/echo',
    );

    await k('exec', 'echo-2', '--', 'touch', '/tmp/ready');
    await waitFor('both ready', async () => JSON.stringify(await readyIPs()) === JSON.stringify([ip1, ip2].sort()), 30_000);

    // Not ready again when the probe fails.
    await k('exec', 'echo-2', '--', 'rm', '/tmp/ready');
    await waitFor('echo-2 back to not ready', async () => JSON.stringify(await notReadyIPs()) === JSON.stringify([ip2]), 30_000);
  });

  it('drops a deleted pod', async () => {
    const ip1 = await ipOf('echo-1');
    await k('delete', 'pod', 'echo-1', '--grace-period=1', '--wait=false');
    await waitFor('echo-1 out of the Endpoints', async () => !(await readyIPs()).includes(ip1) && !(await notReadyIPs()).includes(ip1), 30_000);
    await waitFor(
      'echo-1 out of the EndpointSlices',
      async () =>
        !(await k('get', 'endpointslices', '-l', 'kubernetes.io/service-name=echo', '-o', 'jsonpath={.items[*].endpoints[*].addresses[*]}'))
          .split(' ')
          .includes(ip1),
      30_000,
    );
  });
});
