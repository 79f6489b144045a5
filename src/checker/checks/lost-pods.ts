// Pods Running on a node whose agent has not reported (renewed its Lease) for four status
// intervals: the original scheduler's LOST taskgroups. The node lifecycle controller normally
// evicts them first; this finds the ones it missed. The repair marks the pod Failed with reason
// NodeLost and deletes it, so its controller replaces it elsewhere — except DaemonSet pods,
// which belong to their node and are only reported, as the original did not reschedule them.
import type { KubeObject } from '../../api/meta.js';
import { controllerRefOf } from '../../api/owner-references.js';
import { resources, type ApiClient } from '../../client/index.js';
import { deleteIfSame, liveObject } from '../live.js';
import { lastHeartbeat, NODE_LEASE_NAMESPACE, renewTime } from '../snapshot.js';
import { refOf, type Check, type Finding, type ObjectRef } from '../types.js';
import type { Pod } from '../../api/core/index.js';

function isDaemonSetPod(pod: KubeObject): boolean {
  return controllerRefOf(pod)?.kind === 'DaemonSet';
}

async function stillSilent(api: ApiClient, node: string, lostAfterMs: number): Promise<boolean> {
  const lease = await liveObject(api, resources.leases, NODE_LEASE_NAMESPACE, node);
  const renew = renewTime(lease);
  return renew === undefined || Date.now() - renew > lostAfterMs;
}

async function markLost(api: ApiClient, ref: ObjectRef, node: string, lostAfterMs: number): Promise<'repaired' | 'resolved'> {
  if (!(await stillSilent(api, node, lostAfterMs))) return 'resolved';
  const pod = await liveObject(api, resources.pods, ref.namespace, ref.name, ref.uid);
  if (!pod || pod.metadata.deletionTimestamp) return 'resolved';
  const status = { phase: 'Failed', reason: 'NodeLost', message: `Node ${node} has not reported for ${Math.round(lostAfterMs / 1000)}s` };
  await api
    .resource(resources.pods, ref.namespace)
    .patch(ref.name, 'merge', { metadata: { resourceVersion: pod.metadata.resourceVersion }, status }, { subresource: 'status' });
  return deleteIfSame(api, ref);
}

export const lostPods: Check = async (snapshot, { options }) => {
  const silent = new Map<string, number>();
  for (const node of snapshot.nodes) {
    const since = snapshot.now - lastHeartbeat(snapshot, node);
    if (since > options.lostAfterMs) silent.set(node.metadata.name ?? '', since);
  }
  const findings: Finding[] = [];
  for (const pod of snapshot.pods) {
    const node = (pod as Pod).spec?.nodeName ?? '';
    const silentFor = silent.get(node);
    const phase = (pod as Pod).status?.phase;
    if (silentFor === undefined || phase !== 'Running' || pod.metadata.deletionTimestamp) continue;
    const ref = refOf(pod);
    const finding: Finding = {
      kind: 'LostPod',
      object: ref,
      message: `pod ${ref.namespace}/${ref.name} is Running on node ${node}, whose agent has not reported for ${Math.round(silentFor / 1000)}s`,
    };
    if (isDaemonSetPod(pod)) finding.message += ' (a DaemonSet pod stays with its node: not replaced)';
    else
      finding.repair = {
        action: 'mark the pod Failed (NodeLost) and delete it so that its controller replaces it',
        nudge: false,
        run: (api) => markLost(api, ref, node, options.lostAfterMs),
      };
    findings.push(finding);
  }
  return findings;
};
