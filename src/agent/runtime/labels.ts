// The labels every runtime object carries. They are the agent's only record of what
// it runs: after a restart it lists by MANAGED and reads the rest back.

import type { PodRef } from './runtime.js';

export const LABEL_PREFIX = 'drover.dev/';
export const MANAGED = 'drover.dev/managed';
export const KIND = 'drover.dev/kind';
export const POD_UID = 'drover.dev/pod-uid';
export const POD_NAME = 'drover.dev/pod-name';
export const POD_NAMESPACE = 'drover.dev/pod-namespace';
export const CONTAINER_NAME = 'drover.dev/container-name';
export const ATTEMPT = 'drover.dev/attempt';
export const SANDBOX_ID = 'drover.dev/sandbox-id';
/** On a sandbox made ahead of its pod: the node pod range its address is in ('' for none). */
export const POOL_MEMBER = 'drover.dev/sandbox-pool';
/** On a container started through the hostname shim: the hostname it waits for. */
export const HOSTNAME_SHIM = 'drover.dev/hostname-shim';

export type ObjectKind = 'sandbox' | 'container';

export function podLabels(pod: PodRef, kind: ObjectKind, attempt: number): Record<string, string> {
  return {
    [MANAGED]: 'true',
    [KIND]: kind,
    [POD_UID]: pod.uid,
    [POD_NAME]: pod.name,
    [POD_NAMESPACE]: pod.namespace,
    [ATTEMPT]: String(attempt),
  };
}

/** Reads the pod identity back from labels; undefined when they are not ours. */
export function podFromLabels(labels: Record<string, string>): PodRef | undefined {
  const uid = labels[POD_UID];
  const name = labels[POD_NAME];
  const namespace = labels[POD_NAMESPACE];
  if (uid === undefined || name === undefined || namespace === undefined) return undefined;
  return { uid, name, namespace };
}

export function attemptFromLabels(labels: Record<string, string>): number {
  const n = Number(labels[ATTEMPT]);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/**
 * User-supplied labels may not overwrite the identity labels: a spec that did so
 * would make a container look like it belongs to another pod.
 */
export function mergeLabels(extra: Record<string, string> | undefined, own: Record<string, string>): Record<string, string> {
  return { ...(extra ?? {}), ...own };
}
