// Drover's side of bench:startup: `kubectl apply` of N pods against a running cluster, timed until
// the bench's own watch sees every one Running, with the components' stage moments of each pod
// (startup-stages.ts); and their delete.
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_LABEL } from '../src/agent/agent-labels.js';
import { POOL_MEMBER } from '../src/agent/runtime/labels.js';
import { ApiClient, resources } from '../src/client/index.js';
import { mergePodStartRecords, preciseNow, type PodStartRecord } from '../src/metrics/pod-start-stages.js';
import { KUBECTL } from '../test/support/kubectl.js';
import { docker, run, sleep, timed, until } from './peers.js';
import { fetchStageRecords, roundMarks, type RoundMarks } from './startup-stages.js';

export const IMAGE = 'drover-test/busybox:1';
const SELECTOR = 'bench=startup';

export function podsManifest(count: number, tag: string): string {
  return Array.from(
    { length: count },
    (_, i) => `apiVersion: v1
kind: Pod
metadata:
  name: bench-${tag}-${i}
  labels: {bench: startup}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: ${IMAGE}
    command: ["sleep", "3600"]
`,
  ).join('---\n');
}

type Pods = ReturnType<ApiClient['resource']>;

/**
 * Resolves once `count` pods named bench-<tag>-* run, as a watch reports them: the moment the
 * status is written, without the load of listing every pod every few milliseconds on a server
 * that shares two cores with the pods it starts. BENCH_STARTUP_WAIT=poll lists instead (the
 * moments then have the poll's resolution). `running` gets, per pod uid, when Running was seen.
 */
async function allRunning(pods: Pods, tag: string, count: number, running: Map<string, number>): Promise<() => Promise<void>> {
  const prefix = `bench-${tag}-`;
  const poll = async () => {
    for (;;) {
      const { items } = await pods.list({ labelSelector: SELECTOR, fieldSelector: 'status.phase=Running' });
      const now = preciseNow();
      for (const pod of items) if (pod.metadata.name!.startsWith(prefix) && !running.has(pod.metadata.uid!)) running.set(pod.metadata.uid!, now);
      if (running.size >= count) return;
      await sleep(10);
    }
  };
  if (process.env['BENCH_STARTUP_WAIT'] === 'poll') return poll;
  let done!: () => void;
  const all = new Promise<void>((resolve) => (done = resolve));
  const { metadata } = await pods.list({ labelSelector: SELECTOR });
  const watch = pods.watch({ labelSelector: SELECTOR, resourceVersion: metadata.resourceVersion! }, (event) => {
    if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
    const { name, uid } = event.object.metadata;
    const phase = (event.object as { status?: { phase?: string } }).status?.phase;
    if (!name!.startsWith(prefix) || phase !== 'Running' || running.has(uid!)) return;
    running.set(uid!, preciseNow());
    if (running.size >= count) done();
  });
  await watch.ready;
  return async () => {
    // A stream the server ends early leaves the rest to polling.
    await Promise.race([all, watch.done.then(() => (running.size >= count ? undefined : poll()))]);
    watch.stop();
  };
}

export interface StartRound {
  ms: number;
  marks: RoundMarks;
}

/** kubectl applies the pods; Running is seen through the API (kubectl's own start-up would blur it). */
export class DroverPods {
  private readonly pods: Pods;

  private constructor(
    private readonly kubeconfig: string,
    private readonly api: ApiClient,
    /** The cluster's nodes, whose containers a delete waits for (other clusters may share the Docker). */
    readonly nodeNames: Set<string>,
  ) {
    this.pods = api.resource(resources.pods, 'default');
  }

  /** Where else stage records are read: agents in processes of their own. */
  readonly stageSources = new Set<() => Promise<PodStartRecord[]>>();

  private async stageRecords(): Promise<PodStartRecord[]> {
    const lists = await Promise.all([fetchStageRecords(this.api), ...[...this.stageSources].map((source) => source())]);
    return mergePodStartRecords(lists);
  }

  static async open(kubeconfig: string, nodeName: string): Promise<DroverPods> {
    return new DroverPods(kubeconfig, await ApiClient.load({ kubeconfig }), new Set([nodeName]));
  }

  private kubectl(...args: string[]) {
    return run(KUBECTL, ['--kubeconfig', this.kubeconfig, ...args], { maxBuffer: 16 * 1024 * 1024 });
  }

  /** Starts `count` pods named bench-<tag>-<i>; resolves when all are seen Running. */
  async start(count: number, tag: string): Promise<StartRound> {
    const file = join(tmpdir(), `drover-bench-${process.pid}-${tag}.yaml`);
    await writeFile(file, podsManifest(count, tag));
    const observed = new Map<string, number>();
    const waitRunning = await allRunning(this.pods, tag, count, observed);
    const applyStarted = preciseNow();
    const ms = await timed(async () => {
      await this.kubectl('apply', '-f', file);
      await waitRunning();
    });
    await rm(file, { force: true });
    return { ms, marks: roundMarks(await this.stageRecords(), observed, applyStarted) };
  }

  /** Deletes the bench's pods; resolves (with the milliseconds kubectl took) once Docker holds none of them. */
  async deleteAll(): Promise<number> {
    const ms = await timed(async () => {
      await this.kubectl('delete', 'pods', '-l', SELECTOR, '--wait=true', '--timeout=300s');
    });
    for (const node of this.nodeNames) await untilSettled(node);
    return ms;
  }

  close(): void {
    this.api.close();
  }
}

/** How long the agent's sandbox pool must stay the same to count as refilled. */
const POOL_STABLE_MS = 5_000;

/** Ids of the containers that match every filter (`label=k=v`), sorted. */
export async function containerIds(...filters: string[]): Promise<string[]> {
  const { stdout } = await docker('ps', '-aq', ...filters.flatMap((filter) => ['--filter', filter]));
  return stdout.split('\n').filter(Boolean).sort();
}

/**
 * Once the node holds none of the bench's containers and its sandbox pool (pause sandboxes made
 * ahead of their pods, which an agent keeps whatever runs) has stopped changing: the pool refills
 * in the node's quiet moments, and the peers measured next must not share Docker with it.
 */
async function untilSettled(node: string): Promise<void> {
  let last = '';
  let since = performance.now();
  await until(
    `the bench's containers gone from ${node} and its sandbox pool refilled`,
    async () => {
      const all = await containerIds(`label=${NODE_LABEL}=${node}`);
      const pool = await containerIds(`label=${NODE_LABEL}=${node}`, `label=${POOL_MEMBER}`);
      const key = pool.join(',');
      if (all.length > pool.length || key !== last) {
        last = key;
        since = performance.now();
        return false;
      }
      return performance.now() - since >= POOL_STABLE_MS;
    },
    300_000,
    500,
  );
}
