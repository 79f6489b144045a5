// For the agent's end-to-end tests (test/agent-*.test.ts): the in-process test API server, a
// node name unique to the run, pod builders, polling, and removal of every Docker object the
// run's agent made (by its node label, never anyone else's).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resources, type ApiClient, type ResourceClient } from '../../../src/client/index.js';
import { TestServer } from '../apiserver/in-process-server.js';
import { NODE_LABEL } from '../../../src/agent/agent-labels.js';
import { waitFor } from '../wait-for.js';
import { removeContainersLabelled } from './docker-runtime.js';
import type { Container, Pod } from '../../../src/api/core/index.js';

export const IMAGE = 'drover-test/busybox:1';

export interface TestCluster {
  url: string;
  /** A kubeconfig for the admin of this server: agents under test connect with it. */
  kubeconfig: string;
  dir: string;
  nodeName: string;
  api: ApiClient;
  pods: ResourceClient<Pod>;
  close(): Promise<void>;
}

/** Docker running and the test images built (see ../repo.ts). */
export { ensureDocker } from '../repo.js';

export async function startTestCluster(label: string): Promise<TestCluster> {
  const server = await TestServer.start({ serviceAccountTokens: true });
  const api = server.client({ userAgent: 'drover-agent-test' });
  const kubeconfig = await server.writeAdminKubeconfig();
  const nodeName = `${label}-${randomUUID().slice(0, 8)}`;
  return {
    url: server.url,
    kubeconfig,
    dir: server.dir,
    nodeName,
    api,
    pods: api.resource<Pod>(resources.pods, 'default'),
    async close() {
      await server.stop();
      // Before the directory goes: the agent's containers may still mount folders in it.
      await removeNodeObjects(nodeName);
      await server.close();
    },
  };
}

/** Deletes every pod and waits for the agent to confirm (so host processes stop too). */
export async function deleteAllPods(cluster: TestCluster, timeoutMs = 30_000): Promise<void> {
  const list = await cluster.pods.list();
  await Promise.all(list.items.map((p) => cluster.pods.delete(p.metadata.name ?? '').catch(() => undefined)));
  await waitFor('every pod deleted', async () => ((await cluster.pods.list()).items.length === 0 ? true : undefined), timeoutMs);
}

/** Removes every container and sandbox an agent of this node name made. */
export async function removeNodeObjects(nodeName: string): Promise<void> {
  await removeContainersLabelled(`${NODE_LABEL}=${nodeName}`).catch(() => undefined);
}

export function podSpec(name: string, nodeName: string, containers: Array<Partial<Container>>, extra: Partial<Pod['spec']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName,
      terminationGracePeriodSeconds: 2,
      containers: containers.map((c, i) => ({ name: c.name ?? `c${i}`, image: IMAGE, ...c }) as Container),
      ...extra,
    },
  };
}

/** Waits until the pod's status satisfies `check`; returns the pod. */
export function waitForPod(cluster: TestCluster, name: string, what: string, check: (pod: Pod) => boolean, timeoutMs?: number): Promise<Pod> {
  let last: Pod | undefined;
  return waitFor(
    `${name}: ${what}`,
    async () => {
      last = await cluster.pods.get(name);
      return check(last) ? last : undefined;
    },
    timeoutMs ?? 20_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nlast status: ${JSON.stringify(last?.status, null, 1)}`);
  });
}

/** Waits until the pod object is gone from the API (its agent ended it and confirmed). */
export function waitForPodGone(cluster: TestCluster, name: string, timeoutMs = 20_000): Promise<true> {
  return waitFor(
    `${name} removed`,
    async () =>
      cluster.pods.get(name).then(
        () => undefined,
        () => true as const,
      ),
    timeoutMs,
  );
}

export async function dockerExec(containerId: string, cmd: string[]): Promise<{ code: number; output: string }> {
  try {
    const output = execFileSync('docker', ['exec', containerId, ...cmd], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { code: 0, output };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

export function containerIdOf(pod: Pod, name: string): string {
  const id = pod.status?.containerStatuses?.find((s) => s.name === name)?.containerID ?? '';
  return id.replace(/^[a-z]+:\/\//, '');
}
