// Which dead containers of a pod stay. Per container name the newest two instances do: the
// current one and the one before it, which `kubectl logs --previous` reads (the kubelet's
// container GC keeps one dead instance per container likewise). Older exited instances go, so a
// container that restarts all day does not leave a dead container and its log per restart; the
// restart count lives on in the newest instance's attempt label.
import type { PodRuntime } from '../observe.js';
import type { PodSync } from '../sync-input.js';

const KEPT_PER_NAME = 2;

/** Removes the exited instances older than the newest two of each name; the state without them. */
export async function removeSupersededContainers(sync: PodSync, state: PodRuntime): Promise<PodRuntime> {
  const containers = new Map(state.containers);
  for (const [name, instances] of state.containers) {
    if (instances.length <= KEPT_PER_NAME) continue;
    const superseded = instances.slice(KEPT_PER_NAME).filter((i) => i.summary.state !== 'running');
    if (superseded.length === 0) continue;
    await Promise.all(superseded.map((i) => sync.runtime.removeContainer(i.id, { force: true })));
    for (const i of superseded) sync.deps.cache.forget(i.id);
    containers.set(
      name,
      instances.filter((i) => !superseded.includes(i)),
    );
  }
  return { ...state, containers };
}

/**
 * The containers to keep when the pod's sandbox is replaced: the newest instance of each name,
 * the one `logs --previous` reads once the new sandbox's instance runs.
 */
export function keptAcrossSandboxes(state: PodRuntime): Set<string> {
  const kept = new Set<string>();
  for (const instances of state.containers.values()) {
    if (instances[0]) kept.add(instances[0].id);
  }
  return kept;
}
