// What pods/binding does to a pod, as Kubernetes' BindingREST (pkg/registry/core/pod/storage)
// does it: the binding's uid and resourceVersion are preconditions; a pod being deleted, already
// on a node or still gated is refused with 409 on pods/binding; otherwise the pod gets the node,
// the binding's annotations and PodScheduled=True. ObjectRegistry.bindPod runs it inside the
// registry's read-modify-write (guaranteedUpdate), as BindingREST runs it in GuaranteedUpdate.
import { isObject, type KubeObject } from '../../api/meta.js';
import { validateBinding } from '../../api/validation/index.js';
import { badRequest, conflict, invalid } from '../errors.js';
import { timestamp } from './metadata.js';
import type { Preconditions } from './preconditions.js';

/** 422 for a Binding without a node to bind to (ValidatePodBinding). */
export function checkBinding(binding: KubeObject, name: string): void {
  const errors = validateBinding(binding);
  if (errors.length > 0) throw invalid('Binding', name, '', errors);
}

/** The Binding's own metadata names the pod it was made for: its uid and resourceVersion must still hold. */
export function bindingPreconditions(binding: KubeObject): Preconditions {
  const { uid, resourceVersion } = binding.metadata;
  const preconditions: Preconditions = {};
  if (uid !== undefined && typeof uid !== 'string') throw badRequest('metadata.uid of the Binding must be a string');
  if (resourceVersion !== undefined && typeof resourceVersion !== 'string') throw badRequest('metadata.resourceVersion of the Binding must be a string');
  if (uid) preconditions.uid = uid;
  if (resourceVersion) preconditions.resourceVersion = resourceVersion;
  return preconditions;
}

/** The annotations the binding adds to the pod; the pod is written unvalidated, so they are checked here. */
function bindingAnnotations(binding: KubeObject): Record<string, string> {
  const annotations: unknown = binding.metadata.annotations;
  if (annotations === undefined || annotations === null) return {};
  if (!isObject(annotations) || Object.values(annotations).some((v) => typeof v !== 'string')) {
    throw badRequest('metadata.annotations of the Binding must map strings to strings');
  }
  return annotations as Record<string, string>;
}

export function bindingTarget(binding: KubeObject): string {
  return (binding['target'] as { name: string }).name;
}

/** The stored pod (a copy of its own) assigned to the binding's node; throws 409 when it may not be. */
export function assignPod(pod: KubeObject, binding: KubeObject): KubeObject {
  const name = pod.metadata.name ?? '';
  const refuse = (why: string) => conflict({ group: '', plural: 'pods/binding', name }, why);
  const spec = isObject(pod['spec']) ? pod['spec'] : (pod['spec'] = {});
  if (pod.metadata.deletionTimestamp) throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
  if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') {
    throw refuse(`pod ${name} is already assigned to node "${spec['nodeName']}"`);
  }
  if (Array.isArray(spec['schedulingGates']) && spec['schedulingGates'].length > 0) {
    throw refuse(`pod ${name} has non-empty .spec.schedulingGates`);
  }
  spec['nodeName'] = bindingTarget(binding);
  const annotations = bindingAnnotations(binding);
  if (Object.keys(annotations).length > 0) pod.metadata.annotations = { ...pod.metadata.annotations, ...annotations };
  const status = isObject(pod['status']) ? pod['status'] : (pod['status'] = {});
  const conditions = (Array.isArray(status['conditions']) ? status['conditions'] : []).filter((c: unknown) => !(isObject(c) && c['type'] === 'PodScheduled'));
  conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timestamp() });
  status['conditions'] = conditions;
  return pod;
}
