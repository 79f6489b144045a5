// Marathon placement constraints (the original scheduler's), over the pod's siblings: the
// bound and assumed pods of the same workload (see PodInfo.siblingKey). Semantics follow
// Marathon: a node without the constrained label only passes UNLIKE; GROUP_BY admits a new
// group, or the smallest group once at least `count` groups exist; LIKE/UNLIKE match the whole
// value.
import type { NodeInfo } from '../node-info.js';
import { pass, reject, type Plugin } from '../plugin.js';
import type { PodInfo } from '../pod-info.js';
import type { ClusterSnapshot } from '../snapshot.js';
import { unschedulable, type Status } from '../status.js';
import { ANNOTATION_CONSTRAINTS, parseConstraints, type Constraint } from './constraints-parse.js';

interface ConstraintCheck {
  readonly constraint: Constraint;
  /** Field value → number of siblings on nodes with that value. */
  readonly counts: ReadonlyMap<string, number>;
  /** GROUP_BY: the size of the smallest group. */
  readonly minCount: number;
  /** Made once per pod, so rejecting a node allocates nothing. */
  readonly rejection: Status;
}

export function constraintReason(c: Constraint): string {
  return `node(s) didn't satisfy constraint ${c.label}`;
}

function fieldValue(field: string, node: NodeInfo): string | undefined {
  return field === 'hostname' ? node.name : node.labels[field];
}

/** Siblings per field value. Nodes that are gone or lack the label form no group. */
function groupCounts(field: string, pod: PodInfo, snapshot: ClusterSnapshot): Map<string, number> {
  const counts = new Map<string, number>();
  const byNode = snapshot.siblingsByNode(pod.siblingKey);
  if (byNode === undefined) return counts;
  // A pod retried while still assumed somewhere is not its own sibling.
  const own = snapshot.nodeOf(pod);
  for (const [nodeName, n] of byNode) {
    const node = snapshot.getNode(nodeName);
    const value = node === undefined ? undefined : fieldValue(field, node);
    const siblings = nodeName === own ? n - 1 : n;
    if (value === undefined || siblings <= 0) continue;
    counts.set(value, (counts.get(value) ?? 0) + siblings);
  }
  return counts;
}

function check(constraint: Constraint, pod: PodInfo, snapshot: ClusterSnapshot): ConstraintCheck {
  const counts = groupCounts(constraint.field, pod, snapshot);
  let minCount = Infinity;
  for (const n of counts.values()) if (n < minCount) minCount = n;
  return { constraint, counts, minCount, rejection: unschedulable(constraintReason(constraint)) };
}

export function satisfies(chk: ConstraintCheck, node: NodeInfo): boolean {
  const c = chk.constraint;
  const value = fieldValue(c.field, node);
  if (value === undefined) return c.operator === 'UNLIKE';
  const counts = chk.counts;
  switch (c.operator) {
    case 'UNIQUE':
      return !counts.has(value);
    case 'CLUSTER':
      // With no value, the first sibling's placement picks the value for all the others.
      return (c.value === '' || value === c.value) && (counts.size === 0 || (counts.size === 1 && counts.has(value)));
    case 'GROUP_BY': {
      const inGroup = counts.get(value);
      return inGroup === undefined || (counts.size >= c.count! && inGroup === chk.minCount);
    }
    case 'LIKE':
      return c.pattern!.test(value);
    case 'UNLIKE':
      return !c.pattern!.test(value);
    case 'MAX_PER':
      return (counts.get(value) ?? 0) < c.count!;
    case 'IS':
      return value === c.value;
  }
}

export function marathonConstraints(): Plugin<readonly ConstraintCheck[]> {
  return {
    name: 'MarathonConstraints',
    preFilter(pod, { snapshot }) {
      const annotation = pod.annotations[ANNOTATION_CONSTRAINTS];
      if (annotation === undefined) return pass([], { skipFilter: true });
      const parsed = parseConstraints(annotation);
      if (!parsed.ok) return reject(parsed.error);
      const checks = parsed.constraints.map((c) => check(c, pod, snapshot));
      return pass(checks, { skipFilter: checks.length === 0 });
    },
    filter(checks, _pod, node) {
      for (const chk of checks) if (!satisfies(chk, node)) return chk.rejection;
      return undefined;
    },
  };
}
