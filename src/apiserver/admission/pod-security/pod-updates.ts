// Which pod updates Pod Security looks at again. A pod's spec is mostly immutable once created,
// so most updates (labels, annotations, a shorter deadline, added tolerations) cannot change
// the verdict, and re-checking them would let a namespace labelled stricter later block the
// controllers that merely annotate its older pods. As in Kubernetes, an update is checked when
// it changes images, the number of containers, ephemeral containers or seccomp annotations.
import type { KubeObject } from '../../../api/meta.js';
import { objects, obj, text, type Obj } from '../../../api/validation/util.js';
import { semanticEqual } from '../../../util/json-equal.js';

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

export function changesWhatPodSecurityChecks(pod: KubeObject, old: KubeObject): boolean {
  const spec = obj(pod['spec']);
  const oldSpec = obj(old['spec']);
  const annotations = pod.metadata.annotations ?? {};
  const oldAnnotations = old.metadata.annotations ?? {};
  const seccompAnnotations = (keys: Record<string, string>): Obj =>
    Object.fromEntries(Object.entries(keys).filter(([key]) => key === SECCOMP_POD_ANNOTATION || key.startsWith(SECCOMP_CONTAINER_ANNOTATION_PREFIX)));
  if (!semanticEqual(seccompAnnotations(annotations), seccompAnnotations(oldAnnotations))) return true;
  for (const list of ['containers', 'initContainers']) {
    const now = objects(spec[list]);
    const before = objects(oldSpec[list]);
    if (now.length !== before.length) return true;
    if (now.some((container, i) => text(container['image']) !== text(before[i]?.['image']))) return true;
  }
  // Kubernetes lets ephemeral containers be added, never changed; Drover's update lets them
  // change, so any change to them is looked at.
  return !semanticEqual(spec['ephemeralContainers'], oldSpec['ephemeralContainers']);
}
