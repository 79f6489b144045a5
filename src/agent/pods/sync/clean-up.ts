// A pod's end on this node: its containers stopped (each with its preStop hook), its devices
// and files freed, and its stopped containers and sandboxes removed (by the reaper, between
// sandbox starts, when they may wait).
import type { ContainerRuntime } from '../../runtime/runtime.js';
import { killPodContainers } from '../containers/kill.js';
import type { PodDeps } from '../deps.js';
import { observePod, type PodRuntime } from '../observe.js';
import { leftoversMayWait } from '../sandbox/reaper.js';
import { removePodDir } from '../volumes/set-up.js';
import type { Pod } from '../../../api/core/index.js';

/** Removes every sandbox and container of the pod from one runtime. */
export async function removePodObjects(deps: PodDeps, runtime: ContainerRuntime, state: PodRuntime): Promise<void> {
  for (const sandbox of state.sandboxes) await runtime.removeSandbox(sandbox.id);
  for (const instances of state.containers.values()) {
    for (const instance of instances) {
      await runtime.removeContainer(instance.id, { force: true });
      deps.cache.forget(instance.id);
    }
  }
}

/**
 * Everything of a pod on this node goes: containers stopped, devices and files freed, and the
 * stopped containers and the sandbox removed (by the reaper, between sandbox starts, when they
 * may wait).
 */
export async function cleanUpPod(deps: PodDeps, uid: string, pod: Pod | undefined, graceSeconds: number): Promise<void> {
  deps.probes.removePod(uid);
  const runtimes = pod ? [deps.runtimes.forPod(pod)] : deps.runtimes.all();
  for (const runtime of runtimes) {
    const state = await observePod(runtime, deps.owner, uid, deps.cache);
    if (state.sandboxes.length === 0 && state.containers.size === 0) continue;
    await killPodContainers(deps, runtime, pod, state, graceSeconds);
    if (pod && leftoversMayWait(pod)) deps.reaper.defer(uid, () => removePodObjects(deps, runtime, state));
    else await removePodObjects(deps, runtime, state);
  }
  deps.devices.release(uid);
  deps.puller.forgetPod(uid);
  deps.crashBackoff.resetPrefix(`${uid}/`);
  await removePodDir(deps.dataDir, uid);
}
