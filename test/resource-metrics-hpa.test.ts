// Resource metrics and the HorizontalPodAutoscaler end to end: a real `drover up` (its agent
// runs the pods on Docker) driven by the real kubectl. `kubectl top` is checked against the
// container's own cgroup counters, read here straight from the kernel over the very window the
// figure covers; an HPA made by `kubectl autoscale` scales a Deployment of CPU burners up, and
// back down once they stop burning.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { counterAt, cpuCounterOf } from './support/cgroup-figures.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startUpProcess, waitForNodeReady, type UpProcess } from './support/up-process.js';
import { waitFor } from './support/wait-for.js';
import { parseQuantity } from '../src/api/validation/quantity.js';
import { ensureDocker } from './support/repo.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';

const run = promisify(execFile);

const burner = (name: string, labels: string) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {${labels}}}
spec:
  containers:
  - name: burn
    image: drover-test/busybox:1
    command: [sh, -c, 'while :; do :; done']
    resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}
`;

const DEPLOYMENT = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: burners}
spec:
  replicas: 1
  selector: {matchLabels: {app: burners}}
  template:
    metadata: {labels: {app: burners}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - name: burn
        image: drover-test/busybox:1
        command: [sh, -c, 'while :; do :; done']
        resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}
`;

/** kubectl top's CPU ("198m") as millicores, read as the API reads quantities. */
const millicores = (text: string) => (parseQuantity(text) ?? Number.NaN) * 1000;
const mebibytes = (text: string) => (text.endsWith('Mi') ? Number(text.slice(0, -2)) : Number.NaN);

interface PodMetrics {
  timestamp: string;
  window: string;
  containers: Array<{ name: string; usage: { cpu: string; memory: string } }>;
}

