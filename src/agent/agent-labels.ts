// The label the agent adds to every sandbox and container it creates, on top of the
// runtime's identity labels: several agents may share one Docker Engine (tests, `drover up`
// with more than one node), and each must adopt and clean up only its own objects.
import type { ListFilter } from './runtime/runtime.js';
import { POD_UID } from './runtime/labels.js';

export const NODE_LABEL = 'drover.dev/node';

export function nodeLabels(nodeName: string): Record<string, string> {
  return { [NODE_LABEL]: nodeName };
}

export function nodeFilter(nodeName: string): ListFilter {
  return { labels: { [NODE_LABEL]: nodeName }, all: true };
}

export function podFilter(nodeName: string, uid: string): ListFilter {
  return { labels: { [NODE_LABEL]: nodeName, [POD_UID]: uid }, all: true };
}
