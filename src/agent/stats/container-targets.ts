// Which containers the sampler reads: this agent's running app containers in every runtime,
// with the cgroup directories of each (found once per container, from its main process).
import { readFile } from 'node:fs/promises';
import { ownerFilter, type Owner } from '../agent-labels.js';
import { CONTAINER_NAME, podFromLabels } from '../runtime/labels.js';
import type { ContainerRuntime } from '../runtime/runtime.js';
import { cgroupPathsFrom, cgroupsOfProcess, cgroupVersionAt, type CgroupPaths } from './cgroup-usage.js';

export interface ContainerTarget {
  /** The runtime's container id: one instance of the container. */
  id: string;
  namespace: string;
  pod: string;
  uid: string;
  container: string;
  /** When the instance started (ms since the epoch), if the runtime says. */
  startedAt?: number;
  cgroups: CgroupPaths;
}

interface Located {
  cgroups: CgroupPaths | undefined;
  startedAt?: number;
}

/** A lister of targets that remembers each container's cgroups for as long as it runs. */
export function runtimeTargets(runtimes: () => ContainerRuntime[], owner: Owner, cgroupRoot = '/sys/fs/cgroup'): () => Promise<ContainerTarget[]> {
  const located = new Map<string, Located>();
  let layout: Promise<{ version: 1 | 2; own: CgroupPaths }> | undefined;
  const layoutOnce = () =>
    (layout ??= (async () => {
      const version = await cgroupVersionAt(cgroupRoot);
      const own = cgroupPathsFrom(await readFile('/proc/self/cgroup', 'utf8').catch(() => ''), cgroupRoot, version);
      return { version, own };
    })());
  const locate = async (runtime: ContainerRuntime, id: string): Promise<Located | undefined> => {
    const known = located.get(id);
    if (known) return known;
    const status = await runtime.inspectContainer(id).catch(() => undefined);
    if (!status || status.state !== 'running' || status.pid <= 0) return undefined;
    const { version, own } = await layoutOnce();
    const found: Located = { cgroups: await cgroupsOfProcess(status.pid, cgroupRoot, version, own) };
    if (status.startedAt) found.startedAt = status.startedAt.getTime();
    located.set(id, found);
    return found;
  };
  return async () => {
    const targets: ContainerTarget[] = [];
    const seen = new Set<string>();
    for (const runtime of runtimes()) {
      // A failed list fails the round: read as "no containers", it would end every series.
      const containers = await runtime.listContainers(ownerFilter(owner));
      for (const summary of containers) {
        const pod = podFromLabels(summary.labels);
        const container = summary.labels[CONTAINER_NAME];
        if (summary.state !== 'running' || !pod || !container) continue;
        seen.add(summary.id);
        const where = await locate(runtime, summary.id);
        if (!where?.cgroups) continue;
        targets.push({
          id: summary.id,
          namespace: pod.namespace,
          pod: pod.name,
          uid: pod.uid,
          container,
          cgroups: where.cgroups,
          ...(where.startedAt === undefined ? {} : { startedAt: where.startedAt }),
        });
      }
    }
    for (const id of located.keys()) if (!seen.has(id)) located.delete(id);
    return targets;
  };
}
