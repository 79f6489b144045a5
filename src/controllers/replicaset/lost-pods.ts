// Pods a ReplicaSet lost without deciding to: failed, or deleted by someone else (the node
// lifecycle controller on a lost node, an eviction, a user). Their replacements are
// reschedules: each is recorded as a transaction on the workload, and when the template asks
// for host retain (`drover.dev/host-retain: "<seconds>"`) the replacement is held for the lost
// pod's node until the deadline (see src/scheduler/plugins/host-retain.ts).
//
// The reconcile pass decides what is a loss (notice): failed pods from the cache, and the pods
// the handlers saw start going — not ours, not counted already. The handlers only note that
// moment (sawGoing), which the cache cannot give the pass: a pod deleted outright, or whose
// agent confirmed the deletion at once, is gone from the cache before the pass runs, and a pod
// the cache shows terminating does not say whether it began going while we watched, nor when.
import { metaTime } from '../../api/meta.js';
import { ANNOTATION_HOST_RETAIN, ANNOTATION_RETAIN_NODE, ANNOTATION_RETAIN_UNTIL } from '../../api/scheduling/annotations.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';
import { PodsUntilGone, type InCache } from './pods-until-gone.js';

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

/** What is remembered of one owner's pods between passes. */
interface OwnerMemory {
  /** Losses waiting for a replacement, oldest first. */
  losses: LostPod[];
  /** Pods the handlers saw start going, by uid, with when: the next pass judges them. */
  going: Map<string, { pod: Readonly<Pod>; at: number }>;
  /** Pods this controller deleted itself (scale-down): not losses. */
  deletedByUs: PodsUntilGone;
  /** Pods already noted, so a pod seen terminating and then deleted counts once. */
  noted: PodsUntilGone;
}

export class LostPods {
  private readonly byOwner = new Map<string, OwnerMemory>();

  /** Handlers: a pod of the owner started going (turned terminating, or was deleted) just now. */
  sawGoing(ownerKey: string, pod: Readonly<Pod>, now = Date.now()): void {
    const uid = pod.metadata.uid;
    const { going } = this.memoryOf(ownerKey);
    if (uid && !going.has(uid)) going.set(uid, { pod, at: now });
  }

  /** Marks a pod the controller is about to delete on purpose. */
  deleting(ownerKey: string, pod: Readonly<Pod>): void {
    this.memoryOf(ownerKey).deletedByUs.add(pod);
  }

  /**
   * The pass: notes as losses the pods seen going since the last pass (unless ours) and the
   * owner's `finished` pods, then forgets the pods the cache no longer holds.
   */
  notice(ownerKey: string, finished: readonly Readonly<Pod>[], inCache: InCache, now = Date.now()): void {
    const memory = this.memoryOf(ownerKey);
    for (const { pod, at } of memory.going.values()) note(memory, pod, 'deleted', at);
    memory.going.clear();
    for (const pod of finished) note(memory, pod, 'failed', now);
    memory.deletedByUs.prune(inCache);
    memory.noted.prune(inCache);
  }

  /** The owner's losses still waiting for a replacement, oldest first; those nobody replaced in time are forgotten. */
  pending(ownerKey: string, now = Date.now()): readonly LostPod[] {
    const memory = this.byOwner.get(ownerKey);
    if (!memory) return [];
    memory.losses = memory.losses.filter((lost) => now - lost.at < FORGET_AFTER_MS);
    return memory.losses;
  }

  /** Replacements of these losses were created: they wait no more. */
  replaced(ownerKey: string, losses: readonly LostPod[]): void {
    const memory = this.byOwner.get(ownerKey);
    if (!memory || losses.length === 0) return;
    const done = new Set(losses);
    memory.losses = memory.losses.filter((lost) => !done.has(lost));
  }

  /** The owner needs no replacement: its noted losses are void. */
  clear(ownerKey: string): void {
    const memory = this.byOwner.get(ownerKey);
    if (memory) memory.losses = [];
  }

  /** The owner is gone: everything remembered of its pods goes too. */
  forget(ownerKey: string): void {
    this.byOwner.delete(ownerKey);
  }

  private memoryOf(ownerKey: string): OwnerMemory {
    let memory = this.byOwner.get(ownerKey);
    if (!memory) this.byOwner.set(ownerKey, (memory = { losses: [], going: new Map(), deletedByUs: new PodsUntilGone(), noted: new PodsUntilGone() }));
    return memory;
  }
}

/** Notes the pod as lost unless it was ours or is noted already; a pod never scheduled had no node to lose. */
function note(memory: OwnerMemory, pod: Readonly<Pod>, cause: LossCause, at: number): void {
  const uid = pod.metadata.uid ?? '';
  const node = pod.spec?.nodeName;
  if (!uid || !node || memory.deletedByUs.has(uid) || memory.noted.has(uid)) return;
  memory.noted.add(pod);
  memory.losses.push({ uid, name: pod.metadata.name ?? '', node, cause, at });
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
