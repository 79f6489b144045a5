// For the checker's tests: an in-process API server with a data checker beside it, and helpers
// that write the cluster's objects — through the API where it allows them, straight into the
// store where only a bug or a restore could have put them.
import { metaTime, microTime, type KubeObject } from '../../../src/api/meta.js';
import { resources, silentLogger, type ApiClient } from '../../../src/client/index.js';
import { TestServer } from '../apiserver/in-process-server.js';
import { requestRound } from '../../../src/cli/check.js';
import { DataChecker, type DataCheckerOptions } from '../../../src/checker/data-checker.js';
import type { ConsistencyReport } from '../../../src/checker/report.js';
import { waitFor } from '../wait-for.js';

export interface CheckerBed {
  server: TestServer;
  api: ApiClient;
  checker: DataChecker;
  /** Asks for a round (as `drover check` does) and returns its finished report. */
  round(repair: boolean): Promise<ConsistencyReport>;
  close(): Promise<void>;
}

export async function startCheckerBed(options: Partial<DataCheckerOptions> = {}): Promise<CheckerBed> {
  const server = await TestServer.start();
  const api = server.client();
  const checker = new DataChecker({
    api,
    identity: 'test-server',
    store: { store: server.store, quickCheck: () => server.store.quickCheck() },
    intervalSeconds: 0,
    settleSeconds: 0,
    leaseDurationMs: 3000,
    logger: silentLogger,
    ...options,
  });
  await checker.start();
  await waitFor('the data checker to take its lease', () => checker.isLeader(), 5_000);
  return {
    server,
    api,
    checker,
    round: (repair) => requestRound(api, repair, 20_000),
    async close() {
      await checker.stop();
      await server.close();
    },
  };
}

/** A Node whose agent last reported `silentForMs` ago (its kube-node-lease Lease). */
export async function addNode(api: ApiClient, name: string, silentForMs = 0): Promise<KubeObject> {
  const node = await api.resource(resources.nodes).create({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
  await api.resource(resources.leases, 'kube-node-lease').create({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease' },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(new Date(Date.now() - silentForMs)) },
  });
  return node;
}

/** What a test pod is: its name, node, labels, owner and, when running, its IP. */
export interface PodShape {
  name: string;
  node?: string;
  labels?: Record<string, string>;
  owner?: KubeObject['metadata']['ownerReferences'];
  /** Running and Ready with this IP. */
  runningIp?: string;
}

export async function addPod(api: ApiClient, spec: PodShape): Promise<KubeObject> {
  const pods = api.resource(resources.pods, 'default');
  const pod = await pods.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: spec.name, namespace: 'default', labels: spec.labels ?? {}, ...(spec.owner ? { ownerReferences: spec.owner } : {}) },
    spec: { ...(spec.node ? { nodeName: spec.node } : {}), containers: [{ name: 'c', image: 'drover-test/busybox:1', ports: [{ containerPort: 8080 }] }] },
  });
  if (!spec.runningIp) return pod;
  const now = metaTime(new Date(Date.now() - 60_000));
  const status = {
    phase: 'Running',
    podIP: spec.runningIp,
    podIPs: [{ ip: spec.runningIp }],
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
  };
  return pods.patch(spec.name, 'merge', { status }, { subresource: 'status' });
}

/** The findings of a report, as `kind object-name repairState`, sorted. */
export function findingLines(report: ConsistencyReport): string[] {
  const findings = (report.status?.['findings'] ?? []) as Array<{ kind: string; object?: { name: string }; repairState: string }>;
  return findings.map((f) => `${f.kind} ${f.object?.name ?? '-'} ${f.repairState}`).sort();
}
