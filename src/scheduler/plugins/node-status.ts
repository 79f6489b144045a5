// Cordoned and not-ready nodes. Kubernetes expresses both as taints the pod may tolerate
// (DaemonSets do), so a pod that tolerates the corresponding NoSchedule taint passes.
import type { Plugin } from '../plugin.js';
import { pass } from '../plugin.js';
import { unresolvable } from '../status.js';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE } from '../../api/scheduling/taints.js';
import { parseTolerations, toleratesAny } from '../../api/scheduling/tolerations.js';

export const REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const REASON_NOT_READY = 'node(s) were not ready';
// Nothing on the node that preemption could remove would change either.
const CORDONED = unresolvable(REASON_UNSCHEDULABLE);
const NOT_READY = unresolvable(REASON_NOT_READY);

export function nodeUnschedulable(): Plugin<void> {
  const cordonTaint = { key: TAINT_UNSCHEDULABLE, value: '', effect: 'NoSchedule' } as const;
  return {
    name: 'NodeUnschedulable',
    preFilter(pod) {
      // kubectl cordon sets spec.unschedulable; tolerating its taint opts a pod back in.
      return pass(undefined, { skipFilter: toleratesAny(parseTolerations(pod.spec['tolerations']), cordonTaint) });
    },
    filter(_state, _pod, node) {
      return node.unschedulable ? CORDONED : undefined;
    },
  };
}

interface ReadyState {
  readonly toleratesNotReady: boolean;
  readonly toleratesUnreachable: boolean;
}

export function nodeReady(): Plugin<ReadyState> {
  return {
    name: 'NodeReady',
    preFilter(pod) {
      // Only NoSchedule counts: every pod carries NoExecute tolerations for these taints by
      // default (300 s of grace before eviction), which must not make it schedulable there.
      const tolerations = parseTolerations(pod.spec['tolerations']);
      const state = {
        toleratesNotReady: toleratesAny(tolerations, { key: TAINT_NOT_READY, value: '', effect: 'NoSchedule' }),
        toleratesUnreachable: toleratesAny(tolerations, { key: TAINT_UNREACHABLE, value: '', effect: 'NoSchedule' }),
      };
      return pass(state, { skipFilter: state.toleratesNotReady && state.toleratesUnreachable });
    },
    filter(state, _pod, node) {
      if (node.ready === 'True') return undefined;
      const tolerated = node.ready === 'False' ? state.toleratesNotReady : state.toleratesUnreachable;
      return tolerated ? undefined : NOT_READY;
    },
  };
}
