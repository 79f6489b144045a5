// A gang-scheduling harness for unit tests: PodGroups and pods in arrays, a snapshot, the
// framework with the coscheduling plugin and a waiting-pods map — the scheduler loop's parts
// without an API server.
import type { KubeObject } from '../../../src/api/meta.js';
import { buildPipeline, type Framework } from '../../../src/scheduler/framework.js';
import { defaultPlugins } from '../../../src/scheduler/plugins/index.js';
import type { ClusterSnapshot } from '../../../src/scheduler/snapshot.js';
import { messageOf } from '../../../src/scheduler/status.js';
import { makePod, seededRandom } from './builders.js';
import { WaitingPods } from '../../../src/scheduler/waiting-pods.js';
import { Coscheduling } from '../../../src/scheduler/gang/coscheduling.js';
import { POD_GROUP_LABEL } from '../../../src/scheduler/gang/pod-group.js';
import { PodGroupManager } from '../../../src/scheduler/gang/pod-group-manager.js';

export function makePodGroup(name: string, spec: Record<string, unknown>, created = '2026-01-01T00:00:00Z'): KubeObject {
  return {
    apiVersion: 'scheduling.x-k8s.io/v1alpha1',
    kind: 'PodGroup',
    metadata: { name, namespace: 'default', uid: `uid-pg-${name}`, creationTimestamp: created },
    spec,
    status: {},
  };
}

export function gangPod(group: string, index: number, gpus: number, extra: Record<string, unknown> = {}): KubeObject {
  return makePod({ name: `${group}-${index}`, labels: { [POD_GROUP_LABEL]: group }, requests: { 'example.com/gpu': String(gpus) }, ...extra });
}

export class GangHarness {
  readonly groups = new Map<string, KubeObject>();
  readonly pods: KubeObject[] = [];
  readonly waiting = new WaitingPods();
  readonly manager: PodGroupManager;
  readonly plugin: Coscheduling;
  readonly framework: Framework;
  readonly allowed: string[] = [];
  readonly rejected: Array<{ key: string; message: string }> = [];

  constructor(
    readonly snapshot: ClusterSnapshot,
    private clock = { now: 1_000_000 },
  ) {
    this.manager = new PodGroupManager(
      {
        group: (key) => this.groups.get(key),
        members: (key) => this.pods.filter((p) => `${p.metadata.namespace}/${p.metadata.labels?.[POD_GROUP_LABEL]}` === key),
      },
      () => this.clock.now,
    );
    this.plugin = new Coscheduling(this.manager, this.waiting, () => this.clock.now);
    this.framework = buildPipeline([...defaultPlugins(), this.plugin], { random: seededRandom() });
    this.waiting.handlers = {
      onAllow: (w) => this.allowed.push(w.key),
      onReject: (w, status) => {
        this.framework.abandon(w.pod, w.node, this.snapshot);
        this.rejected.push({ key: w.key, message: messageOf(status) });
      },
      onTimeout: (w) => this.plugin.timeout(w.group!, this.snapshot),
    };
  }

  addGroup(group: KubeObject): void {
    this.groups.set(`default/${group.metadata.name}`, group);
  }

  addPods(...pods: KubeObject[]): void {
    this.pods.push(...pods);
  }

  /** One scheduling cycle, as the loop runs it: 'allow' | 'wait' | the unschedulable message. */
  schedule(pod: KubeObject): string {
    const result = this.framework.schedulePod(pod, this.snapshot);
    if ('unschedulable' in result) return result.message;
    if (result.permit === 'wait') {
      this.waiting.add({ key: pod.metadata.name!, pod, node: result.node, group: `default/${pod.metadata.labels?.[POD_GROUP_LABEL]}` }, result.timeoutMs);
      return 'wait';
    }
    this.allowed.push(pod.metadata.name!);
    return 'allow';
  }

  /** Binds every allowed pod in the snapshot, as the informer confirms bindings. */
  confirmBindings(): void {
    for (const name of this.allowed) {
      const index = this.pods.findIndex((p) => p.metadata.name === name);
      const pod = this.pods[index]!;
      const bound = { ...pod, spec: { ...(pod['spec'] as object), nodeName: this.snapshot.nodeOf(pod) } };
      this.pods[index] = bound;
      this.snapshot.addPod(bound);
    }
  }
}
