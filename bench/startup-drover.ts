// Drover's side of bench:startup: `kubectl apply` of N pods against a running cluster, timed until
// the bench's own watch sees every one Running, with the components' stage moments of each pod
// (startup-stages.ts); and their delete.
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_LABEL } from '../src/agent/agent-labels.js';
import { ApiClient, resources } from '../src/client/index.js';
import { mergePodStartRecords, preciseNow, type PodStartRecord } from '../src/metrics/pod-start-stages.js';
import { KUBECTL } from '../test/support/kubectl.js';
import { run, sleep, timed, untilNoContainers } from './peers.js';
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
    for (const node of this.nodeNames) await untilNoContainers(`label=${NODE_LABEL}=${node}`);
    return ms;
  }

  close(): void {
    this.api.close();
  }
}
