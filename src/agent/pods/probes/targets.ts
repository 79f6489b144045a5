// The probe workers a pod needs: one set per app container running in the pod's current
// sandbox, told whether the API last showed it ready (so a worker started anew, after an agent
// restart, does not flip a ready container to unready until its probe says so).
import { SANDBOX_ID } from '../../runtime/labels.js';
import type { SandboxInfo } from '../../runtime/runtime.js';
import type { PodRuntime } from '../observe.js';
import type { PodSync } from '../sync-input.js';
import type { ProbeTarget } from './manager.js';

/** Probe workers for the app containers running in the current sandbox. */
export function syncProbes(sync: PodSync, state: PodRuntime, sandbox: SandboxInfo | undefined): void {
  const targets: ProbeTarget[] = [];
  const { pod, runtime } = sync;
  const previous = pod.status?.containerStatuses ?? [];
  for (const container of sandbox ? pod.spec.containers : []) {
    const newest = state.containers.get(container.name)?.[0];
    if (newest?.status?.state !== 'running' || newest.summary.labels[SANDBOX_ID] !== sandbox!.id) continue;
    const api = previous.find((s) => s.name === container.name);
    targets.push({
      pod,
      container,
      containerId: newest.id,
      startedAt: newest.status.startedAt ?? newest.status.createdAt,
      handler: { runtime, containerId: newest.id, sandboxId: runtime.name === 'process' ? undefined : sandbox!.id, container },
      wasReady: api?.containerID === `${runtime.name}://${newest.id}` && api.ready,
    });
  }
  sync.deps.probes.sync(sync.uid, targets);
}
