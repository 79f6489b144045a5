// core/v1 pod volumes: the common volume sources, projections and ephemeral claims
// (core/v1/generated.proto). Cloud- and vendor-specific sources are not mapped.
import { objectFieldSelector, resourceFieldSelector } from './core-v1-container.js';
import { localObjectReference, typedLocalObjectReference, typedObjectReference } from './core-v1-refs.js';
import { labelSelector, objectMeta } from './meta-v1.js';
import { bool, i32, i64, map, message, msg, PTR, quantity, REP, str, type FieldSpec } from './schema.js';

const inlineRef: FieldSpec = msg('localObjectReference', localObjectReference, { inline: true });

const keyToPath = message('KeyToPath', { 1: str('key'), 2: str('path'), 3: i32('mode', PTR) });

const downwardAPIVolumeFile = message('DownwardAPIVolumeFile', {
  1: str('path'),
  2: msg('fieldRef', objectFieldSelector),
  3: msg('resourceFieldRef', resourceFieldSelector),
  4: i32('mode', PTR),
});

const volumeProjection = message('VolumeProjection', {
  1: msg('secret', message('SecretProjection', { 1: inlineRef, 2: msg('items', keyToPath, REP), 4: bool('optional', PTR) })),
  2: msg('downwardAPI', message('DownwardAPIProjection', { 1: msg('items', downwardAPIVolumeFile, REP) })),
  3: msg('configMap', message('ConfigMapProjection', { 1: inlineRef, 2: msg('items', keyToPath, REP), 4: bool('optional', PTR) })),
  4: msg('serviceAccountToken', message('ServiceAccountTokenProjection', { 1: str('audience'), 2: i64('expirationSeconds', PTR), 3: str('path') })),
  5: msg(
    'clusterTrustBundle',
    message('ClusterTrustBundleProjection', {
      1: str('name', PTR),
      2: str('signerName', PTR),
      3: msg('labelSelector', labelSelector),
      5: bool('optional', PTR),
      4: str('path'),
    }),
  ),
});

export const volumeResourceRequirements = message('VolumeResourceRequirements', {
  1: map('limits', 'quantity'),
  2: map('requests', 'quantity'),
});

export const persistentVolumeClaimSpec = message('PersistentVolumeClaimSpec', {
  1: str('accessModes', REP),
  4: msg('selector', labelSelector),
  2: msg('resources', volumeResourceRequirements),
  3: str('volumeName'),
  5: str('storageClassName', PTR),
  6: str('volumeMode', PTR),
  7: msg('dataSource', typedLocalObjectReference),
  8: msg('dataSourceRef', typedObjectReference),
  9: str('volumeAttributesClassName', PTR),
});

const volumeSource = message('VolumeSource', {
  1: msg('hostPath', message('HostPathVolumeSource', { 1: str('path'), 2: str('type', PTR) })),
  2: msg('emptyDir', message('EmptyDirVolumeSource', { 1: str('medium'), 2: quantity('sizeLimit') })),
  6: msg(
    'secret',
    message('SecretVolumeSource', {
      1: str('secretName'),
      2: msg('items', keyToPath, REP),
      3: i32('defaultMode', PTR),
      4: bool('optional', PTR),
    }),
  ),
  7: msg('nfs', message('NFSVolumeSource', { 1: str('server'), 2: str('path'), 3: bool('readOnly') })),
  10: msg('persistentVolumeClaim', message('PersistentVolumeClaimVolumeSource', { 1: str('claimName'), 2: bool('readOnly') })),
  16: msg('downwardAPI', message('DownwardAPIVolumeSource', { 1: msg('items', downwardAPIVolumeFile, REP), 2: i32('defaultMode', PTR) })),
  19: msg(
    'configMap',
    message('ConfigMapVolumeSource', {
      1: inlineRef,
      2: msg('items', keyToPath, REP),
      3: i32('defaultMode', PTR),
      4: bool('optional', PTR),
    }),
  ),
  26: msg('projected', message('ProjectedVolumeSource', { 1: msg('sources', volumeProjection, REP), 2: i32('defaultMode', PTR) })),
  28: msg(
    'csi',
    message('CSIVolumeSource', {
      1: str('driver'),
      2: bool('readOnly', PTR),
      3: str('fsType', PTR),
      4: map('volumeAttributes'),
      5: msg('nodePublishSecretRef', localObjectReference),
    }),
  ),
  29: msg(
    'ephemeral',
    message('EphemeralVolumeSource', {
      1: msg('volumeClaimTemplate', message('PersistentVolumeClaimTemplate', { 1: msg('metadata', objectMeta), 2: msg('spec', persistentVolumeClaimSpec) })),
    }),
  ),
  30: msg('image', message('ImageVolumeSource', { 1: str('reference'), 2: str('pullPolicy') })),
});

export const volume = message('Volume', {
  1: str('name'),
  2: msg('volumeSource', volumeSource, { inline: true }),
});
