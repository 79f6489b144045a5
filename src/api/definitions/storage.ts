// ResourceDefinitions of persistent storage: core/v1 PersistentVolume (cluster-scoped) and
// PersistentVolumeClaim, storage.k8s.io/v1 StorageClass. The binder and the local-path
// provisioner live in src/controllers/volumes/; the DefaultStorageClass and protection
// admission in src/apiserver/admission/storage-admission.ts.
import type { ResourceDefinition } from '../resource.js';
import { PersistentVolumeClaimSchema, PersistentVolumeSchema, StorageClassSchema } from '../schemas/storage.js';
import { applyPersistentVolumeClaimDefaults, applyPersistentVolumeDefaults, applyStorageClassDefaults } from '../defaults/storage-defaults.js';
import { validatePersistentVolume, validatePersistentVolumeClaim, validateStorageClass } from '../validation/storage-validation.js';
import { persistentVolumeClaimPrinter, persistentVolumePrinter, storageClassPrinter } from '../printers/storage.js';
import { ALL_VERBS } from './helpers.js';

const persistentVolumes: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  listKind: 'PersistentVolumeList',
  plural: 'persistentvolumes',
  singular: 'persistentvolume',
  namespaced: false,
  shortNames: ['pv'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: PersistentVolumeSchema,
  applyDefaults: applyPersistentVolumeDefaults,
  validate: validatePersistentVolume,
  table: persistentVolumePrinter,
  fieldSelectors: {},
};

const persistentVolumeClaims: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  listKind: 'PersistentVolumeClaimList',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  namespaced: true,
  shortNames: ['pvc'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: PersistentVolumeClaimSchema,
  applyDefaults: applyPersistentVolumeClaimDefaults,
  validate: validatePersistentVolumeClaim,
  table: persistentVolumeClaimPrinter,
  fieldSelectors: {},
};

const storageClasses: ResourceDefinition = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  listKind: 'StorageClassList',
  plural: 'storageclasses',
  singular: 'storageclass',
  namespaced: false,
  shortNames: ['sc'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: {},
  schema: StorageClassSchema,
  applyDefaults: applyStorageClassDefaults,
  validate: validateStorageClass,
  table: storageClassPrinter,
  fieldSelectors: {},
};

export const storageDefinitions: readonly ResourceDefinition[] = [persistentVolumes, persistentVolumeClaims, storageClasses];
