// TaintToleration: NoSchedule and NoExecute taints the pod does not tolerate exclude the node;
// untolerated PreferNoSchedule taints only lower its score (fewer is better).
import { parseTolerations, toleratesAny, type ParsedToleration } from '../../api/scheduling/tolerations.js';
import type { NodeTaint } from '../node-info.js';
import { defaultNormalizeScore, pass, type Plugin } from '../plugin.js';
import { unresolvable, type Status } from '../status.js';

interface TaintState {
  readonly all: readonly ParsedToleration[];
  /** Kubernetes scores with the tolerations that could apply to PreferNoSchedule only. */
  readonly soft: readonly ParsedToleration[];
}

export function untoleratedTaintReason(taint: NodeTaint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value}}`;
}

/** A node's taints stay the same objects until the node changes: one Status per taint, made once. */
const untolerated = new WeakMap<NodeTaint, Status>();

function untoleratedStatus(taint: NodeTaint): Status {
  let status = untolerated.get(taint);
  if (status === undefined) untolerated.set(taint, (status = unresolvable(untoleratedTaintReason(taint))));
  return status;
}

export function taintToleration(): Plugin<TaintState> {
  return {
    name: 'TaintToleration',
    weight: 3,
    preFilter(pod) {
      const all = parseTolerations(pod.spec['tolerations']);
      return pass({ all, soft: all.filter((t) => t.effect === '' || t.effect === 'PreferNoSchedule') });
    },
    filter(state, _pod, node) {
      for (const taint of node.taints) {
        if (taint.effect === 'PreferNoSchedule') continue;
        if (!toleratesAny(state.all, taint)) return untoleratedStatus(taint);
      }
      return undefined;
    },
    score(state, _pod, node) {
      let count = 0;
      for (const taint of node.taints) {
        if (taint.effect === 'PreferNoSchedule' && !toleratesAny(state.soft, taint)) count++;
      }
      return count;
    },
    normalizeScore(_state, scores) {
      defaultNormalizeScore(scores, true);
    },
  };
}
