// Annotations, finalizers and names of persistent storage, spelled as Kubernetes, k3s and
// rancher's local-path-provisioner spell them (clients and tools read these).

/** On a claim: the node the scheduler chose for its first pod (WaitForFirstConsumer). */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** On a claim: who is asked to provision it. */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** On a claim: the binder finished binding it. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** On a claim or volume: the binder (not the user) set volumeName / claimRef. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** On a volume: the provisioner that made it (and must delete it). */
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
/** The old way of naming a class, still honoured before spec.storageClassName. */
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** On a StorageClass: claims without a class get this one. */
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const ANN_BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';

/** A claim in use by a pod is not removed until the pod is gone. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
/** A volume bound to a claim is not removed until it is released. */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** The built-in provisioner, as k3s ships it. */
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
export const LOCAL_PATH_CLASS = 'local-path';
/** On a provisioned volume, as rancher's provisioner writes it: the node the directory is on. */
export const ANN_LOCAL_PATH_NODE = 'local.path.provisioner/selected-node';
/**
 * On a provisioned local-path volume: its node. The node's agent lists and watches the volumes
 * of its node by this label (the node authorizer lets it read no others).
 */
export const LABEL_LOCAL_PATH_NODE = 'drover.io/local-path-node';
/** On a Node: the agent's directory for local-path volumes (the agent owns the node's disk). */
export const ANN_NODE_LOCAL_PATH_DIR = 'drover.io/local-path-dir';
/**
 * On a provisioned local-path volume: held until the agent of its node has removed the
 * directory, so a deleted volume's data is never left behind unnoticed.
 */
export const LOCAL_PATH_CLEANUP_FINALIZER = 'drover.io/local-path-directory';

/** Kubernetes' hostname label, which local volumes' nodeAffinity names. */
export const HOSTNAME_LABEL = 'kubernetes.io/hostname';
