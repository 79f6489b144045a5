// `npm run bench:gpu`: issue 23 (GPUs) on a machine with real NVIDIA GPUs. A `drover server` and
// a `drover agent --runtime process` that finds the GPUs through the machine's own nvidia-smi;
// then, through the API:
//   discovery  the Node's nvidia.com/gpu capacity/allocatable and GPU labels match nvidia-smi;
//   (a)        a pod with limits nvidia.com/gpu: 1 sees exactly one GPU by UUID in
//              CUDA_VISIBLE_DEVICES and NVIDIA_VISIBLE_DEVICES, and PyTorch sees 1 device;
//   (b)        a pod asking no GPU sees none (PyTorch: 0 devices);
//   (c)        a pod asking one GPU more than the node has stays Pending with FailedScheduling;
//   (d)        a PyTorchJob (the training-job controller, gang scheduled) of a Master with 1 GPU
//              and a Worker with none (with 1 when the node has 2+ GPUs), both host processes
//              that meet through torch.distributed (gloo) at the MASTER_ADDR/MASTER_PORT the
//              controller set and train a tiny model a few steps, all-reducing gradients: it
//              Succeeds, its PodGroup holds both, the master saw exactly its GPU by UUID and the
//              worker none (or one of its own), and both ranks end with the same, lower loss.
// And the figures: the same bf16 matmul in the pod and straight on the host, alternating, over
// BENCH_GPU_ROUNDS rounds (default 3), with each pod's create → Running and → first line, and
// the job's apply → Running and → Succeeded.
// Prints PASS/FAIL per check and exits 1 on a FAIL (never on a time); 2 when this machine has
// no nvidia-smi or python3 on the PATH, at once. (d) says SKIP for its training half only when a
// replica's python3 says it is the stand-in of scripts/device-gpu-dry-run.sh, which has no PyTorch.
import { hostname } from 'node:os';
import { INVENTORY_FIELDS, findOnPath, parseInventory, queryGpus, type GpuInfo } from '../src/agent/gpu/nvidia-smi.js';
import type { Node } from '../src/api/core/index.js';
import { resources } from '../src/client/index.js';
import { rawRequest } from '../test/support/client/raw-request.js';
import { waitFor } from '../test/support/wait-for.js';
import { startGpuCluster, type GpuCluster } from './gpu-cluster.js';
import { GPU, PASSED_FROM_HOST, deletePod, probePod, runPod, unschedulable, type PodRun } from './gpu-pods.js';
import { MATMUL_SIZE, parseProbe, runOnHost, type ProbeOutput } from './gpu-probe.js';
import { median } from './peers.js';
import { judgeTraining } from './gpu-training-check.js';
import { runTrainingJob, trainingJob, type TrainingRun } from './gpu-training.js';

const ROUNDS = Number(process.env['BENCH_GPU_ROUNDS'] ?? 3);
const NODE = `gpu-bench-${hostname()
  .toLowerCase()
  .replace(/[^a-z0-9-]/g, '-')
  .slice(0, 40)
  .replace(/-+$/, '')}`;

const failures: string[] = [];
const skipped: string[] = [];

