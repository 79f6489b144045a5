// The default plugin set, in the order their filters run: cheap, decisive checks first, and
// the ones whose reason explains the most (a cordon, a taint) before the generic ones.
import type { Plugin } from '../plugin.js';
import { marathonConstraints } from './constraints.js';
import { hostRetain } from './host-retain.js';
import { nodeAffinity } from './node-affinity.js';
import { nodePorts } from './node-ports.js';
import { nodeResourcesFit } from './node-resources-fit.js';
import { nodeReady, nodeUnschedulable } from './node-status.js';
import { balancedAllocationPlugin, leastAllocatedPlugin } from './resource-scores.js';
import { siblingSpread } from './sibling-spread.js';
import { taintToleration } from './taint-toleration.js';

export function defaultPlugins(): Plugin[] {
  return [
    hostRetain(),
    nodeUnschedulable(),
    taintToleration(),
    nodeReady(),
    nodeAffinity(),
    nodePorts(),
    nodeResourcesFit(),
    marathonConstraints(),
    leastAllocatedPlugin(),
    balancedAllocationPlugin(),
    siblingSpread(),
  ];
}

export { marathonConstraints, constraintReason } from './constraints.js';
export { ANNOTATION_CONSTRAINTS, CONSTRAINT_OPERATORS, parseConstraints, type Constraint, type ConstraintOperator } from './constraints-parse.js';
export { hostRetain, REASON_NOT_RETAINED_NODE } from './host-retain.js';
export { nodeAffinity, REASON_NODE_AFFINITY } from './node-affinity.js';
export { nodePorts, REASON_NODE_PORTS } from './node-ports.js';
export { insufficient, nodeResourcesFit, REASON_TOO_MANY_PODS } from './node-resources-fit.js';
export { nodeReady, nodeUnschedulable, REASON_NOT_READY, REASON_UNSCHEDULABLE } from './node-status.js';
export { balancedAllocationPlugin, leastAllocatedPlugin } from './resource-scores.js';
export { siblingSpread } from './sibling-spread.js';
export { taintToleration, untoleratedTaintReason } from './taint-toleration.js';
