// The scheduler as a master with standbys (the original scheduler's roles), composed once for
// `drover server` and `drover scheduler`: every process runs one, only the holder of the
// scheduler's leader Lease schedules — two would race for the same pods.
import type { ApiClient, SharedInformerFactory } from '../client/index.js';
import { startScheduler } from '../scheduler/scheduler.js';
import { startLeaderGate, type LeaderGate, type LeaderTiming } from './leader-gate.js';

export function startSchedulerGate(options: {
  api: ApiClient;
  identity: string;
  /** Pods whose spec.schedulerName is this (default-scheduler when unset). */
  schedulerName?: string;
  informers?: SharedInformerFactory;
  timing?: LeaderTiming | undefined;
}): LeaderGate {
  const schedulerName = options.schedulerName ?? 'default-scheduler';
  return startLeaderGate({
    api: options.api,
    name: schedulerLeaseName(schedulerName),
    identity: options.identity,
    ...(options.timing === undefined ? {} : { timing: options.timing }),
    start: () =>
      startScheduler({
        api: options.api,
        schedulerName,
        ...(options.informers === undefined ? {} : { informers: options.informers }),
      }),
  });
}

/** kube-scheduler's Lease for the default scheduler; a second scheduler's Lease is named after it. */
export function schedulerLeaseName(schedulerName: string): string {
  return schedulerName === 'default-scheduler' ? 'kube-scheduler' : schedulerName;
}
