// The scheduling core: a cluster snapshot kept current from informer events, and a framework
// that places one pod at a time on it. No I/O here; a scheduler loop feeds it and binds:
//   node events        → snapshot.updateNode(node) / snapshot.removeNode(name)
//   pod events         → snapshot.addPod(pod) / snapshot.removePod(pod) (bound pods; others are ignored)
//   each pending pod   → framework.schedulePod(pod, snapshot): assumed on `node`, or `unschedulable`
//   permit 'allow'     → framework.bind(pod, node); on failure framework.abandon(pod, node, snapshot)
// Every extension point answers with one Status (status.ts), as kube-scheduler's framework does.
import { buildPipeline, type Framework, type SchedulerOptions } from './framework.js';
import type { Plugin } from './plugin.js';
import { defaultPlugins } from './plugins/index.js';

export { buildPipeline, type Framework, type ScheduleResult, type Scheduled, type SchedulerOptions, type Unschedulable } from './framework.js';
export { ClusterSnapshot } from './snapshot.js';
export { NodeInfo, type Allocatable, type ConditionStatus, type NodeTaint } from './node-info.js';
export { podInfoOf, siblingKeyOf, type HostPort, type PodInfo } from './pod-info.js';
export { podRequests, type PodRequests, type Resources } from './resources.js';
export { fitErrorMessage } from './fit-error.js';
export { numFeasibleNodesToFind } from './sampling.js';
export { defaultNormalizeScore, MAX_NODE_SCORE, pass, preFilterPassed, reject, type CycleContext, type Plugin, type PreFilterResult } from './plugin.js';
export * from './status.js';
export * from './plugins/index.js';

/** The default profile; `extra` plugins (a bind plugin, gang permit) run after the defaults. */
export function createScheduler(options: SchedulerOptions = {}, extra: readonly Plugin[] = []): Framework {
  return buildPipeline([...defaultPlugins(), ...extra], options);
}
