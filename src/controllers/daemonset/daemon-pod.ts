// Daemon pods: the pod for one node (labelled with its ControllerRevision's hash), and the node a
// pod is meant for. Like Kubernetes, the pod is pinned with required node affinity on
// `metadata.name` and the scheduler binds it; the scheduler's NodeAffinity plugin supports
// matchFields and tries only the pinned node.
import type { OwnerReference } from '../../api/meta.js';
import { newControllerRef } from '../../api/owner-references.js';
import type { NodeSelector, NodeSelectorTerm } from '../../api/scheduling/node-affinity.js';
import { daemonTolerations } from './node-eligibility.js';
import { REVISION_HASH_LABEL, TEMPLATE_GENERATION_LABEL, type DaemonSet } from './types.js';
import type { Pod, PodSpec } from '../../api/core/index.js';

/**
 * The required node affinity of a daemon pod pinned to `nodeName`
 * (ReplaceDaemonSetPodNodeNameNodeAffinity): every term keeps its label expressions and
 * gets `metadata.name In [node]` as its only field requirement.
 */
export function pinToNode(required: Readonly<NodeSelector> | undefined, nodeName: string): NodeSelector {
  const pin = [{ key: 'metadata.name', operator: 'In', values: [nodeName] }];
  const terms = (required?.nodeSelectorTerms ?? []).filter((t) => (t.matchExpressions ?? []).length > 0);
  if (terms.length === 0) return { nodeSelectorTerms: [{ matchFields: pin }] };
  return { nodeSelectorTerms: terms.map((t): NodeSelectorTerm => ({ matchExpressions: structuredClone(t.matchExpressions), matchFields: pin })) };
}

/** The node a daemon pod is bound to, or the one its affinity pins it to while unscheduled. */
export function targetNode(pod: Readonly<Pod>): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const field of term.matchFields ?? []) {
      if (field.key === 'metadata.name' && field.operator === 'In' && field.values?.length === 1) return field.values[0];
    }
  }
  return undefined;
}

export function controllerRef(ds: Readonly<DaemonSet>): OwnerReference {
  return newControllerRef(ds, { apiVersion: 'apps/v1', kind: 'DaemonSet' });
}

/** The pod the DaemonSet runs on `nodeName`. */
export function newDaemonPod(ds: Readonly<DaemonSet>, nodeName: string, hash: string): Pod {
  const template = structuredClone(ds.spec.template ?? {});
  const spec: PodSpec = template.spec ?? { containers: [] };
  const affinity = spec.affinity ?? {};
  const nodeAffinity = affinity.nodeAffinity ?? {};
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = pinToNode(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution, nodeName);
  affinity.nodeAffinity = nodeAffinity;
  spec.affinity = affinity;
  spec.tolerations = daemonTolerations(spec);
  const metadata = template.metadata ?? {};
  const labels = { ...metadata.labels, [REVISION_HASH_LABEL]: hash, [TEMPLATE_GENERATION_LABEL]: String(ds.metadata.generation ?? 1) };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${ds.metadata.name}-`,
      namespace: ds.metadata.namespace!,
      labels,
      ...(metadata.annotations ? { annotations: metadata.annotations } : {}),
      ownerReferences: [controllerRef(ds)],
    },
    spec,
  };
}
