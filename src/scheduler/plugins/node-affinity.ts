// NodeAffinity: spec.nodeSelector and requiredDuringScheduling node affinity must both hold;
// preferredDuringScheduling terms add their weights to the score of the nodes they match.
import { defaultNormalizeScore, pass, type Plugin } from '../plugin.js';
import { list, record, stringMap } from '../object-access.js';
import { compileNodeSelector, compileTerm, pinnedNodeNames, type NodeTest } from './node-selector-terms.js';

export const REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";

interface AffinityState {
  readonly required: NodeTest | undefined;
  readonly preferred: ReadonlyArray<{ readonly weight: number; readonly test: NodeTest }>;
}

function nodeSelectorTest(selector: Readonly<Record<string, string>>): NodeTest | undefined {
  const entries = Object.entries(selector);
  if (entries.length === 0) return undefined;
  return (node) => {
    for (const [key, value] of entries) if (node.labels[key] !== value) return false;
    return true;
  };
}

function both(a: NodeTest | undefined, b: NodeTest | undefined): NodeTest | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return (node) => a(node) && b(node);
}

export function nodeAffinity(): Plugin<AffinityState> {
  return {
    name: 'NodeAffinity',
    weight: 2,
    preFilter(pod) {
      const affinity = record(record(pod.spec['affinity'])['nodeAffinity']);
      const requiredSelector = affinity['requiredDuringSchedulingIgnoredDuringExecution'];
      const required = both(
        nodeSelectorTest(stringMap(pod.spec['nodeSelector'])),
        requiredSelector === undefined ? undefined : compileNodeSelector(requiredSelector),
      );
      const preferred = list(affinity['preferredDuringSchedulingIgnoredDuringExecution'])
        .map(record)
        .map((p) => ({ weight: typeof p['weight'] === 'number' ? p['weight'] : 0, test: compileTerm(p['preference']) }))
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
      return state.required!(node) ? undefined : REASON_NODE_AFFINITY;
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
