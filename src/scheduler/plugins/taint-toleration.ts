// TaintToleration: NoSchedule and NoExecute taints the pod does not tolerate exclude the node;
// untolerated PreferNoSchedule taints only lower its score (fewer is better).
import type { Taint } from '../node-info.js';
import { defaultNormalizeScore, pass, type Plugin } from '../plugin.js';
import { parseTolerations, toleratesAny, type Toleration } from './tolerations.js';

interface TaintState {
  readonly all: readonly Toleration[];
  /** Kubernetes scores with the tolerations that could apply to PreferNoSchedule only. */
  readonly soft: readonly Toleration[];
}

export function untoleratedTaintReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value}}`;
}

export function taintToleration(): Plugin<TaintState> {
  return {
    name: 'TaintToleration',
    weight: 3,
    preFilter(pod) {
      const all = parseTolerations(pod.spec);
      return pass({ all, soft: all.filter((t) => t.effect === '' || t.effect === 'PreferNoSchedule') });
    },
    filter(state, _pod, node) {
      for (const taint of node.taints) {
        if (taint.effect === 'PreferNoSchedule') continue;
        if (!toleratesAny(state.all, taint)) return untoleratedTaintReason(taint);
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