function check(name: string, pass: boolean, detail: string): boolean {
  console.log(`${pass ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
  if (!pass) failures.push(name);
  return pass;
}

function skip(name: string, reason: string): void {
  console.log(`SKIP ${name}: ${reason}`);
  skipped.push(name);
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');
}

/** Exit 2 at once: without these this machine cannot run the check at all. */
function requireTools(): string {
  const smi = findOnPath('nvidia-smi');
  if (!smi) {
    console.log('bench:gpu: no nvidia-smi on the PATH: this machine shows no NVIDIA GPU, so there is nothing to check (exit 2)');
    process.exit(2);
  }
  if (!findOnPath('python3')) {
    console.log('bench:gpu: no python3 on the PATH: the pods and the host peer run `python3 -c` with PyTorch (exit 2)');
    process.exit(2);
  }
  return smi;
}

async function checkDiscovery(cluster: GpuCluster, gpus: GpuInfo[]): Promise<void> {
  const api = cluster.api.resource<Node>(resources.nodes);
  const node = await waitFor(
    `node ${NODE} Ready`,
    async () => {
      const n = await api.get(NODE);
      return n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? n : undefined;
    },
    120_000,
  );
  const labels = node.metadata.labels ?? {};
  const capacity = node.status?.capacity?.[GPU];
  const allocatable = node.status?.allocatable?.[GPU];
  console.log(`\nNode ${NODE} as the agent reported it:`);
  console.log(`  capacity    ${GPU}: ${capacity ?? '(none)'}`);
  console.log(`  allocatable ${GPU}: ${allocatable ?? '(none)'}`);
  for (const key of ['nvidia.com/gpu.product', 'nvidia.com/gpu.memory', 'nvidia.com/gpu.count']) console.log(`  label ${key}=${labels[key] ?? '(none)'}`);
  const health = node.status?.conditions?.find((c) => c.type === 'GPUUnhealthy');
  console.log(`  condition GPUUnhealthy=${health?.status ?? '(none)'}${health?.message ? ` (${health.message})` : ''}`);
  for (const [key, value] of Object.entries(node.metadata.annotations ?? {}))
    if (key.startsWith('drover.dev/gpu-')) console.log(`  annotation ${key}: ${value}`);
  const first = gpus[0]!;
  const want = { capacity: String(gpus.length), product: first.name.replace(/\s+/g, '-'), memory: String(first.memoryMiB) };
  check(
    'discovery',
    capacity === want.capacity &&
      allocatable === want.capacity &&
      labels['nvidia.com/gpu.product'] === want.product &&
      labels['nvidia.com/gpu.memory'] === want.memory &&
      labels['nvidia.com/gpu.count'] === want.capacity,
    `nvidia-smi lists ${gpus.length} × ${first.name} (${first.memoryMiB} MiB); the Node says capacity ${capacity}, allocatable ${allocatable}, product ${labels['nvidia.com/gpu.product']}, memory ${labels['nvidia.com/gpu.memory']}, count ${labels['nvidia.com/gpu.count']}`,
  );
  await printGpuMetrics(cluster);
}

/** The agent's DCGM-named GPU metrics (informational: issue 23 item 4 on real hardware). */
async function printGpuMetrics(cluster: GpuCluster): Promise<void> {
  if (!cluster.agentUrl) return;
  const answer = await rawRequest(cluster.agentUrl, cluster.server.tls, 'GET', '/metrics').catch((e: unknown) => ({ status: 0, text: String(e) }));
  const lines = answer.text.split('\n').filter((l) => l.startsWith('DCGM_FI_'));
  console.log(`  agent /metrics (${answer.status}): ${lines.length ? '' : '(no DCGM_FI_ lines)'}`);
  for (const line of lines) console.log(`    ${line}`);
}

interface Round {
  tflops?: number;
  runningMs?: number;
  firstLineMs?: number;
}

/** Check (a) on one pod of 1 GPU; its figures when it ran. */
async function gpuPodRound(cluster: GpuCluster, gpus: GpuInfo[], round: number): Promise<{ figures: Round; uuid?: string }> {
  const run = await runPod(cluster, probePod(`gpu-one-${round}`, 1));
  const probe = parseProbe(run.log);
  console.log(`\n(a) round ${round}: pod ${run.name} ended ${run.phase}; its log:\n${indent(run.log)}${run.problem ? `\n${indent(run.problem)}` : ''}`);
  const uuids = gpus.map((g) => g.uuid);
  const cuda = probe.cudaVisibleDevices ?? '';
  const pass =
    run.phase === 'Succeeded' &&
    uuids.includes(cuda) &&
    probe.nvidiaVisibleDevices === cuda &&
    probe.deviceCount === 1 &&
    Number.isFinite(probe.tflops) &&
    probe.tflops! > 0;
  const named = gpus.find((g) => g.uuid === cuda)?.name;
  check(
    `(a) one GPU, round ${round}`,
    pass,
    `phase ${run.phase}, CUDA_VISIBLE_DEVICES=${probe.cudaVisibleDevices} NVIDIA_VISIBLE_DEVICES=${probe.nvidiaVisibleDevices}, ` +
      `torch.cuda.device_count()=${probe.deviceCount}, device ${probe.deviceName} (nvidia-smi: ${named ?? 'no GPU of that UUID'}), ${probe.tflops} TFLOP/s`,
  );
  return { figures: podFigures(run, probe), ...(cuda ? { uuid: cuda } : {}) };
}

function podFigures(run: PodRun, probe: ProbeOutput): Round {
  return {
    ...(probe.tflops !== undefined ? { tflops: probe.tflops } : {}),
    ...(run.runningAtMs !== undefined ? { runningMs: run.runningAtMs - run.createdAtMs } : {}),
    ...(probe.startedAtMs !== undefined ? { firstLineMs: probe.startedAtMs - run.createdAtMs } : {}),
  };
}

/** The peer: the same program straight on the host, on the GPU the pod of the round was given. */
async function hostRound(label: string, uuid: string | undefined): Promise<Round & { deviceCount?: number }> {
  const env = { ...process.env, ...(uuid ? { CUDA_VISIBLE_DEVICES: uuid } : {}) };
  const run = await runOnHost(env);
  const probe = parseProbe(run.output);
  console.log(`\n${label}: python3 on the host exited ${run.exitCode}; its output:\n${indent(run.output)}`);
  if (run.exitCode !== 0) console.log(`  (the host's own run failed: its figures are missing from the table)`);
  return {
    ...(probe.deviceCount !== undefined ? { deviceCount: probe.deviceCount } : {}),
    ...(probe.tflops !== undefined ? { tflops: probe.tflops } : {}),
    ...(probe.startedAtMs !== undefined ? { firstLineMs: probe.startedAtMs - run.spawnedAtMs } : {}),
  };
}

async function checkNoGpu(cluster: GpuCluster): Promise<void> {
  const run = await runPod(cluster, probePod('gpu-none', undefined));
  const probe = parseProbe(run.log);
  console.log(`\n(b) pod ${run.name} (no nvidia.com/gpu) ended ${run.phase}; its log:\n${indent(run.log)}${run.problem ? `\n${indent(run.problem)}` : ''}`);
  check(
    '(b) no GPU asked, none seen',
    run.phase === 'Succeeded' && probe.deviceCount === 0,
    `phase ${run.phase}, CUDA_VISIBLE_DEVICES=${JSON.stringify(probe.cudaVisibleDevices)} NVIDIA_VISIBLE_DEVICES=${JSON.stringify(probe.nvidiaVisibleDevices)}, torch.cuda.device_count()=${probe.deviceCount}`,
  );
}

async function checkTooMany(cluster: GpuCluster, gpus: GpuInfo[]): Promise<void> {
  const asked = gpus.length + 1;
  const { message, pod } = await unschedulable(cluster, probePod('gpu-too-many', asked));
  console.log(`\n(c) pod gpu-too-many asks ${asked} GPUs of a node with ${gpus.length}: phase ${pod.status?.phase}, nodeName ${pod.spec.nodeName ?? '(none)'}`);
  console.log(`    FailedScheduling: ${message ?? '(no such event)'}`);
  check(
    '(c) more GPUs than the node has: Pending',
    pod.status?.phase === 'Pending' && !pod.spec.nodeName && /Insufficient nvidia\.com\/gpu/.test(message ?? ''),
    `phase ${pod.status?.phase}, bound to ${pod.spec.nodeName ?? 'no node'}, FailedScheduling "${message ?? ''}"`,
  );
  await deletePod(cluster, 'gpu-too-many');
}

function printTrainingRun(run: TrainingRun, workerGpus: number): void {
  // From the API's create, which is what `kubectl apply` does with a new job.
  const since = (at: number | undefined) => (at === undefined ? '(not seen)' : `${at - run.createdAtMs} ms`);
  console.log(`\n(d) PyTorchJob ${run.name} (Master: 1 GPU, Worker: ${workerGpus}) ended ${run.finished ?? 'not in time'}`);
  console.log(`    apply → Running    ${since(run.runningAtMs)}`);
  console.log(`    apply → ${(run.finished ?? 'Succeeded').padEnd(10)} ${since(run.finishedAtMs)}`);
  const conditions = run.job?.status?.conditions ?? [];
  console.log(`    conditions: ${conditions.map((c) => `${c.type}=${c.status}`).join(', ') || '(none)'}`);
  const minMember = (run.podGroup?.['spec'] as { minMember?: number } | undefined)?.minMember;
  console.log(
    `    PodGroup ${run.podGroup ? `${run.name}: minMember ${minMember}, phases ${run.podGroupPhases.join(' → ') || '(none seen)'}` : '(never seen)'}`,
  );
  for (const r of run.replicas) console.log(`    pod ${r.pod}, its log:\n${indent(r.log)}`);
  if (run.problem) console.log(indent(run.problem));
}

async function checkTraining(cluster: GpuCluster, gpus: GpuInfo[]): Promise<void> {
  const workerGpus = gpus.length >= 2 ? 1 : 0;
  const run = await runTrainingJob(cluster, trainingJob('gpu-train', workerGpus));
  printTrainingRun(run, workerGpus);
  const uuids = gpus.map((g) => g.uuid);
  const verdict = judgeTraining(run, uuids, workerGpus);
  const name = '(d) PyTorchJob on the GPU';
  const [master, worker] = run.replicas.map((r) => r.report);
  const named = gpus.find((g) => g.uuid === master?.cudaVisibleDevices)?.name;
  if (verdict.problems.length) check(name, false, verdict.problems.join('; '));
  else if (verdict.skipped)
    skip(name, `${verdict.skipped} (the job Succeeded, its PodGroup held both replicas, each saw the GPUs it was given; the loss is not judged)`);
  else
    check(
      name,
      true,
      `Succeeded; PodGroup of ${run.replicas.length}; rank 0 on ${master!.deviceName} (nvidia-smi: ${named}) ${master!.cudaVisibleDevices}, ` +
        `rank 1 on ${worker!.device}${worker!.deviceCount ? ` ${worker!.cudaVisibleDevices}` : ' with no GPU'}; ` +
        `loss ${master!.firstLoss} → ${master!.loss} on both ranks, weights within ${Math.max(master!.weightDrift!, worker!.weightDrift!)} of rank 0's`,
    );
}

const COLUMN = 38;

function spread(values: Array<number | undefined>, unit: string, digits: number): string {
  const xs = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (xs.length === 0) return 'n/a'.padEnd(COLUMN);
  const f = (v: number) => v.toFixed(digits);
  return `${f(median(xs))} ${unit} [${f(Math.min(...xs))}–${f(Math.max(...xs))}] n=${xs.length}`.padEnd(COLUMN);
}

function printFigures(pod: Round[], host: Round[]): void {
  console.log(`\nFigures (medians [min–max] over ${ROUNDS} alternating rounds; bf16 ${MATMUL_SIZE}³ matmul, 3 warm-ups, 10 timed):`);
  const row = (name: string, ...cells: string[]) => console.log(`  ${name.padEnd(28)}${cells.join('')}`);
  row('', 'pod'.padEnd(COLUMN), 'host (raw python3)');
  row(
    'matmul',
    spread(
      pod.map((r) => r.tflops),
      'TFLOP/s',
      1,
    ),
    spread(
      host.map((r) => r.tflops),
      'TFLOP/s',
      1,
    ),
  );
  row(
    'create → Running',
    spread(
      pod.map((r) => r.runningMs),
      'ms',
      0,
    ),
    '(no such step)',
  );
  row(
    'create/spawn → first line',
    spread(
      pod.map((r) => r.firstLineMs),
      'ms',
      0,
    ),
    spread(
      host.map((r) => r.firstLineMs),
      'ms',
      0,
    ),
  );
  const ratios = pod.map((r, i) => (r.tflops && host[i]?.tflops ? r.tflops / host[i]!.tflops! : undefined));
  row('pod ÷ host matmul', spread(ratios, '×', 3));
}

async function main(): Promise<void> {
  const smi = requireTools();
  const gpus = parseInventory(await queryGpus(smi, INVENTORY_FIELDS));
  console.log(`nvidia-smi (${smi}) lists ${gpus.length} GPU(s):`);
  for (const g of gpus) console.log(`  ${g.index}: ${g.uuid} ${g.name} ${g.memoryMiB} MiB ${g.busId ?? ''}`);
  if (gpus.length === 0) {
    check('discovery', false, 'nvidia-smi is on the PATH but lists no GPU');
    process.exit(1);
  }
  const passed = PASSED_FROM_HOST.filter((name) => process.env[name]);
  console.log(
    passed.length
      ? `the pods' spec sets ${passed.map((n) => `${n}=${process.env[n]}`).join(' ')} as the host has it (a host-process pod inherits only PATH)`
      : `the host sets none of ${PASSED_FROM_HOST.join(', ')}: the pods get only the node's PATH, as any host-process pod`,
  );
  const cluster = await startGpuCluster(NODE);
  console.log(`\ndrover server at ${cluster.server.url}, agent ${NODE} (runtime process, streaming at ${cluster.agentUrl})`);
  try {
    await checkDiscovery(cluster, gpus);
    // Untimed: the first import of PyTorch reads its libraries from a cold disk, and would
    // otherwise be charged to whichever side ran first.
    const warmUp = await hostRound('warm-up (not counted)', gpus[0]!.uuid);
    if (!warmUp.deviceCount)
      console.log("  NOTE: python3 straight on the host sees no GPU: the pods' checks cannot pass on this machine, whatever Drover does");
    const pod: Round[] = [];
    const host: Round[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const one = await gpuPodRound(cluster, gpus, round);
      pod.push(one.figures);
      host.push(await hostRound(`host round ${round}`, one.uuid ?? gpus[0]!.uuid));
    }
    await checkNoGpu(cluster);
    await checkTooMany(cluster, gpus);
    await checkTraining(cluster, gpus);
    printFigures(pod, host);
  } catch (error) {
    check('bench:gpu ran to the end', false, error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await cluster.stop();
  }
  const but = skipped.length ? `; SKIP: ${skipped.join('; ')}` : '';
  console.log(failures.length ? `\nFAIL: ${failures.join('; ')}${but}` : `\nPASS: every check${skipped.length ? ' that ran' : ''}${but}`);
  process.exit(failures.length ? 1 : 0);
}

await main();
