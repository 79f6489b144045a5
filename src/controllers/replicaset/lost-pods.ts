// Pods a ReplicaSet lost without deciding to: failed, or deleted by someone else (the node
// lifecycle controller on a lost node, an eviction, a user). Their replacements are
// reschedules: each is recorded as a transaction on the workload, and when the template asks
// for host retain (`drover.dev/host-retain: "<seconds>"`) the replacement is held for the lost
// pod's node until the deadline (see src/scheduler/plugins/host-retain.ts).
import { metaTime } from '../../api/meta.js';
import { ANNOTATION_HOST_RETAIN, ANNOTATION_RETAIN_NODE, ANNOTATION_RETAIN_UNTIL } from '../../api/scheduling/annotations.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';

export type LossCause = 'failed' | 'deleted';

export interface LostPod {
  uid: string;
  name: string;
  node: string;
  cause: LossCause;
  /** When the loss was noticed (epoch ms): the retain deadline counts from here. */
  at: number;
}

/** Lost pods nobody replaced within this long are forgotten. */
const FORGET_AFTER_MS = 10 * 60_000;

export class LostPods {
  private readonly byOwner = new Map<string, LostPod[]>();
  /** Uids of pods this controller deleted itself (scale-down): not losses. */
  private readonly deletedByUs = new Set<string>();
  /** Uids already noted, so a pod seen terminating and then deleted counts once. */
  private readonly noted = new Set<string>();

  /** Marks a pod the controller is about to delete on purpose. */
  deleting(uid: string): void {
    this.deletedByUs.add(uid);
  }

  /** A pod of the owner is going away (terminating or deleted); notes it unless it was ours. */
  observe(ownerKey: string, pod: Readonly<Pod>, cause: LossCause, now = Date.now()): LostPod | undefined {
    const uid = pod.metadata.uid ?? '';
    const node = pod.spec?.nodeName;
    if (!uid || !node || this.deletedByUs.has(uid) || this.noted.has(uid)) return undefined;
    this.noted.add(uid);
    const lost: LostPod = { uid, name: pod.metadata.name ?? '', node, cause, at: now };
    const list = this.byOwner.get(ownerKey);
    if (list) list.push(lost);
    else this.byOwner.set(ownerKey, [lost]);
    return lost;
  }

  /** The pod is gone from the API for good: nothing more will be heard of it. */
  gone(uid: string | undefined): void {
    if (!uid) return;
    this.deletedByUs.delete(uid);
    this.noted.delete(uid);
  }

  /** The owner's losses still waiting for a replacement, oldest first; those nobody replaced in time are forgotten. */
  pending(ownerKey: string, now = Date.now()): readonly LostPod[] {
    const list = this.byOwner.get(ownerKey);
    if (!list) return [];
    const fresh = list.filter((lost) => now - lost.at < FORGET_AFTER_MS);
    if (fresh.length === 0) this.byOwner.delete(ownerKey);
    else if (fresh.length < list.length) this.byOwner.set(ownerKey, fresh);
    return fresh;
  }

  /** Replacements of these losses were created: they wait no more. */
  replaced(ownerKey: string, losses: readonly LostPod[]): void {
    const list = this.byOwner.get(ownerKey);
    if (!list || losses.length === 0) return;
    const done = new Set(losses);
    const left = list.filter((lost) => !done.has(lost));
    if (left.length === 0) this.byOwner.delete(ownerKey);
    else this.byOwner.set(ownerKey, left);
  }

  /** The owner needs no replacement (or is gone): its noted losses are void. */
  clear(ownerKey: string): void {
    this.byOwner.delete(ownerKey);
  }
}

/** The template's host-retain period in seconds, or undefined when it asks for none. */
export function hostRetainSeconds(template: Readonly<PodTemplateSpec> | undefined): number | undefined {
  const value = template?.metadata?.annotations?.[ANNOTATION_HOST_RETAIN];
  if (value === undefined) return undefined;
  const seconds = Number(value.trim());
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** The annotations that hold a replacement for the lost pod's node, or none once the deadline passed. */
export function retainAnnotations(lost: LostPod, retainSeconds: number, now = Date.now()): Record<string, string> | undefined {
  const until = lost.at + retainSeconds * 1000;
  if (until <= now) return undefined;
  return { [ANNOTATION_RETAIN_NODE]: lost.node, [ANNOTATION_RETAIN_UNTIL]: metaTime(new Date(until)) };
}
