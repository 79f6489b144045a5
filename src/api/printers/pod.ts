// `kubectl get pods`: NAME READY STATUS RESTARTS AGE | wide: IP NODE NOMINATED NODE READINESS GATES.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { age, humanDuration } from './format.js';
import { summarizePod } from './pod-status.js';
import { listAt, stringAt } from './read.js';

/** `3`, or `3 (5m ago)` when the time of the last restart is known (kubectl 1.22+). */
export function formatRestarts(restarts: number, lastRestartMs: number | undefined, now: Date): string {
  if (restarts === 0 || lastRestartMs === undefined) return String(restarts);
  return `${restarts} (${humanDuration(now.getTime() - lastRestartMs)} ago)`;
}

function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}

// A v1 pod may carry only the legacy podIP; Kubernetes' conversion fills podIPs from it.
function podIP(pod: KubeObject): string {
  const ips = listAt(pod, 'status', 'podIPs');
  return ips.length > 0 ? stringAt(ips[0], 'ip') : stringAt(pod, 'status', 'podIP');
}

/** `true/total` over the pod's readiness gates, or `<none>` when it has none. */
function readinessGates(pod: KubeObject): string {
  const gates = listAt(pod, 'spec', 'readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = listAt(pod, 'status', 'conditions');
  const satisfied = gates.filter((gate) => {
    const condition = conditions.find((c) => stringAt(c, 'type') === stringAt(gate, 'conditionType'));
    return condition !== undefined && stringAt(condition, 'status') === 'True';
  }).length;
  return `${satisfied}/${gates.length}`;
}

export const podPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    AGE_COLUMN,
    wide('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster.'),
    wide('Node', 'string', 'NodeName indicates in which node this pod is scheduled.'),
    wide('Nominated Node', 'string', 'The node the scheduler nominated for this pod after preempting others.'),
    wide('Readiness Gates', 'string', 'Readiness gates of the pod: satisfied/total.'),
  ],
  row(pod, now) {
    const summary = summarizePod(pod);
    return [
      pod.metadata.name ?? '',
      `${summary.readyContainers}/${summary.totalContainers}`,
      summary.reason,
      formatRestarts(summary.restarts, summary.lastRestartMs, now),
      age(pod, now),
      orNone(podIP(pod)),
      orNone(stringAt(pod, 'spec', 'nodeName')),
      orNone(stringAt(pod, 'status', 'nominatedNodeName')),
      readinessGates(pod),
    ];
  },
};
