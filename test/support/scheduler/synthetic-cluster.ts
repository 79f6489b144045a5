// A synthetic cluster and workload for the scheduling core, shared by its behaviour test and
// its benchmark (bench/scheduler-core.ts): zoned, racked nodes with every hundredth tainted,
// and workloads of REPLICAS pods with requests, limits and the default not-ready/unreachable
// tolerations, every tenth workload asking for one replica per node.
import type { KubeObject } from '../../../src/api/meta.js';
import { makeNode, makePod } from './builders.js';

export const REPLICAS = 10;
export const UNIQUE_HOSTNAME = '[["hostname","UNIQUE"]]';

export function clusterNodes(count: number): KubeObject[] {
  return Array.from({ length: count }, (_, i) =>
    makeNode({
      name: `node-${i}`,
      cpu: '8',
      memory: '32Gi',
      labels: { 'topology.kubernetes.io/zone': `zone-${i % 3}`, rack: `rack-${i % 50}` },
      ...(i % 100 === 0 ? { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' as const }] } : {}),
    }),
  );
}

export function workloadPods(count: number): KubeObject[] {
  return Array.from({ length: count }, (_, i) => {
    const workload = Math.floor(i / REPLICAS);
    const app = `app-${workload}`;
    return makePod({
      name: `${app}-${i % REPLICAS}`,
      owner: app,
      labels: { app },
      containers: [{ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '200m', memory: '256Mi' } }],
      // Every tenth workload asks for one replica per node, the original scheduler's favourite.
      ...(workload % 10 === 0 ? { annotations: { 'drover.dev/constraints': UNIQUE_HOSTNAME } } : {}),
      spec: {
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
    });
  });
}
