// Rules of kubeflow.org/v1 training jobs beyond the schema, as the training operator's
// validating webhook has them: known replica types, the framework's container in every
// template, at most one master/chief, a valid pod template, an immutable queue. And PodGroups.
import type { FieldError, KubeObject } from '../meta.js';
import { frameworkOfKind, type TrainingFramework } from '../training-frameworks.js';
import { forbidden, invalid, notSupported, required } from './field-errors.js';
import { validateAnnotations, validateLabels } from './object-meta.js';
import { validatePodSpec } from './pod-validation.js';
import { validateResourceList } from './resources-validation.js';
import { obj, objects, type Obj } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';

export function validateTrainingJob(job: KubeObject, old?: KubeObject): FieldError[] {
  const framework = frameworkOfKind(job.kind);
  if (!framework) return [];
  const spec = obj(job['spec']);
  const path = `spec.${framework.replicaSpecsField}`;
  const replicaSpecs = obj(spec[framework.replicaSpecsField]);
  const errors: FieldError[] = [];
  if (Object.keys(replicaSpecs).length === 0) errors.push(required(path, 'a job needs at least one replica type'));
  for (const [type, replica] of Object.entries(replicaSpecs)) {
    const at = `${path}[${type}]`;
    if (!framework.replicaTypes.includes(type)) {
      errors.push(notSupported(at, type, framework.replicaTypes));
      continue;
    }
    errors.push(...validateReplica(framework, obj(replica), at));
  }
  errors.push(...validateLeaders(framework, replicaSpecs, path));
  errors.push(...validateSchedulingPolicy(obj(obj(spec['runPolicy'])['schedulingPolicy'])));
  if (old) errors.push(...validateTrainingJobUpdate(spec, obj(old['spec'])));
  return errors;
}

function validateReplica(framework: TrainingFramework, replica: Obj, at: string): FieldError[] {
  const template = replica['template'];
  if (template === undefined || template === null) return [required(`${at}.template`)];
  const metadata = obj(obj(template)['metadata']);
  const podSpec = obj(obj(template)['spec']);
  const errors = [
    ...validateLabels(metadata['labels'], `${at}.template.metadata.labels`),
    ...validateAnnotations(metadata['annotations'], `${at}.template.metadata.annotations`),
    ...validatePodSpec(podSpec, `${at}.template.spec`),
  ];
  const containers = objects(podSpec['containers']);
  if (containers.length > 0 && !containers.some((c) => c['name'] === framework.containerName)) {
    errors.push(required(`${at}.template.spec.containers`, `there must be a container named ${framework.containerName} in the ${framework.kind}'s replicas`));
  }
  return errors;
}

/** PyTorch has one Master; TensorFlow one Chief or one Master, never both. */
function validateLeaders(framework: TrainingFramework, specs: Obj, path: string): FieldError[] {
  const leaders = framework.kind === 'PyTorchJob' ? ['Master'] : ['Chief', 'Master'];
  const present = leaders.filter((t) => specs[t] !== undefined);
  const errors: FieldError[] = [];
  for (const type of present) {
    const replicas = obj(specs[type])['replicas'];
    if (typeof replicas === 'number' && replicas > 1)
      errors.push(invalid(`${path}[${type}].replicas`, replicas, `there must be only 1 ${type.toLowerCase()} replica`));
  }
  if (present.length > 1) errors.push(forbidden(`${path}[Master]`, 'a TFJob has either a Chief or a Master, not both'));
  return errors;
}

function validateSchedulingPolicy(policy: Obj): FieldError[] {
  return validateResourceList(obj(policy['minResources']), 'spec.runPolicy.schedulingPolicy.minResources');
}

function validateTrainingJobUpdate(spec: Obj, oldSpec: Obj): FieldError[] {
  const queue = obj(obj(spec['runPolicy'])['schedulingPolicy'])['queue'];
  const oldQueue = obj(obj(oldSpec['runPolicy'])['schedulingPolicy'])['queue'];
  return semanticEqual(queue, oldQueue) ? [] : [invalid('spec.runPolicy.schedulingPolicy.queue', queue ?? null, 'field is immutable')];
}

export function validatePodGroup(group: KubeObject): FieldError[] {
  return validateResourceList(obj(obj(group['spec'])['minResources']), 'spec.minResources');
}
