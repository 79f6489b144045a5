// NodeAffinity: spec.nodeSelector and requiredDuringScheduling node affinity must both hold;
// preferredDuringScheduling terms add their weights to the score of the nodes they match.
import {
  compileNodeSelectorTerm,
  compileRequiredNodeAffinity,
  pinnedNodeNames,
  type NodeConstraints,
  type NodeSelector,
  type NodeSelectorTerm,
  type NodeTest,
} from '../../api/scheduling/node-affinity.js';
import { defaultNormalizeScore, pass, type Plugin } from '../plugin.js';
import { list, record } from '../object-access.js';
import { unresolvable } from '../status.js';

export const REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
/** As kube-scheduler's NodeAffinity: no preemption on the node would change its labels. */
const MISMATCH = unresolvable(REASON_NODE_AFFINITY);

interface AffinityState {
  readonly required: NodeTest | undefined;
  readonly preferred: ReadonlyArray<{ readonly weight: number; readonly test: NodeTest }>;
}

export function nodeAffinity(): Plugin<AffinityState> {
  return {
    name: 'NodeAffinity',
    weight: 2,
    preFilter(pod) {
      // The api helpers read these fields defensively, so the loosely typed spec may go as is.
      const required = compileRequiredNodeAffinity(pod.spec as Readonly<NodeConstraints>);
      const affinity = record(record(pod.spec['affinity'])['nodeAffinity']);
      const requiredSelector = affinity['requiredDuringSchedulingIgnoredDuringExecution'] as NodeSelector | undefined;
      const preferred = list(affinity['preferredDuringSchedulingIgnoredDuringExecution'])
        .map(record)
        .map((p) => ({ weight: typeof p['weight'] === 'number' ? p['weight'] : 0, test: compileNodeSelectorTerm(p['preference'] as NodeSelectorTerm) }))
        .filter((p) => p.weight !== 0);
      // Pods pinned by name (DaemonSet pods) are only tried on those nodes, not on thousands.
      const pinned = requiredSelector === undefined ? undefined : pinnedNodeNames(requiredSelector);
      return pass(
        { required, preferred },
        {
          skipFilter: required === undefined,
          skipScore: preferred.length === 0,
          ...(pinned === undefined ? {} : { nodeNames: pinned, excludedReason: REASON_NODE_AFFINITY }),
        },
      );
    },
    filter(state, _pod, node) {
      return state.required!(node) ? undefined : MISMATCH;
    },
    score(state, _pod, node) {
      let total = 0;
      for (const p of state.preferred) if (p.test(node)) total += p.weight;
      return total;
    },
    normalizeScore(_state, scores) {
      defaultNormalizeScore(scores, false);
    },
  };
}
