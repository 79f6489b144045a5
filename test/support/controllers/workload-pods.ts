// For the workload controllers' tests (which start with controller-test.ts): the agent's part
// played through the API — binding pods, marking them ready or finished, confirming deletions.
import { metaTime, type KubeObject } from '../../../src/api/meta.js';
import { resources, type ApiClient } from '../../../src/client/index.js';
import { waitFor } from '../wait-for.js';
import type { Pod } from '../../../src/api/core/index.js';
import { isPodReady } from '../../../src/api/core/pod-conditions.js';

export function podClient(api: ApiClient, namespace = 'default') {
  return api.resource<Pod>(resources.pods, namespace);
}

/** Pods whose controller is `owner`. */
export async function podsOf(api: ApiClient, owner: Pick<KubeObject, 'metadata'>): Promise<Pod[]> {
  const list = await podClient(api, owner.metadata.namespace).list();
  return list.items.filter((pod) => pod.metadata.ownerReferences?.some((ref) => ref.controller && ref.uid === owner.metadata.uid));
}

export async function bindPod(api: ApiClient, pod: Pick<Pod, 'metadata'>, node: string): Promise<void> {
  await podClient(api, pod.metadata.namespace).createSubresource(pod.metadata.name ?? '', 'binding', {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: pod.metadata.name },
    target: { apiVersion: 'v1', kind: 'Node', name: node },
  });
}

/**
 * Plays the agent: binds the pod (when unbound, unless `bind` is false: a DaemonSet's pods name
 * their node by affinity) and reports it Running and Ready (or not).
 */
export async function setPodRunning(
  api: ApiClient,
  pod: Pick<Pod, 'metadata' | 'spec'>,
  options: { node?: string; ready?: boolean; readySince?: Date; bind?: boolean } = {},
): Promise<void> {
  if (!pod.spec?.nodeName && options.bind !== false) await bindPod(api, pod, options.node ?? 'node-1');
  const ready = options.ready ?? true;
  const at = metaTime(options.readySince ?? new Date());
  const status = {
    phase: 'Running',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: at },
      { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at },
      { type: 'ContainersReady', status: ready ? 'True' : 'False', lastTransitionTime: at },
    ],
  };
  await podClient(api, pod.metadata.namespace).patch(pod.metadata.name ?? '', 'merge', { status }, { subresource: 'status' });
}

export async function setPodPhase(api: ApiClient, pod: Pick<Pod, 'metadata'>, phase: 'Failed' | 'Succeeded'): Promise<void> {
  const status = { phase, conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: metaTime() }] };
  await podClient(api, pod.metadata.namespace).patch(pod.metadata.name ?? '', 'merge', { status }, { subresource: 'status' });
}

/** Every pod of the owner Running and Ready, until `count` of them are (binding new ones as they come). */
export async function keepReady(api: ApiClient, owner: Pick<KubeObject, 'metadata'>, count: number, what: string, timeoutMs = 10_000): Promise<Pod[]> {
  return waitFor(
    what,
    async () => {
      const pods = (await podsOf(api, owner)).filter((pod) => !pod.metadata.deletionTimestamp);
      let allReady = true;
      for (const pod of pods) {
        const ready = isPodReady(pod);
        if (ready) continue;
        allReady = false;
        await setPodRunning(api, pod);
      }
      return allReady && pods.length === count ? pods : undefined;
    },
    timeoutMs,
  );
}

export function replicaSetManifest(
  name: string,
  replicas: number,
  extra: { labels?: Record<string, string>; annotations?: Record<string, string>; minReadySeconds?: number } = {},
): KubeObject {
  const labels = extra.labels ?? { app: name };
  const template: Record<string, unknown> = {
    metadata: { labels, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '3600'] }] },
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: labels }, template, ...(extra.minReadySeconds ? { minReadySeconds: extra.minReadySeconds } : {}) },
  };
}

export interface FakeAgent {
  stop(): Promise<void>;
}

export interface FakeAgentOptions {
  /** Pods left as they are (not readied). */
  skip?: (pod: Pod) => boolean;
  intervalMs?: number;
  namespace?: string;
  /** Whether unbound pods are bound before they run (default true). */
  bind?: boolean;
  /** Whether graceful deletions are confirmed (default true); without, deleted pods stay terminating. */
  confirmDeletions?: boolean;
}

/**
 * Plays the node agents for controller tests: binds and readies every pod (except those `skip`
 * picks) and confirms graceful deletions, every `intervalMs`.
 */
export function startFakeAgent(api: ApiClient, options: FakeAgentOptions = {}): FakeAgent {
  let stopped = false;
  const client = podClient(api, options.namespace ?? 'default');
  const tick = async () => {
    const pods = (await client.list()).items;
    await Promise.all(
      pods.map(async (pod) => {
        if (pod.metadata.deletionTimestamp) {
          if (options.confirmDeletions !== false) await client.delete(pod.metadata.name!, { gracePeriodSeconds: 0 }).catch(() => undefined);
          return;
        }
        if (options.skip?.(pod)) return;
        const ready = isPodReady(pod);
        if (!ready) await setPodRunning(api, pod, { bind: options.bind ?? true }).catch(() => undefined);
      }),
    );
  };
  const loop = (async () => {
    while (!stopped) {
      await tick().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
