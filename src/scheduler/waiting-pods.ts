// kube-scheduler's waiting-pods map: pods a permit plugin told to wait, assumed on their node
// and holding its resources until a plugin allows them (then they are bound) or rejects them,
// or their time runs out. Gang scheduling is why it exists: the coscheduling plugin allows
// every waiting sibling at once when the group's quorum is reached.
import type { KubeObject } from '../api/meta.js';
import { unschedulable, withPlugin, type Status } from './status.js';

export interface WaitingPod {
  readonly key: string;
  readonly pod: KubeObject;
  readonly node: string;
  /** The gang the pod waits with, if any: lets a plugin find its siblings without a scan. */
  readonly group: string | undefined;
}

export interface WaitingPodHandlers {
  /** The pod may be bound. */
  onAllow(waiting: WaitingPod): void;
  /** The pod lost its place: unreserve it and send it back to the queue with the status's message. */
  onReject(waiting: WaitingPod, status: Status): void;
  /** The pod waited `timeoutMs` without a verdict. */
  onTimeout(waiting: WaitingPod): void;
}

interface Entry extends WaitingPod {
  readonly timer: NodeJS.Timeout;
}

export class WaitingPods {
  private readonly entries = new Map<string, Entry>();
  private readonly byGroup = new Map<string, Set<string>>();
  handlers: WaitingPodHandlers = {
    onAllow: () => {},
    onReject: () => {},
    onTimeout: (waiting) => this.reject(waiting.key, 'timed out waiting at permit'),
  };

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): WaitingPod | undefined {
    return this.entries.get(key);
  }

  add(waiting: WaitingPod, timeoutMs: number): void {
    this.remove(waiting.key);
    const timer = setTimeout(() => this.entries.has(waiting.key) && this.handlers.onTimeout(waiting), Math.max(0, timeoutMs));
    timer.unref();
    this.entries.set(waiting.key, { ...waiting, timer });
    if (waiting.group !== undefined) {
      let keys = this.byGroup.get(waiting.group);
      if (keys === undefined) this.byGroup.set(waiting.group, (keys = new Set()));
      keys.add(waiting.key);
    }
  }

  /** Keys of the pods waiting with this group (a copy: allowing or rejecting changes the map). */
  groupKeys(group: string): string[] {
    return [...(this.byGroup.get(group) ?? [])];
  }

  allow(key: string): void {
    const entry = this.remove(key);
    if (entry !== undefined) this.handlers.onAllow(entry);
  }

  /** As kube-scheduler's waitingPod.Reject: the pod is Unschedulable, by `plugin` when one rejects it. */
  reject(key: string, message: string, plugin?: string): void {
    const entry = this.remove(key);
    if (entry === undefined) return;
    const status = unschedulable(message);
    this.handlers.onReject(entry, plugin === undefined ? status : withPlugin(status, plugin));
  }

  /** Stops every timer (the scheduler stops); the pods are left as they are. */
  clear(): void {
    for (const key of [...this.entries.keys()]) this.remove(key);
  }

  private remove(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    if (entry.group !== undefined) {
      const keys = this.byGroup.get(entry.group);
      keys?.delete(key);
      if (keys?.size === 0) this.byGroup.delete(entry.group);
    }
    return entry;
  }
}
