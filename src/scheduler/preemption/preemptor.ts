// kube-scheduler's DefaultPreemption PostFilter, with its nominator: when a pod fits no node, find
// the node where deleting the fewest, least important lower-priority pods makes room (victims.ts),
// nominate the pod there (status.nominatedNodeName), delete the victims gracefully with a
// Preempted event on each, and let the pod come back through the queue once they are gone. Until
// then the room stays the pod's: every pod of lower or equal priority is scheduled as if the
// nominated pods already sat on their nodes, so it cannot take the room back.
import type { KubeObject } from '../../api/meta.js';
import { mayPreempt, podPriority } from '../../api/scheduling/priority.js';
import { resources, type ApiClient, type EventRecorder } from '../../client/index.js';
import type { Framework } from '../framework.js';
import { groupKeyOf } from '../gang/pod-group.js';
import { podInfoOf, type PodInfo } from '../pod-info.js';
import type { ClusterSnapshot } from '../snapshot.js';
import type { DisruptionBudget } from './budgets.js';
import { pickCandidate, selectVictimsOnNode, type Candidate, type VictimSearch } from './victims.js';

interface Nomination {
  readonly node: string;
  readonly pod: PodInfo;
  readonly priority: number;
}

export interface PreemptorDeps {
  api: ApiClient;
  framework: Framework;
  recorder: EventRecorder;
  schedulerName: string;
  /** The cluster's PodDisruptionBudgets as they stand. */
  budgets(): readonly DisruptionBudget[];
}

export class Preemptor {
  /** Pods that preempted, by their queue key, and the node whose room is theirs. */
  private readonly nominations = new Map<string, Nomination>();

  constructor(private readonly deps: PreemptorDeps) {}

  nominatedNode(key: string): string | undefined {
    return this.nominations.get(key)?.node;
  }

  /** The pod was bound or deleted: its room is no longer held. */
  forget(key: string): void {
    this.nominations.delete(key);
  }

  /**
   * Assumes on their nodes the nominated pods (other than this one) of at least its priority,
   * as kube-scheduler's addNominatedPods does; the returned function takes them off again.
   */
  holdRoomFor(key: string, pod: KubeObject, snapshot: ClusterSnapshot): () => void {
    if (this.nominations.size === 0) return () => {};
    const priority = podPriority(pod);
    const held: PodInfo[] = [];
    for (const [other, nomination] of this.nominations) {
      // A nominated pod the snapshot already holds (bound meanwhile) needs no stand-in.
      if (other === key || nomination.priority < priority || snapshot.nodeOf(nomination.pod) !== undefined) continue;
      if (snapshot.getNode(nomination.node) === undefined) continue;
      snapshot.assume(nomination.pod, nomination.node);
      held.push(nomination.pod);
    }
    return () => {
      for (const info of held) snapshot.forget(info);
    };
  }

  /**
   * Tries to make room for a pod that fits nowhere. Returns the nominated node when it did (the
   * victims are being deleted), undefined when the pod may not preempt or no node would help.
   */
  preempt(key: string, pod: KubeObject, snapshot: ClusterSnapshot): string | undefined {
    if (!mayPreempt(pod)) return undefined;
    // The common case of a cluster without priorities: no pod anywhere is below this one.
    const lowest = snapshot.lowestPriority();
    if (lowest === undefined || lowest >= podPriority(pod)) return undefined;
    const info = podInfoOf(pod);
    const candidate = this.findCandidate(info, snapshot);
    if (candidate === undefined) return undefined;
    this.nominations.set(key, { node: candidate.node, pod: info, priority: podPriority(pod) });
    void this.carryOut(pod, candidate);
    return candidate.node;
  }

  private findCandidate(preemptor: PodInfo, snapshot: ClusterSnapshot): Candidate | undefined {
    const fits = this.deps.framework.nodeCheck(preemptor, snapshot);
    if (fits === undefined) return undefined;
    const priority = podPriority(preemptor.pod);
    const gang = groupKeyOf(preemptor.pod);
    const search: VictimSearch = {
      fits,
      // Pods only assumed (binding, waiting at permit, another preemptor's held room) are not
      // running anything yet: they are never victims. Nor is a member of the preemptor's own gang.
      mayPreempt: (pod) => podPriority(pod.pod) < priority && !snapshot.isAssumed(pod) && (gang === undefined || groupKeyOf(pod.pod) !== gang),
      leaving: (pod) => pod.pod.metadata.deletionTimestamp !== undefined,
      budgets: this.deps.budgets(),
    };
    // As kube-scheduler (minCandidateNodesPercentage 10, minCandidateNodesAbsolute 100): enough
    // candidates to choose well from, without a dry run on every node of a big cluster.
    const enough = Math.max(100, Math.floor(snapshot.nodeCount / 10));
    const candidates: Candidate[] = [];
    for (const node of snapshot.nodes) {
      const candidate = selectVictimsOnNode(node, search);
      if (candidate !== undefined) candidates.push(candidate);
      if (candidates.length >= enough) break;
    }
    return pickCandidate(candidates);
  }

  /** Nominates the pod, then marks and deletes each victim; failures are logged, the pod retries anyway. */
  private async carryOut(pod: KubeObject, candidate: Candidate): Promise<void> {
    const { api, recorder, schedulerName } = this.deps;
    const { name, namespace, uid } = pod.metadata;
    try {
      await api.resource(resources.pods, namespace).patch(name!, 'merge', { status: { nominatedNodeName: candidate.node } }, { subresource: 'status' });
    } catch (error) {
      console.error(`scheduler: nominating ${namespace}/${name} on ${candidate.node}: ${(error as Error).message}`);
    }
    await Promise.all(
      candidate.victims.map(async ({ pod: victim }) => {
        const pods = api.resource(resources.pods, victim.metadata.namespace);
        void recorder.record(victim, 'Normal', 'Preempted', `Preempted by pod ${uid ?? ''} on node ${candidate.node}`);
        try {
          // As Kubernetes 1.26+: the victim says why it goes before it goes.
          const condition = {
            type: 'DisruptionTarget',
            status: 'True',
            reason: 'PreemptionByScheduler',
            message: `${schedulerName}: preempting to accommodate a higher priority pod`,
            lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          };
          await pods.patch(victim.metadata.name!, 'strategic', { status: { conditions: [condition] } }, { subresource: 'status' });
          await pods.delete(victim.metadata.name!, victim.metadata.uid ? { preconditions: { uid: victim.metadata.uid } } : {});
        } catch (error) {
          if ((error as { code?: number }).code === 404) return;
          console.error(`scheduler: preempting ${victim.metadata.namespace}/${victim.metadata.name}: ${(error as Error).message}`);
        }
      }),
    );
  }
}
