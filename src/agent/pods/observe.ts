// What the runtime holds for one pod, read back from labels alone: its sandboxes and, per
// container name, its instances newest attempt first. The newest two are inspected (the
// current state and the last termination); exited containers do not change, so their
// inspections are cached (a late OOM event is the exception: the pod manager forgets then).
import { ownerFilter, podFilter, type Owner } from '../agent-labels.js';
import { ContainerNotFoundError } from '../runtime/errors.js';
import { CONTAINER_NAME, POD_UID, attemptFromLabels } from '../runtime/labels.js';
import type { ContainerRuntime, ContainerStatus, ContainerSummary, ListFilter, PodObjects, SandboxInfo } from '../runtime/runtime.js';
import { makeRoom } from '../../util/make-room.js';

export interface Instance {
  id: string;
  name: string;
  attempt: number;
  summary: ContainerSummary;
  /** Present for the newest two instances of each name. */
  status?: ContainerStatus;
}

export interface PodRuntime {
  /** Newest attempt first. */
  sandboxes: SandboxInfo[];
  /** By container name, newest attempt first. */
  containers: Map<string, Instance[]>;
}

const CACHE_LIMIT = 4096;

export class InspectCache {
  private readonly exited = new Map<string, ContainerStatus>();
  /** Counts forget() calls, so an inspection that was running meanwhile is not kept. */
  private forgets = 0;
  /** Containers the engine reported an OOM kill of, by event. */
  private readonly oomKilled = new Set<string>();

  async inspect(runtime: ContainerRuntime, id: string): Promise<ContainerStatus> {
    const hit = this.exited.get(id);
    if (hit) return hit;
    const before = this.forgets;
    let status = await runtime.inspectContainer(id);
    // Docker (cgroup v1) can lose the OOM mark when the killed process is the container's first:
    // the exit, handled after the OOM event, overwrites it. The event it sent still tells.
    if (!status.oomKilled && status.state === 'exited' && this.oomKilled.has(id)) status = { ...status, oomKilled: true };
    // A forget() while the engine answered (an OOM event) may mean the answer is already old:
    // caching it would keep OOMKilled from ever being seen.
    if (status.state === 'exited' && this.forgets === before) {
      makeRoom(this.exited, CACHE_LIMIT);
      this.exited.set(id, status);
    }
    return status;
  }

  forget(id: string): void {
    this.exited.delete(id);
    this.forgets++;
  }

  /** The engine reported an OOM kill in the container: its next inspection is read again and says so. */
  sawOomKill(id: string): void {
    if (this.oomKilled.size >= CACHE_LIMIT) this.oomKilled.delete(this.oomKilled.values().next().value!);
    this.oomKilled.add(id);
    this.forget(id);
  }
}

function listPodObjects(runtime: ContainerRuntime, filter: ListFilter): Promise<PodObjects> {
  if (runtime.listPodObjects) return runtime.listPodObjects(filter);
  return Promise.all([runtime.listSandboxes(filter), runtime.listContainers(filter)]).then(([sandboxes, containers]) => ({ sandboxes, containers }));
}

export async function observePod(runtime: ContainerRuntime, owner: Owner, uid: string, cache: InspectCache): Promise<PodRuntime> {
  const { sandboxes, containers: summaries } = await listPodObjects(runtime, podFilter(owner, uid));
  sandboxes.sort((a, b) => b.attempt - a.attempt || b.createdAt.getTime() - a.createdAt.getTime());
  const containers = new Map<string, Instance[]>();
  for (const summary of summaries) {
    const name = summary.labels[CONTAINER_NAME] ?? '';
    const list = containers.get(name) ?? [];
    list.push({ id: summary.id, name, attempt: attemptFromLabels(summary.labels), summary });
    containers.set(name, list);
  }
  const inspections: Array<Promise<void>> = [];
  for (const list of containers.values()) {
    list.sort((a, b) => b.attempt - a.attempt || b.summary.createdAt.getTime() - a.summary.createdAt.getTime());
    for (const instance of list.slice(0, 2)) {
      inspections.push(
        cache.inspect(runtime, instance.id).then(
          (status) => void (instance.status = status),
          (error: unknown) => {
            // Removed between list and inspect: it simply is not there. Anything else (the
            // engine went away) must fail the whole read, or a status would be built blind.
            if (!(error instanceof ContainerNotFoundError)) throw error;
          },
        ),
      );
    }
  }
  await Promise.all(inspections);
  for (const [name, list] of containers)
    containers.set(
      name,
      list.filter((i, n) => n >= 2 || i.status !== undefined),
    );
  return { sandboxes, containers };
}

/** Every pod uid with objects of this agent in the runtime (for orphan clean-up). */
export async function podUidsInRuntime(runtime: ContainerRuntime, owner: Owner): Promise<Set<string>> {
  const { sandboxes, containers } = await listPodObjects(runtime, ownerFilter(owner));
  const uids = new Set<string>();
  for (const s of sandboxes) uids.add(s.pod.uid);
  for (const c of containers) if (c.labels[POD_UID]) uids.add(c.labels[POD_UID]);
  return uids;
}

export function latest(state: PodRuntime, name: string): Instance | undefined {
  return state.containers.get(name)?.[0];
}

export function runningSandbox(state: PodRuntime): SandboxInfo | undefined {
  const newest = state.sandboxes[0];
  return newest?.state === 'running' ? newest : undefined;
}

/** A container whose start failed stays "created" with the engine's error. */
export function startFailed(status: ContainerStatus): boolean {
  return status.state === 'created' && status.error !== '';
}

export function isRunning(instance: Instance | undefined): boolean {
  return instance?.status?.state === 'running';
}

export function hasFinished(instance: Instance | undefined): boolean {
  const s = instance?.status;
  return s !== undefined && (s.state === 'exited' || startFailed(s));
}
