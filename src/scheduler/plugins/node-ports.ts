// NodePorts: a hostPort can be held once per node, protocol and address; 0.0.0.0 (the default)
// holds it on every address of the node.
import { pass, type Plugin } from '../plugin.js';
import { unschedulable } from '../status.js';

export const REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
/** Unschedulable, not unresolvable: preempting the pod holding the port frees it. */
const PORTS_TAKEN = unschedulable(REASON_NODE_PORTS);

export function nodePorts(): Plugin<void> {
  return {
    name: 'NodePorts',
    preFilter(pod) {
      return pass(undefined, { skipFilter: pod.hostPorts.length === 0 });
    },
    filter(_state, pod, node) {
      return node.portsConflict(pod.hostPorts) ? PORTS_TAKEN : undefined;
    },
  };
}
