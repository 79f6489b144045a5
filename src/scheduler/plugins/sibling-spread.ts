// Spreading siblings (replicas of one workload, see PodInfo.siblingKey): the fewer siblings a
// node already runs, the higher it scores, so a ReplicaSet lands on as many nodes as it can
// even without constraints.
import { defaultNormalizeScore, pass, type Plugin } from '../plugin.js';

export function siblingSpread(): Plugin<ReadonlyMap<string, number>> {
  const none: ReadonlyMap<string, number> = new Map();
  return {
    name: 'SiblingSpread',
    weight: 2,
    preFilter(pod, { snapshot }) {
      const byNode = snapshot.siblingsByNode(pod.siblingKey);
      // No sibling placed yet: every node ties, so the score is skipped.
      return pass(byNode ?? none, { skipScore: byNode === undefined || byNode.size === 0 });
    },
    score(byNode, _pod, node) {
      return byNode.get(node.name) ?? 0;
    },
    normalizeScore(_state, scores) {
      defaultNormalizeScore(scores, true);
    },
  };
}
