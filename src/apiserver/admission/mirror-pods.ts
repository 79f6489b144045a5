// Mirror pods (the API's copies of a kubelet's static pods) are exempt from the admission steps
// that would change or refuse a pod the node runs anyway, as in Kubernetes.
import type { KubeObject } from '../../api/meta.js';

const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

export function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined;
}
