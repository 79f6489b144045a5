// Pods bound to a node that no longer exists. Nothing will ever run or stop them, and their
// controllers count them as live: as Kubernetes' PodGC, the repair force-deletes them (their
// node is not there to confirm a graceful end), which lets the controller replace them.
import { resources } from '../../client/index.js';
import { deleteIfSame, liveObject } from '../live.js';
import { refOf, type Check, type Finding } from '../types.js';
import type { Pod } from '../../api/core/index.js';

export const podsOnMissingNodes: Check = async (snapshot, { api }) => {
  const nodeNames = new Set(snapshot.nodes.map((node) => node.metadata.name));
  const findings: Finding[] = [];
  for (const pod of snapshot.pods) {
    const nodeName = (pod as Pod).spec?.nodeName;
    if (!nodeName || nodeNames.has(nodeName)) continue;
    // The node list came after the pod list; a live read rules out a node created meanwhile.
    if (await liveObject(api, resources.nodes, undefined, nodeName)) continue;
    const ref = refOf(pod);
    findings.push({
      kind: 'PodOnMissingNode',
      object: ref,
      message: `pod ${ref.namespace}/${ref.name} is bound to node ${nodeName}, which does not exist`,
      repair: {
        action: 'force-delete the pod so that its controller replaces it',
        nudge: false,
        run: async (client) => {
          if (await liveObject(client, resources.nodes, undefined, nodeName)) return 'resolved';
          return deleteIfSame(client, ref, 0);
        },
      },
    });
  }
  return findings;
};
