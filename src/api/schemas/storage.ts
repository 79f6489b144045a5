// core/v1 PersistentVolume and PersistentVolumeClaim, storage.k8s.io/v1 StorageClass: storage
// that outlives pods. A claim asks for storage; the binder (src/controllers/volumes/) binds it to
// a volume, made beforehand by an administrator or provisioned for the claim by its class.
import { atomicList, bool, enumStr, field, map, named, resourceList, str, stringList, struct, time } from './builders.js';
import { Condition, kindSchema } from './meta.js';
import { NodeSelector } from './affinity.js';
import { ObjectReference } from './object-reference.js';
import { HostPathVolumeSource, NFSVolumeSource, PersistentVolumeClaimSpec } from './volume.js';

const CORE = 'io.k8s.api.core.v1';

const ACCESS_MODES = 'How the volume may be mounted: ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod.';

const persistentVolumeSources = {
  hostPath: field(HostPathVolumeSource, 'A directory on the node (single-node testing; the local-path provisioner makes these).'),
  local: field(
    named(
      `${CORE}.LocalVolumeSource`,
      struct(
        'A disk, partition or directory of one node.',
        {
          path: str('Full path of the volume on the node: a directory, or a block device.'),
          fsType: str('Filesystem type to mount; only for block devices.'),
        },
        ['path'],
      ),
    ),
    'Storage of one node; needs nodeAffinity naming that node.',
  ),
  nfs: field(NFSVolumeSource, 'An NFS export.'),
  csi: field(
    named(
      `${CORE}.CSIPersistentVolumeSource`,
      struct(
        'Storage managed by an external CSI driver.',
        {
          driver: str('Name of the CSI driver.'),
          volumeHandle: str("The driver's unique id of the volume."),
          readOnly: bool('Mount read-only. Defaults to false.'),
          fsType: str('Filesystem type, e.g. ext4.'),
          volumeAttributes: map('Driver-specific properties.'),
        },
        ['driver', 'volumeHandle'],
      ),
    ),
    'A volume of a CSI driver.',
  ),
};

/** The volume source fields a PersistentVolume may set (exactly one). */
export const PERSISTENT_VOLUME_SOURCE_FIELDS = Object.keys(persistentVolumeSources);

export const PersistentVolumeSchema = kindSchema(
  { group: '', version: 'v1', kind: 'PersistentVolume' },
  'A piece of storage in the cluster, provisioned by an administrator or dynamically through a StorageClass. Cluster-scoped.',
  {
    spec: field(
      named(
        `${CORE}.PersistentVolumeSpec`,
        struct('What the volume is and who may claim it.', {
          capacity: resourceList("The volume's capacity: {storage: 10Gi}."),
          accessModes: stringList(ACCESS_MODES),
          claimRef: field(ObjectReference, 'The claim this volume is bound to (or reserved for, before the claim names it).', {
            'x-kubernetes-map-type': 'granular',
          }),
          persistentVolumeReclaimPolicy: enumStr(
            'What happens to the volume when its claim is deleted: Retain (the default for volumes made by hand), Delete (the default for provisioned ones) or Recycle (deprecated).',
            ['Retain', 'Delete', 'Recycle'],
          ),
          storageClassName: str('The StorageClass this volume belongs to; empty: no class (claims with storageClassName "" bind to it).'),
          mountOptions: atomicList('Mount options, not validated.', str('A mount option.')),
          volumeMode: enumStr('Filesystem (the default) or Block.', ['Filesystem', 'Block']),
          nodeAffinity: field(
            named(
              `${CORE}.VolumeNodeAffinity`,
              struct('The nodes this volume can be reached from.', {
                required: field(NodeSelector, 'Nodes that must match for a pod using the volume to run there.'),
              }),
            ),
            'The nodes the volume is reachable from; pods using it are scheduled there.',
          ),
          volumeAttributesClassName: str('VolumeAttributesClass of this volume.'),
          ...persistentVolumeSources,
        }),
      ),
      'What the volume is.',
    ),
    status: field(
      named(
        `${CORE}.PersistentVolumeStatus`,
        struct('Where the volume is in its life.', {
          phase: enumStr('Pending, Available (free), Bound (to a claim), Released (its claim was deleted; not yet reclaimed) or Failed (reclamation failed).', [
            'Pending',
            'Available',
            'Bound',
            'Released',
            'Failed',
          ]),
          message: str('Why the volume is in its phase.'),
          reason: str('A CamelCase reason for a Failed volume.'),
          lastPhaseTransitionTime: time('When the volume last changed phase.'),
        }),
      ),
      'Where the volume is in its life. Written by the binder.',
    ),
  },
);

export const PersistentVolumeClaimSchema = kindSchema(
  { group: '', version: 'v1', kind: 'PersistentVolumeClaim' },
  "A user's request for storage, bound to one PersistentVolume. Pods mount the volume through the claim.",
  {
    spec: field(PersistentVolumeClaimSpec, 'The storage wanted. Immutable once created, except resources.requests (growth, when the class allows expansion).'),
    status: field(
      named(
        `${CORE}.PersistentVolumeClaimStatus`,
        struct('What the claim got.', {
          phase: enumStr('Pending (not bound yet), Bound or Lost (its volume is gone).', ['Pending', 'Bound', 'Lost']),
          accessModes: stringList('Access modes of the bound volume.'),
          capacity: resourceList('Capacity of the bound volume.'),
          conditions: atomicList('Conditions of the claim (resizing).', Condition),
        }),
      ),
      'What the claim got. Written by the binder.',
    ),
  },
);

export const StorageClassSchema = kindSchema(
  { group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass' },
  'A class of storage, and how volumes of it are provisioned for claims that name it. Cluster-scoped; its fields sit at the top level of the object.',
  {
    provisioner: str('Who provisions volumes of this class, e.g. rancher.io/local-path; kubernetes.io/no-provisioner for none.'),
    parameters: map('Parameters for the provisioner.'),
    reclaimPolicy: enumStr('Reclaim policy of provisioned volumes: Delete (the default) or Retain.', ['Delete', 'Retain']),
    mountOptions: atomicList('Mount options of provisioned volumes.', str('A mount option.')),
    allowVolumeExpansion: bool('Whether claims of this class may grow (their resources.requests.storage raised).'),
    volumeBindingMode: enumStr(
      'When claims are bound and provisioned: Immediate (the default) or WaitForFirstConsumer (once a pod using the claim is scheduled, on its node).',
      ['Immediate', 'WaitForFirstConsumer'],
    ),
    allowedTopologies: atomicList(
      'Where volumes may be provisioned.',
      named(
        `${CORE}.TopologySelectorTerm`,
        struct('Topology domains, ANDed.', {
          matchLabelExpressions: atomicList(
            'Label requirements.',
            named(
              `${CORE}.TopologySelectorLabelRequirement`,
              struct(
                'A label and its allowed values.',
                {
                  key: str('The label key.'),
                  values: stringList('Allowed values.'),
                },
                ['key', 'values'],
              ),
            ),
          ),
        }),
      ),
    ),
  },
  ['provisioner'],
);
