// The pod-template-hash: a stable name for a pod template, so that equal templates map to the
// same ReplicaSet: the template's safeHash (util/object-hash.ts), the hash label left out, plus
// the Deployment's collisionCount.
import { POD_TEMPLATE_HASH_LABEL } from './types.js';
import { canonicalJson, safeHash } from '../../util/object-hash.js';
import type { PodTemplateSpec } from '../../api/core/index.js';

const canonicalTemplates = new WeakMap<object, string>();

/**
 * The template as compared and hashed: without the hash label. Templates of cached objects
 * never change, so each is written out once.
 */
export function templateWithoutHash(template: Readonly<PodTemplateSpec> | undefined): string {
  if (template === undefined) return canonicalJson({});
  let text = canonicalTemplates.get(template);
  if (text === undefined) canonicalTemplates.set(template, (text = writeWithoutHash(template)));
  return text;
}

function writeWithoutHash(template: Readonly<PodTemplateSpec>): string {
  const copy = structuredClone(template as PodTemplateSpec);
  const labels = copy.metadata?.labels;
  if (labels) delete labels[POD_TEMPLATE_HASH_LABEL];
  return canonicalJson(copy);
}

export function podTemplateHash(template: Readonly<PodTemplateSpec> | undefined, collisionCount?: number): string {
  return safeHash(templateWithoutHash(template), collisionCount);
}

/** Equal templates, the pod-template-hash label aside. */
export function equalIgnoreHash(a: Readonly<PodTemplateSpec> | undefined, b: Readonly<PodTemplateSpec> | undefined): boolean {
  return templateWithoutHash(a) === templateWithoutHash(b);
}
