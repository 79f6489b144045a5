// `kubectl get pv / pvc / sc` tables, with Kubernetes' columns and cells: access modes as
// RWO,ROX,RWX,RWOP; Terminating for an object being deleted; a claim's capacity and modes only
// once it names a volume; the default class marked "(default)".
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { formatQuantity, parseQuantity } from '../quota/quantity.js';
import { claimClass, isDefaultClass, volumeClass } from '../volumes/claims.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { age } from './format.js';
import { at, listAt, recordAt, stringAt } from './read.js';

const SHORT_MODES: ReadonlyArray<[string, string]> = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];
const UNSET = '<unset>';

/** Kubernetes' GetAccessModesAsString: a fixed order, each mode once. */
export function accessModesText(modes: readonly unknown[]): string {
  return SHORT_MODES.filter(([mode]) => modes.includes(mode))
    .map(([, short]) => short)
    .join(',');
}

function storageText(value: unknown): string {
  const quantity = parseQuantity(value);
  return quantity ? formatQuantity(quantity) : '0';
}

function phaseOf(object: KubeObject): string {
  return object.metadata.deletionTimestamp ? 'Terminating' : stringAt(object, 'status', 'phase');
}

const VOLUME_MODE = wide('VolumeMode', 'string', 'VolumeMode of the volume: Filesystem or Block.');
const ATTRIBUTES_CLASS = column('VolumeAttributesClass', 'string', 'Name of the VolumeAttributesClass the volume uses.');

export const persistentVolumePrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity."),
    column('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.'),
    column('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.'),
    column('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim.'),
    column('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.'),
    column('StorageClass', 'string', 'storageClassName is the name of StorageClass to which this persistent volume belongs.'),
    ATTRIBUTES_CLASS,
    column('Reason', 'string', 'reason is a brief CamelCase string that describes any failure.'),
    AGE_COLUMN,
    VOLUME_MODE,
  ],
  row(volume, now) {
    const ref = recordAt(volume, 'spec', 'claimRef');
    const claim = at(volume, 'spec', 'claimRef') === undefined ? '' : `${stringAt(ref, 'namespace')}/${stringAt(ref, 'name')}`;
    return [
      volume.metadata.name ?? '',
      storageText(at(volume, 'spec', 'capacity', 'storage')),
      accessModesText(listAt(volume, 'spec', 'accessModes')),
      stringAt(volume, 'spec', 'persistentVolumeReclaimPolicy'),
      phaseOf(volume),
      claim,
      volumeClass(volume),
      stringAt(volume, 'spec', 'volumeAttributesClassName') || UNSET,
      stringAt(volume, 'status', 'reason'),
      age(volume, now),
      stringAt(volume, 'spec', 'volumeMode') || UNSET,
    ];
  },
};

export const persistentVolumeClaimPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    column('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    column('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
    column('Access Modes', 'string', 'accessModes contains the desired access modes the volume should have.'),
    column('StorageClass', 'string', 'storageClassName is the name of the StorageClass required by the claim.'),
    ATTRIBUTES_CLASS,
    AGE_COLUMN,
    VOLUME_MODE,
  ],
  row(claim, now) {
    const volumeName = stringAt(claim, 'spec', 'volumeName');
    const bound = volumeName !== '';
    return [
      claim.metadata.name ?? '',
      phaseOf(claim),
      volumeName,
      bound ? storageText(at(claim, 'status', 'capacity', 'storage')) : '',
      bound ? accessModesText(listAt(claim, 'status', 'accessModes')) : '',
      claimClass(claim),
      stringAt(claim, 'spec', 'volumeAttributesClassName') || UNSET,
      age(claim, now),
      stringAt(claim, 'spec', 'volumeMode') || UNSET,
    ];
  },
};

export const storageClassPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
    column('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.'),
    column('VolumeBindingMode', 'string', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.'),
    column('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
    AGE_COLUMN,
  ],
  row(storageClass: KubeObject, now) {
    const name = `${storageClass.metadata.name ?? ''}${isDefaultClass(storageClass) ? ' (default)' : ''}`;
    return [
      name,
      stringAt(storageClass, 'provisioner'),
      stringAt(storageClass, 'reclaimPolicy') || 'Delete',
      stringAt(storageClass, 'volumeBindingMode') || 'Immediate',
      at(storageClass, 'allowVolumeExpansion') === true,
      age(storageClass, now),
    ];
  },
};
