// The typed core/v1 objects (the role of k8s.io/api/core/v1): one Pod, PodSpec, Container, Node
// for every layer. Taint and Toleration live with their rules in src/api/scheduling.
export type * from './container.js';
export type * from './volume.js';
export type * from './pod.js';
export type * from './node.js';
export type { Taint, TaintEffect } from '../scheduling/taints.js';
export type { Toleration } from '../scheduling/tolerations.js';
export type { OwnerReference, ObjectMeta } from '../meta.js';
