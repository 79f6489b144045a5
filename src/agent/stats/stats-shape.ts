// The JSON an agent serves about resource use, read by the API server (metrics.k8s.io, the
// history for the dashboard). The current figures follow the field names of the kubelet's
// Summary API (/stats/summary), a subset of it plus the window each CPU rate was taken over:
//
// GET /stats/summary
//   { "node": { "nodeName": "n1",
//               "cpu":    { "time": RFC3339, "windowSeconds": 15.0, "usageNanoCores": 250000000, "usageCoreNanoSeconds": 123 },
//               "memory": { "time": RFC3339, "workingSetBytes": 1048576 } },
//     "pods": [ { "podRef": { "namespace": "default", "name": "web", "uid": "..." },
//                 "containers": [ { "name": "app", "cpu": {...}, "memory": {...} } ] } ] }
//   A container appears once it has a figure: two samples at least a second apart, or one
//   sample and its start time. A figure the host cannot give (no cgroup) is left out.
//
// GET /stats/history[?namespace=NS[&pod=NAME]]
//   { "stepSeconds": 15,
//     "node": { "nodeName": "n1", "points": [ { "time": RFC3339, "usageNanoCores": 1, "workingSetBytes": 2 } ] },
//     "pods": [ { "podRef": {...}, "containers": [ { "name": "app", "points": [...] } ] } ] }
//   Points are oldest first, one per sampling round (the last hour at most); each CPU figure
//   is the rate over the step that ends at its time.

export interface PodRef {
  namespace: string;
  name: string;
  uid: string;
}

export interface CpuFigures {
  time: string;
  windowSeconds: number;
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
}

export interface MemoryFigures {
  time: string;
  workingSetBytes?: number;
}

export interface UsageFigures {
  cpu?: CpuFigures;
  memory?: MemoryFigures;
}

export interface StatsSummary {
  node: { nodeName: string } & UsageFigures;
  pods: Array<{ podRef: PodRef; containers: Array<{ name: string } & UsageFigures> }>;
}

export interface HistoryPoint {
  time: string;
  usageNanoCores?: number;
  workingSetBytes?: number;
}

export interface StatsHistory {
  stepSeconds: number;
  node: { nodeName: string; points: HistoryPoint[] };
  pods: Array<{ podRef: PodRef; containers: Array<{ name: string; points: HistoryPoint[] }> }>;
}
