// GPUs as first-class devices, end to end: a `drover server` and a `drover agent` whose PATH
// starts with the stand-in nvidia-smi (8 H100s; CI has no GPU), driven by the real kubectl.
// Discovery and labels, disjoint GPUs by UUID for host-process pods, host processes on the
// node's PATH, the scheduler refusing a
// pod more GPUs than are free, a vanished GPU leaving allocatable, an Xid error in the kernel log
// (a file the agent follows in /dev/kmsg's place) taking a GPU out, DCGM-named metrics, and a
// Docker pod refused for want of the nvidia runtime.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { standInNvidiaSmi, type StandInGpus } from './support/agent/stand-in-gpus.js';
import { ensureDocker, removeNodeObjects } from './support/agent/agent-cluster.js';
import { startDroverProcess, type DroverProcess } from './support/drover-process.js';
import { kubectl, requireKubectl } from './support/kubectl.js';
import { rawRequest } from './support/client/raw-request.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

const GPU = 'nvidia.com/gpu';
const NODE = `gpu-node-${process.pid}`;

interface NodeView {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  status: { capacity: Record<string, string>; allocatable: Record<string, string>; conditions: Array<{ type: string; status: string; message?: string }> };
}

function gpuPod(name: string, gpus: number, runtimeClassName?: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      ...(runtimeClassName ? { runtimeClassName } : {}),
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: 'main',
          image: 'drover-test/busybox:1',
          command: ['sh', '-c', 'echo "cuda=$CUDA_VISIBLE_DEVICES nvidia=$NVIDIA_VISIBLE_DEVICES"; sleep 3600'],
          resources: { limits: { [GPU]: String(gpus) } },
        },
      ],
    },
  });
}

