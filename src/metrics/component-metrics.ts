// Metrics of the control-plane components (controllers, scheduler), the original scheduler's
// set: operations by type and result, their duration, scheduling attempts and latency,
// pod status reports by phase, OOM kills by workload. One registry per process: the API
// server's /metrics merges it when the components run in the same process (`drover server`,
// `drover up`); `drover controller-manager` serves it on its own metrics port.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export const componentRegistry = new Registry();

export const operationsTotal = new Counter({
  name: 'drover_operations_total',
  help: 'Workload operations (transactions) finished, by operation and result',
  labelNames: ['operation', 'result'] as const,
  registers: [componentRegistry],
});

export const operationDuration = new Histogram({
  name: 'drover_operation_duration_seconds',
  help: 'Time from the start of a workload operation (transaction) to its end, by operation',
  labelNames: ['operation'] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800],
  registers: [componentRegistry],
});

// The scheduler's, under kube-scheduler's names and labels, so the queries users already have work.
export const scheduleAttempts = new Counter({
  name: 'scheduler_schedule_attempts_total',
  help: 'Attempts to schedule pods, by result (scheduled, unschedulable, error) and profile (the scheduler name)',
  labelNames: ['result', 'profile'] as const,
  registers: [componentRegistry],
});

export const podSchedulingDuration = new Histogram({
  name: 'scheduler_pod_scheduling_duration_seconds',
  help: "Time from a pod's creation (creationTimestamp, second resolution) to its binding, by the attempts it took",
  labelNames: ['attempts'] as const,
  // kube-scheduler's buckets: exponential from 10 ms, doubling, 20 of them.
  buckets: Array.from({ length: 20 }, (_, i) => 0.01 * 2 ** i),
  registers: [componentRegistry],
});

export const podStatusReports = new Counter({
  name: 'drover_pod_status_reports_total',
  help: 'Pod status changes seen by the controllers, by the phase reported',
  labelNames: ['phase'] as const,
  registers: [componentRegistry],
});

export const oomKills = new Counter({
  name: 'drover_oom_kills_total',
  help: 'Containers killed for running out of memory, by workload (kind/name) and namespace',
  labelNames: ['namespace', 'workload'] as const,
  registers: [componentRegistry],
});

// Gang scheduling. kube-scheduler's native gang plugin counts `scheduler_podgroup_schedule_attempts_total`
// (and times `scheduler_podgroup_scheduling_attempt_duration_seconds`); these are Drover's
// counterparts under the drover_scheduler_podgroup_* prefix.
export const podGroupAttempts = new Counter({
  name: 'drover_scheduler_podgroup_schedule_attempts_total',
  help: 'Pod group scheduling attempts, by result: admitted (to placement), unschedulable (not now), failed (can never fit), scheduled (quorum reached), timeout',
  labelNames: ['result'] as const,
  registers: [componentRegistry],
});

export const podGroupWait = new Histogram({
  name: 'drover_scheduler_podgroup_wait_seconds',
  help: 'Time from the first attempt to place a pod group to minMember of its members bound',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900],
  registers: [componentRegistry],
});

export const podGroupsByPhase = new Gauge({
  name: 'drover_scheduler_podgroups',
  help: 'Pod groups by the phase the scheduler last wrote to their status',
  labelNames: ['phase'] as const,
  registers: [componentRegistry],
});
