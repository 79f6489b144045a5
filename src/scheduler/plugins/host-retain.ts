// Host retain, from the original scheduler: a replacement pod goes back to the node its
// predecessor ran on, if that node returns before a deadline. The workload asks for it with
// `drover.dev/host-retain: "<seconds>"`; the controller that creates the replacement records
// the node and the deadline in `drover.dev/retain-node` and `drover.dev/retain-until`.
// Until the deadline only the retained node is feasible (and only while it passes the other
// filters, Ready included); after it, or once the node object is gone, any node is.
import { ANNOTATION_RETAIN_NODE, ANNOTATION_RETAIN_UNTIL } from '../../api/scheduling/annotations.js';
import { pass, type Plugin } from '../plugin.js';

export const REASON_NOT_RETAINED_NODE = "node(s) didn't match the pod's retained node";

/** RFC 3339 (what the controller writes) → epoch ms; undefined when unparseable. */
function parseDeadline(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function hostRetain(): Plugin<void> {
  return {
    name: 'HostRetain',
    preFilter(pod, { snapshot, now }) {
      const nodeName = pod.annotations[ANNOTATION_RETAIN_NODE];
      // Without a readable deadline the pod is not held anywhere: a hold without an end
      // would strand it for good.
      const deadline = parseDeadline(pod.annotations[ANNOTATION_RETAIN_UNTIL]);
      if (!nodeName || deadline === undefined || now >= deadline || snapshot.getNode(nodeName) === undefined) {
        return pass(undefined);
      }
      return pass(undefined, {
        nodeNames: new Set([nodeName]),
        excludedReason: REASON_NOT_RETAINED_NODE,
        retryAfterMs: deadline - now,
      });
    },
  };
}
