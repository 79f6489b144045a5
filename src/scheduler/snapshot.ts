// The scheduler's cache of the cluster, as kube-scheduler's cache: nodes with the pods bound to
// them, updated incrementally from informer events, plus pods *assumed* onto a node the moment
// the scheduler picks it, before the binding is confirmed, so the next pod already sees the
// capacity as taken. No method walks the whole cluster; scheduling a pod never re-reads it.
import type { KubeObject } from '../api/meta.js';
import { NodeInfo } from './node-info.js';
import { NodeTable } from './node-table.js';
import { isPodInfo, podInfoOf, podKey, type PodInfo } from './pod-info.js';
import { podPriority } from '../api/scheduling/priority.js';

interface PodState {
  info: PodInfo;
  /** The node the pod is accounted on. */
  node: string;
  /** Placed by the scheduler, not yet seen bound through the API. */
  assumed: boolean;
}

function keyOf(pod: KubeObject | PodInfo): string {
  return isPodInfo(pod) ? pod.key : podKey(pod);
}

export class ClusterSnapshot {
  private readonly infos = new Map<string, NodeInfo>();
  private readonly table = new NodeTable();
  /** Nodes that have a Node object, in a stable order the scheduler rotates through. */
  private readonly list: NodeInfo[] = [];
  private readonly position = new Map<string, number>();
  private readonly podStates = new Map<string, PodState>();
  /** sibling key → node name → number of siblings there. */
  private readonly siblings = new Map<string, Map<string, number>>();
  /** Pod priority → pods accounted with it: lets preemption see at once that no pod is below a priority. */
  private readonly priorities = new Map<number, number>();

  /** Schedulable candidates: every node with a Node object. */
  get nodes(): readonly NodeInfo[] {
    return this.list;
  }

  get nodeCount(): number {
    return this.list.length;
  }

  get podCount(): number {
    return this.podStates.size;
  }

  /** The node with a Node object of that name; undefined for unknown or deleted nodes. */
  getNode(name: string): NodeInfo | undefined {
    const info = this.infos.get(name);
    return info?.node === undefined ? undefined : info;
  }

  /** Adds or replaces a Node; pods already bound to it are kept. */
  updateNode(node: KubeObject): void {
    const name = node.metadata.name ?? '';
    const info = this.nodeInfo(name);
    info.setNode(node);
    if (!this.position.has(name)) {
      this.position.set(name, this.list.length);
      this.list.push(info);
    }
  }

  addNode(node: KubeObject): void {
    this.updateNode(node);
  }

  removeNode(name: string): void {
    const info = this.infos.get(name);
    if (info === undefined) return;
    this.unlist(name);
    info.node = undefined;
    // Pods still bound to a deleted node keep counting until their own delete events arrive,
    // as in kube-scheduler; the info lingers as a ghost until then.
    if (info.podCount === 0) this.dropInfo(info);
  }

  /**
   * A pod from the informer (add or update). Bound, non-terminal pods are accounted on their
   * node; a confirmed assumed pod stops being assumed; anything else is dropped.
   */
  addPod(pod: KubeObject): void {
    const info = podInfoOf(pod);
    if (info.nodeName === undefined || info.terminal) {
      // Unbound pods hold nothing; an assumed pod stays until the binding is confirmed or forgotten.
      if (info.terminal || this.podStates.get(info.key)?.assumed !== true) this.removeKey(info.key);
      return;
    }
    this.place(info, info.nodeName, false);
  }

  updatePod(pod: KubeObject): void {
    this.addPod(pod);
  }

  removePod(pod: KubeObject): void {
    this.removeKey(podKey(pod));
  }

  /** Account the pod on the node the scheduler chose, before the binding is confirmed. */
  assume(pod: KubeObject | PodInfo, nodeName: string): PodInfo {
    const info = isPodInfo(pod) ? pod : podInfoOf(pod);
    this.place(info, nodeName, true);
    return info;
  }

  /** Undo assume (the binding failed or was abandoned). Confirmed pods are left alone. */
  forget(pod: KubeObject | PodInfo): void {
    const key = keyOf(pod);
    if (this.podStates.get(key)?.assumed === true) this.removeKey(key);
  }

  isAssumed(pod: KubeObject | PodInfo): boolean {
    const key = keyOf(pod);
    return this.podStates.get(key)?.assumed === true;
  }

  /** The node a pod is accounted on (bound or assumed). */
  nodeOf(pod: KubeObject | PodInfo): string | undefined {
    const key = keyOf(pod);
    return this.podStates.get(key)?.node;
  }

  /** The lowest priority of any pod accounted on a node; undefined when there is none. */
  lowestPriority(): number | undefined {
    let lowest: number | undefined;
    for (const priority of this.priorities.keys()) if (lowest === undefined || priority < lowest) lowest = priority;
    return lowest;
  }

  /** Where a sibling group's pods are: node name → count. Read-only view; do not keep it. */
  siblingsByNode(siblingKey: string): ReadonlyMap<string, number> | undefined {
    return this.siblings.get(siblingKey);
  }

  private place(info: PodInfo, nodeName: string, assumed: boolean): void {
    const previous = this.podStates.get(info.key);
    if (previous !== undefined) this.unaccount(previous);
    this.nodeInfo(nodeName).addPod(info);
    this.countSibling(info.siblingKey, nodeName, 1);
    this.countPriority(info, 1);
    this.podStates.set(info.key, { info, node: nodeName, assumed });
  }

  private removeKey(key: string): void {
    const state = this.podStates.get(key);
    if (state === undefined) return;
    this.unaccount(state);
    this.podStates.delete(key);
  }

  private unaccount(state: PodState): void {
    const info = this.infos.get(state.node);
    if (info !== undefined) {
      info.removePod(state.info);
      if (info.node === undefined && info.podCount === 0) this.dropInfo(info);
    }
    this.countSibling(state.info.siblingKey, state.node, -1);
    this.countPriority(state.info, -1);
  }

  private countPriority(info: PodInfo, delta: 1 | -1): void {
    const priority = podPriority(info.pod);
    const count = (this.priorities.get(priority) ?? 0) + delta;
    if (count > 0) this.priorities.set(priority, count);
    else this.priorities.delete(priority);
  }

  private countSibling(siblingKey: string, nodeName: string, delta: 1 | -1): void {
    let byNode = this.siblings.get(siblingKey);
    if (byNode === undefined) this.siblings.set(siblingKey, (byNode = new Map()));
    const count = (byNode.get(nodeName) ?? 0) + delta;
    if (count > 0) byNode.set(nodeName, count);
    else byNode.delete(nodeName);
    if (byNode.size === 0) this.siblings.delete(siblingKey);
  }

  private nodeInfo(name: string): NodeInfo {
    let info = this.infos.get(name);
    if (info === undefined) this.infos.set(name, (info = new NodeInfo(name, this.table)));
    return info;
  }

  private dropInfo(info: NodeInfo): void {
    this.infos.delete(info.name);
    info.release();
  }

  /** Swap-remove from the candidate list so removal stays O(1). */
  private unlist(name: string): void {
    const index = this.position.get(name);
    if (index === undefined) return;
    const last = this.list.pop()!;
    if (last.name !== name) {
      this.list[index] = last;
      this.position.set(last.name, index);
    }
    this.position.delete(name);
  }
}
