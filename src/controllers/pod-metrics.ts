// Pod status reports by phase and OOM kills by workload, counted from the pod informer every
// controller shares (the original scheduler kept both). In a farm each member counts the pods
// of its own shards, so a pod is counted once.
import type { KubeObject } from '../api/meta.js';
import { controllerRefOf } from '../api/owner-references.js';
import type { PodStatus } from '../api/core/index.js';
import { objectKey, resources, type Informer } from '../client/index.js';
import { oomKills, podStatusReports } from '../metrics/component-metrics.js';
import type { Controller, ControllerContext } from './context.js';

const statusOf = (pod: Readonly<KubeObject>) => (pod['status'] ?? {}) as PodStatus;

export class PodMetricsController implements Controller {
  readonly name = 'pod-metrics';
  private readonly pods: Informer<KubeObject>;
  private readonly replicaSets: Informer<KubeObject>;
  private stopListening: (() => void) | undefined;

  constructor(private readonly ctx: ControllerContext) {
    this.pods = ctx.factory.informerFor(resources.pods);
    this.replicaSets = ctx.factory.informerFor(resources.replicasets);
  }

  start(): void {
    this.stopListening = this.pods.addEventHandler({
      onAdd: (pod) => this.observe(undefined, pod),
      onUpdate: (old, pod) => {
        if (old !== pod) this.observe(old, pod);
      },
    });
  }

  async stop(): Promise<void> {
    this.stopListening?.();
  }

  private observe(old: Readonly<KubeObject> | undefined, pod: Readonly<KubeObject>): void {
    if (!this.ctx.shards.owns(objectKey(pod))) return;
    const before = old ? statusOf(old) : {};
    const now = statusOf(pod);
    if (now.phase && now.phase !== before.phase) podStatusReports.inc({ phase: now.phase });
    const kills = newOomKills(before, now);
    if (kills > 0) oomKills.inc({ namespace: pod.metadata.namespace ?? '', workload: this.workloadOf(pod) }, kills);
  }

  /** `Kind/name` of the top-level controller (a ReplicaSet's Deployment), or the pod itself. */
  private workloadOf(pod: Readonly<KubeObject>): string {
    const owner = controllerRefOf(pod);
    if (!owner) return `Pod/${pod.metadata.name}`;
    if (owner.kind === 'ReplicaSet') {
      const rs = this.replicaSets.getByName(pod.metadata.namespace, owner.name);
      const top = rs && controllerRefOf(rs);
      if (top) return `${top.kind}/${top.name}`;
    }
    return `${owner.kind}/${owner.name}`;
  }
}

/**
 * OOM kills between two statuses of one pod: a container that is now terminated by the OOM
 * killer and was not before, or one that restarted after an OOM kill we never saw as its state.
 */
export function newOomKills(before: PodStatus, now: PodStatus): number {
  const previous = new Map((before.containerStatuses ?? []).map((c) => [c.name, c]));
  let kills = 0;
  for (const container of now.containerStatuses ?? []) {
    const was = previous.get(container.name);
    const wasOom = was?.state?.terminated?.reason === 'OOMKilled';
    if (container.state?.terminated?.reason === 'OOMKilled') {
      if (!wasOom) kills++;
    } else if (container.lastState?.terminated?.reason === 'OOMKilled' && (container.restartCount ?? 0) > (was?.restartCount ?? 0) && !wasOom) {
      kills++;
    }
  }
  return kills;
}
