// For end-to-end tests of streaming: the in-process test API server with the pod proxy wired
// in, a streaming server over the real Docker runtime, a Node that points at it, and pods whose
// containers really run — created the way the agent would (sandbox + labelled app containers),
// without the agent itself.

import { handlePodUpgrade, podProxySubresources } from '../../../src/apiserver/handlers/pod-proxy.js';
import { DockerRuntime } from '../../../src/agent/runtime/docker/docker-runtime.js';
import { IMAGE_V1, cleanup, ensureDocker, runLabels } from './docker-runtime.js';
import type { PodRef } from '../../../src/agent/runtime/runtime.js';
import { labelResolver } from './label-resolver.js';
import { startStreamingServer, type StreamingServer } from '../../../src/agent/streaming/streaming-server.js';
import type { SessionInfo } from '../../../src/agent/streaming/upgrades.js';
import { callJson, TestServer } from '../apiserver/in-process-server.js';

export interface TestContainer {
  name: string;
  command: string[];
}

export interface StreamingCluster {
  api: TestServer;
  agent: StreamingServer;
  runtime: DockerRuntime;
  kubeconfig: string;
  nodeName: string;
  /** Every exec/attach/port-forward session the agent saw, with what was negotiated. */
  sessions: SessionInfo[];
  /** The API at path, as JSON. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Creates the Pod object bound to the node, runs its containers and marks it Running. */
  runPod(name: string, containers: TestContainer[]): Promise<PodRef>;
  close(): Promise<void>;
}

function expectOk(what: string, res: { status: number; body: unknown }): void {
  if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status}: ${JSON.stringify(res.body)}`);
}

async function registerNode(base: string, name: string, port: number): Promise<void> {
  const status = {
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: port } },
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'test node' }],
  };
  const created = await callJson(base, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name }, status });
  expectOk('create node', created);
  // Whether create keeps status is the registry's business; the status subresource always does.
  expectOk('node status', await callJson(base, 'PUT', `/api/v1/nodes/${name}/status`, { ...created.body, status }));
}

async function runPod(cluster: Omit<StreamingCluster, 'runPod' | 'close'>, name: string, containers: TestContainer[]): Promise<PodRef> {
  const spec = { nodeName: cluster.nodeName, containers: containers.map((c) => ({ name: c.name, image: IMAGE_V1, command: c.command })) };
  const created = await cluster.call('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
  expectOk('create pod', created);
  const pod: PodRef = { uid: created.body.metadata.uid, name, namespace: 'default' };
  const sandbox = await cluster.runtime.createSandbox({ pod, attempt: 0, labels: runLabels() });
  for (const c of containers) {
    const id = await cluster.runtime.createContainer({
      pod,
      sandboxId: sandbox.id,
      name: c.name,
      attempt: 0,
      image: IMAGE_V1,
      command: c.command,
      labels: runLabels(),
    });
    await cluster.runtime.startContainer(id);
  }
  // kubectl port-forward refuses pods that are not Running.
  const current = await cluster.call('GET', `/api/v1/namespaces/default/pods/${name}`);
  const status = { phase: 'Running', podIP: sandbox.ip, hostIP: '127.0.0.1', startTime: new Date().toISOString() };
  expectOk('pod status', await cluster.call('PUT', `/api/v1/namespaces/default/pods/${name}/status`, { ...current.body, status }));
  return pod;
}

export async function startStreamingCluster(nodeName = 'stream-node'): Promise<StreamingCluster> {
  ensureDocker();
  const api = await TestServer.start({ subresources: podProxySubresources(), onUpgrade: handlePodUpgrade, serviceAccountTokens: true });
  const runtime = new DockerRuntime();
  const sessions: SessionInfo[] = [];
  const agent = await startStreamingServer({ host: '127.0.0.1', port: 0, resolver: labelResolver(runtime), onSession: (s) => sessions.push(s) });
  const kubeconfig = await api.writeAdminKubeconfig();
  await registerNode(api.url, nodeName, agent.port);
  const base = { api, agent, runtime, kubeconfig, nodeName, sessions, call: (m: string, p: string, b?: unknown) => callJson(api.url, m, p, b) };
  return {
    ...base,
    runPod: (name, containers) => runPod(base, name, containers),
    async close() {
      await agent.close();
      await api.close();
      await cleanup();
    },
  };
}