describe('kubectl top and the HorizontalPodAutoscaler on drover up', { timeout: 240_000 }, () => {
  let cluster: UpProcess;
  const k = (args: string[], input?: string) => kubectl(cluster.kubeconfig, args, input === undefined ? {} : { input });

  before(async () => {
    requireKubectl();
    ensureDocker();
    cluster = await startUpProcess(`metrics-${process.pid}`, { extraArgs: ['--horizontal-pod-autoscaler-sync-period', '2'] });
    await waitForNodeReady(cluster);
  });

  after(async () => {
    if (!cluster) return;
    await kubectlRaw(cluster.kubeconfig, ['delete', 'hpa,deployments,pods', '--all', '--grace-period=1', '--wait=true', '--timeout=60s']);
    await cluster.stop();
    await removeNodeObjects(cluster.nodeName);
  });

  it("kubectl top pod agrees with the container's cgroup CPU counter over the same window, within 10 %", async (t) => {
    await k(['apply', '-f', '-'], burner('burn', 'app: single'));
    await k(['wait', '--for=condition=Ready', 'pod/burn', '--timeout=60s']);
    const { stdout } = await run('docker', [
      'ps',
      '-q',
      '--filter',
      `label=drover.dev/node=${cluster.nodeName}`,
      '--filter',
      'label=drover.dev/pod-name=burn',
      '--filter',
      'label=drover.dev/kind=container',
    ]);
    const pid = Number((await run('docker', ['inspect', '-f', '{{.State.Pid}}', stdout.trim()])).stdout.trim());
    const counter = cpuCounterOf(pid);
    // The kernel's counter every 100 ms while the figures are asked for.
    const readings: Array<{ t: number; ns: number }> = [];
    const sampler = setInterval(() => readings.push({ t: Date.now(), ns: counter() }), 100);
    try {
      // The API server serves one fan-out for a few seconds: kubectl top and the raw read between
      // two identical raw reads saw the same figures, whose window the counter is compared over.
      // Its timestamp has whole seconds (metav1.Time), so its end lies within the second after.
      const { top, metrics, end, windowMs } = await waitFor(
        'kubectl top and the metrics API agreeing on one sample within the readings',
        async () => {
          const raw = async () => JSON.parse(await k(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/burn'])) as PodMetrics;
          const first = await raw();
          const line = (await k(['top', 'pod', 'burn', '--no-headers'])).trim();
          const second = await raw();
          if (first.timestamp !== second.timestamp || first.window !== second.window) return undefined;
          const seen = {
            top: line,
            metrics: second,
            end: Date.parse(second.timestamp),
            windowMs: Number(/^([\d.]+)s$/.exec(second.window)?.[1] ?? Number.NaN) * 1000,
          };
          await new Promise((r) => setTimeout(r, 1200));
          return readings.length > 0 && readings[0]!.t <= seen.end - seen.windowMs ? seen : undefined;
        },
        90_000,
      );
      assert.ok(windowMs >= 1000, `a window of at least a second: ${metrics.window}`);
      const rates: number[] = [];
      for (let offset = 0; offset <= 1000; offset += 100) {
        const start = counterAt(readings, end + offset - windowMs);
        const finish = counterAt(readings, end + offset);
        if (start !== undefined && finish !== undefined) rates.push((finish - start) / windowMs / 1000);
      }
      assert.ok(rates.length > 0, `the window ${metrics.window} to ${metrics.timestamp} lies within the readings`);
      const [name, cpu, memory] = top.split(/\s+/) as [string, string, string];
      assert.equal(name, 'burn');
      const topMillicores = millicores(cpu);
      // The cgroup's rate over the same window (wherever in its second it ended) closest to top's.
      const cgroupMillicores = rates.reduce((a, b) => (Math.abs(b - topMillicores) < Math.abs(a - topMillicores) ? b : a));
      assert.ok(cgroupMillicores > 20, `the burner burns: ${cgroupMillicores.toFixed(1)}m`);
      assert.ok(
        Math.abs(topMillicores - cgroupMillicores) <= 0.1 * cgroupMillicores,
        `kubectl top says ${cpu}, the cgroup ${rates.map((r) => r.toFixed(1)).join('/')}m over ${metrics.window} to ${metrics.timestamp}`,
      );
      t.diagnostic(`kubectl top: ${cpu}; the cgroup over ${metrics.window} to ${metrics.timestamp}: ${cgroupMillicores.toFixed(1)}m`);
      assert.match(memory, /^\d+Mi$/);
      const containers = (await k(['top', 'pod', 'burn', '--containers', '--no-headers'])).trim().split(/\s+/);
      assert.deepEqual(containers.slice(0, 2), ['burn', 'burn']);
      assert.match(await k(['top', 'pods', '-A']), /^default\s+burn\s+\d+m\s+\d+Mi\s*$/m);
      // Selectors are the pods' own; a pod without figures is NotFound, as metrics-server answers.
      const byLabel = async (selector: string) =>
        (
          JSON.parse(await k(['get', '--raw', `/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?labelSelector=${encodeURIComponent(selector)}`])) as {
            items: unknown[];
          }
        ).items.length;
      assert.deepEqual([await byLabel('app=single'), await byLabel('app=other')], [1, 0]);
      const missing = await kubectlRaw(cluster.kubeconfig, ['get', '--raw', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nope']);
      assert.notEqual(missing.code, 0);
      assert.match(missing.stderr, /NotFound|not found/);
    } finally {
      clearInterval(sampler);
    }
  });

  it('kubectl top pod shows the memory a pod holds', async () => {
    await k([
      'run',
      'hold',
      '--image=drover-test/busybox:1',
      '--restart=Never',
      '--command',
      '--',
      'sh',
      '-c',
      'dd if=/dev/zero of=/dev/shm/fill bs=1048576 count=40 && sleep 3600',
    ]);
    await k(['wait', '--for=condition=Ready', 'pod/hold', '--timeout=60s']);
    const memory = await waitFor(
      '40 MiB held',
      async () => {
        const line = (await k(['top', 'pod', 'hold', '--no-headers'])).trim();
        const value = mebibytes(line.split(/\s+/)[2] ?? '');
        return value >= 40 ? value : undefined;
      },
      30_000,
    );
    // tmpfs pages are the container's; a busybox adds a few MiB at most.
    assert.ok(memory < 40 + 16, `kubectl top says ${memory}Mi for 40 MiB written to /dev/shm`);
  });

  it('kubectl top nodes lists the node with its CPU and memory', async () => {
    const lines = (await k(['top', 'nodes'])).trim().split('\n');
    assert.deepEqual(lines[0]!.trim().split(/\s+/), ['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']);
    const row = lines
      .find((line) => line.startsWith(`${cluster.nodeName} `))
      ?.trim()
      .split(/\s+/);
    assert.ok(row, `a row for ${cluster.nodeName} in:\n${lines.join('\n')}`);
    assert.match(row[1]!, /^\d+m$/);
    const memTotalMi = Number(/^MemTotal:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) / 1024;
    assert.ok(mebibytes(row[3]!) > 0 && mebibytes(row[3]!) <= memTotalMi, `node memory ${row[3]} of ${memTotalMi.toFixed(0)}Mi`);
    const history = JSON.parse(await k(['get', '--raw', `/apis/metrics.k8s.io/v1beta1/nodes/${cluster.nodeName}/history`])) as {
      stepSeconds: number;
      points: unknown[];
    };
    assert.equal(history.stepSeconds, 15);
  });

  it("the view role reads pod metrics, as Kubernetes' aggregated metrics reader grants", async () => {
    await k(['create', 'serviceaccount', 'viewer']);
    await k(['create', 'rolebinding', 'viewer', '--clusterrole=view', '--serviceaccount=default:viewer']);
    const as = ['--as=system:serviceaccount:default:viewer'];
    await waitFor(
      'the binding in force',
      async () => (await kubectlRaw(cluster.kubeconfig, ['auth', 'can-i', 'list', 'pods.metrics.k8s.io', ...as])).stdout.trim() === 'yes',
      15_000,
    );
    assert.match(await k(['top', 'pod', 'burn', ...as]), /^burn\s+\d+m/m);
    // Nodes are cluster-scoped: a namespace's binding does not reach them.
    const nodes = await kubectlRaw(cluster.kubeconfig, ['top', 'nodes', ...as]);
    assert.notEqual(nodes.code, 0);
    assert.match(nodes.stderr, /Forbidden.*cannot list resource "nodes" in API group "metrics\.k8s\.io" at the cluster scope/);
  });

  it('kubectl autoscale scales a Deployment of burners up, and back down once the load stops', async () => {
    await k(['delete', 'pod', 'burn', 'hold', '--grace-period=1', '--wait=false']);
    await k(['apply', '-f', '-'], DEPLOYMENT);
    await k(['rollout', 'status', 'deployment/burners', '--timeout=60s']);
    await k(['autoscale', 'deployment', 'burners', '--cpu-percent=50', '--min=1', '--max=3']);
    // Each burner uses about 200% of its 100m request: the HPA wants more than 3, and is held at 3.
    await waitFor('3 replicas', async () => (await k(['get', 'deployment', 'burners', '-o', 'jsonpath={.spec.replicas}'])) === '3', 60_000);
    // REPLICAS is what the last pass saw: 3 from the pass after the rescale.
    await waitFor(
      'kubectl get hpa showing the reading and 3 replicas',
      async () => {
        const line = (await k(['get', 'hpa', 'burners', '--no-headers'])).trim();
        return /^burners\s+Deployment\/burners\s+cpu: \d+%\/50%\s+1\s+3\s+3\s+/.test(line) ? line : undefined;
      },
      30_000,
    );
    const events = await k(['get', 'events', '--field-selector', 'involvedObject.name=burners,reason=SuccessfulRescale', '-o', 'jsonpath={.items[*].message}']);
    assert.match(events, /New size: 3; reason: cpu resource utilization \(percentage of request\) above target/);
    // The load stops (the pods sleep instead); a short scale-down window lets it come down soon.
    await k(['patch', 'hpa', 'burners', '--type=merge', '-p', JSON.stringify({ spec: { behavior: { scaleDown: { stabilizationWindowSeconds: 5 } } } })]);
    await k([
      'patch',
      'deployment',
      'burners',
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/command', value: ['sh', '-c', 'sleep 3600'] }]),
    ]);
    await waitFor('1 replica', async () => (await k(['get', 'deployment', 'burners', '-o', 'jsonpath={.spec.replicas}'])) === '1', 90_000);
    const status = JSON.parse(await k(['get', 'hpa', 'burners', '-o', 'jsonpath={.status}'])) as {
      desiredReplicas: number;
      conditions: Array<{ type: string; status: string }>;
    };
    assert.equal(status.desiredReplicas, 1);
    assert.deepEqual(status.conditions.find((c) => c.type === 'ScalingActive')?.status, 'True');
    // The v1 view of the same object, as kubectl autoscale made it.
    const v1 = JSON.parse(await k(['get', '--raw', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/burners'])) as {
      spec: { targetCPUUtilizationPercentage: number };
    };
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 50);
    // kubectl apply of an autoscaling/v1 manifest patches through v1; the v2 behavior stays.
    const manifest = JSON.stringify({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'burners', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'burners' },
        minReplicas: 1,
        maxReplicas: 4,
        targetCPUUtilizationPercentage: 60,
      },
    });
    await k(['apply', '-f', '-'], manifest);
    const spec = JSON.parse(await k(['get', 'hpa', 'burners', '-o', 'jsonpath={.spec}'])) as {
      maxReplicas: number;
      metrics: unknown[];
      behavior: { scaleDown: { stabilizationWindowSeconds: number } };
    };
    assert.equal(spec.maxReplicas, 4);
    assert.deepEqual(spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
    assert.equal(spec.behavior.scaleDown.stabilizationWindowSeconds, 5);
  });
});