describe('GPU nodes', { timeout: 240_000 }, () => {
  let server: ServerProcess;
  let agent: DroverProcess;
  let smi: StandInGpus;
  let dataDir: string;
  let agentUrl: string;
  let kernelLog: string;
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, input === undefined ? {} : { input });
  const node = async (): Promise<NodeView> => JSON.parse(await k(['get', 'node', NODE, '-o', 'json']));
  /** The node once its allocatable GPUs are `count`. */
  const withAllocatable = (count: string) =>
    waitFor(
      `allocatable ${count}`,
      async () => {
        const v = await node();
        return v.status.allocatable[GPU] === count ? v : undefined;
      },
      20_000,
    );

  before(async () => {
    requireKubectl();
    ensureDocker();
    smi = standInNvidiaSmi();
    server = await startServerProcess();
    dataDir = await mkdtemp(join(tmpdir(), 'drover-gpu-agent-'));
    kernelLog = join(smi.dir, 'kmsg');
    await writeFile(kernelLog, '6,1,1000,-;Linux version 6.8.0 (buildd@lcy02-amd64-001)\n');
    agent = await startDroverProcess(
      [
        'agent',
        '--kubeconfig',
        server.kubeconfig,
        '--node-name',
        NODE,
        '--data-dir',
        dataDir,
        '--gpu-poll-interval',
        '1',
        '--kernel-log',
        kernelLog,
        '--no-service-proxy',
      ],
      `node ${NODE} ready`,
      30_000,
      { ...process.env, PATH: `${smi.dir}:${process.env['PATH'] ?? ''}` },
    );
    const streaming = /streaming on (https:\/\/\S+)\)/.exec(agent.output())?.[1];
    assert.ok(streaming, agent.output());
    agentUrl = streaming;
  });

  after(async () => {
    await k(['delete', 'pods', '--all', '--wait=true', '--timeout=60s']).catch((e: unknown) => console.error(e));
    await agent?.stop();
    await server?.stop();
    await server?.cleanup();
    await removeNodeObjects(NODE);
    smi?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('discovers 8 GPUs: nvidia.com/gpu in capacity and allocatable, GPU feature discovery labels, healthy', async () => {
    const n = await node();
    assert.equal(n.status.capacity[GPU], '8');
    assert.equal(n.status.allocatable[GPU], '8');
    assert.equal(n.metadata.labels['nvidia.com/gpu.product'], 'NVIDIA-H100-80GB-HBM3');
    assert.equal(n.metadata.labels['nvidia.com/gpu.memory'], '81559');
    assert.equal(n.metadata.labels['nvidia.com/gpu.count'], '8');
    assert.equal(n.status.conditions.find((c) => c.type === 'GPUUnhealthy')?.status, 'False');
  });

  it('two host-process pods of 2 GPUs each see disjoint GPUs by UUID in CUDA_VISIBLE_DEVICES', async () => {
    await k(['apply', '-f', '-'], gpuPod('train-a', 2, 'process'));
    await k(['apply', '-f', '-'], gpuPod('train-b', 2, 'process'));
    const seen = new Map<string, string[]>();
    for (const name of ['train-a', 'train-b']) {
      const line = await waitFor(`${name}'s log`, async () => (await k(['logs', name])).trim() || undefined, 60_000);
      const match = /^cuda=(\S+) nvidia=(\S+)$/.exec(line);
      assert.ok(match, line);
      assert.equal(match[1], match[2]);
      seen.set(name, match[1]!.split(','));
    }
    const [a, b] = [seen.get('train-a')!, seen.get('train-b')!];
    assert.equal(a.length, 2);
    assert.equal(b.length, 2);
    for (const uuid of [...a, ...b]) assert.ok(smi.uuids().includes(uuid), uuid);
    assert.equal(new Set([...a, ...b]).size, 4, 'disjoint');
    const describe = await k(['describe', 'node', NODE]);
    assert.match(describe, /nvidia\.com\/gpu\s+4\s+4/, 'Allocated resources');
    await waitFor(
      'the GPU annotations',
      async () => (await k(['describe', 'node', NODE])).includes(`drover.dev/gpu-0: ${smi.uuids()[0]}, NVIDIA H100 80GB HBM3, 0%, 0/81559 MiB`),
      20_000,
    );
  });

  it("a host-process pod runs with the node's PATH: nvidia-smi resolves as for a user of the node", async () => {
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'node-path' },
        spec: {
          runtimeClassName: 'process',
          restartPolicy: 'Never',
          containers: [
            {
              name: 'main',
              image: 'drover-test/busybox:1',
              command: ['sh', '-c', 'echo "PATH=$PATH"; nvidia-smi --query-gpu=index,name --format=csv,noheader,nounits | head -1'],
            },
          ],
        },
      }),
    );
    const log = await waitFor(
      "node-path's log",
      async () => {
        const text = await k(['logs', 'node-path']);
        return text.includes('NVIDIA') ? text : undefined;
      },
      60_000,
    );
    assert.equal(log.split('\n')[0], `PATH=${smi.dir}:${process.env['PATH'] ?? ''}`);
    assert.equal(log.split('\n')[1], '0, NVIDIA H100 80GB HBM3');
    await k(['delete', 'pod', 'node-path', '--wait=true']);
  });

  it('a pod asking 8 GPUs while 4 are held stays Pending with FailedScheduling', async () => {
    await k(['apply', '-f', '-'], gpuPod('too-big', 8, 'process'));
    const message = await waitFor(
      'FailedScheduling',
      async () => {
        const events = JSON.parse(await k(['get', 'events', '--field-selector', 'involvedObject.name=too-big', '-o', 'json'])) as {
          items: Array<{ reason: string; message: string }>;
        };
        return events.items.find((e) => e.reason === 'FailedScheduling')?.message || undefined;
      },
      30_000,
    );
    assert.match(message, /Insufficient nvidia\.com\/gpu/);
    const pod = JSON.parse(await k(['get', 'pod', 'too-big', '-o', 'json'])) as { spec: { nodeName?: string }; status: { phase: string } };
    assert.equal(pod.status.phase, 'Pending');
    assert.equal(pod.spec.nodeName, undefined);
    await k(['delete', 'pod', 'too-big', '--wait=true']);
  });

  it("the agent's /metrics has the DCGM exporter's names, with the holding pod on held GPUs", async () => {
    // The agent serves over TLS to the cluster's own clients: here the admin, as Prometheus would scrape with a client certificate.
    const text = (await rawRequest(agentUrl, server.tls, 'GET', '/metrics')).text;
    for (const name of ['DCGM_FI_DEV_GPU_UTIL', 'DCGM_FI_DEV_FB_USED', 'DCGM_FI_DEV_FB_FREE', 'DCGM_FI_DEV_GPU_TEMP', 'DCGM_FI_DEV_POWER_USAGE']) {
      assert.equal(text.split('\n').filter((l) => l.startsWith(`${name}{`)).length, 8, `${name} per GPU:\n${text}`);
    }
    const held = text.split('\n').filter((l) => l.startsWith('DCGM_FI_DEV_GPU_TEMP{') && /namespace="default",pod="train-[ab]",container="main"/.test(l));
    assert.equal(held.length, 4, text);
    assert.match(
      text,
      new RegExp(
        `DCGM_FI_DEV_FB_FREE\\{gpu="\\d",UUID="GPU-[^"]+",device="nvidia\\d",modelName="NVIDIA H100 80GB HBM3",Hostname="${NODE}",namespace="",pod="",container=""\\} 81559`,
      ),
    );
  });

  it('a GPU gone from nvidia-smi leaves allocatable and sets GPUUnhealthy; its return clears both', async () => {
    const lines = smi.lines();
    const gone = smi.uuids()[7]!;
    smi.write(lines.filter((l) => !l.includes(gone)));
    try {
      const n = await withAllocatable('7');
      assert.equal(n.status.capacity[GPU], '8');
      const condition = n.status.conditions.find((c) => c.type === 'GPUUnhealthy');
      assert.equal(condition?.status, 'True');
      assert.match(condition?.message ?? '', new RegExp(gone));
    } finally {
      smi.write(lines);
    }
    await waitFor(
      'healthy again',
      async () => {
        const v = await node();
        return v.status.allocatable[GPU] === '8' && v.status.conditions.find((c) => c.type === 'GPUUnhealthy')?.status === 'False';
      },
      20_000,
    );
  });

  it('an Xid 79 in the kernel log takes that GPU out of allocatable and GPUUnhealthy names it and the Xid; an Xid 13 changes nothing', async () => {
    const [appOnly, fatal] = [2, 6];
    const pci = (i: number) => smi.busIds()[i]!.replace(/^0000/, '').replace(/\.0$/, '').toLowerCase(); // "0000:ba:00", as the driver writes it
    await appendFile(
      kernelLog,
      [
        `4,2001,9000001,-;NVRM: Xid (PCI:${pci(appOnly)}): 13, pid=4242, name=python3, Graphics SM Warp Exception on (GPC 0, TPC 0, SM 0): Out Of Range Address`,
        `4,2002,9000002,-;NVRM: Xid (PCI:${pci(fatal)}): 79, pid=1234, name=python3, GPU has fallen off the bus.`,
        '',
      ].join('\n'),
    );
    const n = await withAllocatable('7');
    assert.equal(n.status.capacity[GPU], '8');
    const condition = n.status.conditions.find((c) => c.type === 'GPUUnhealthy');
    assert.equal(condition?.status, 'True');
    assert.equal(
      condition?.message,
      `unhealthy GPUs, not allocatable: ${smi.uuids()[fatal]} (PCI ${pci(fatal)}): Xid 79 GPU has fallen off the bus; unhealthy until the GPU is reset and the agent restarted`,
    );
    assert.ok(!condition?.message?.includes(smi.uuids()[appOnly]!), "Xid 13 is the application's fault, not the GPU's");
    // nvidia-smi still lists the GPU, and polls every second: it stays out.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal((await node()).status.allocatable[GPU], '7');
  });

  it('a Docker pod asking a GPU on a daemon without the nvidia runtime fails with UnexpectedAdmissionError and a Warning', async (t) => {
    const runtimes = execFileSync('docker', ['info', '--format', '{{json .Runtimes}}'], { encoding: 'utf8' });
    if (runtimes.includes('"nvidia"')) return t.skip('this Docker has the nvidia runtime');
    await k(['apply', '-f', '-'], gpuPod('docker-gpu', 1));
    const pod = await waitFor(
      'docker-gpu Failed',
      async () => {
        const p = JSON.parse(await k(['get', 'pod', 'docker-gpu', '-o', 'json'])) as { status: { phase: string; reason?: string; message?: string } };
        return p.status.phase === 'Failed' ? p : undefined;
      },
      30_000,
    );
    assert.equal(pod.status.reason, 'UnexpectedAdmissionError');
    assert.match(pod.status.message ?? '', /no nvidia runtime/);
    const events = JSON.parse(await k(['get', 'events', '--field-selector', 'involvedObject.name=docker-gpu', '-o', 'json'])) as {
      items: Array<{ type: string; reason: string; message: string }>;
    };
    assert.ok(
      events.items.some((e) => e.type === 'Warning' && e.reason === 'UnexpectedAdmissionError' && /nvidia-ctk runtime configure/.test(e.message)),
      JSON.stringify(events.items),
    );
  });
});
