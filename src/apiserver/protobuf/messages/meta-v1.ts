// meta.k8s.io/v1 messages (apimachinery pkg/apis/meta/v1/generated.proto).
import { bool, i64, map, message, msg, PTR, REP, rawJson, str, time } from './schema.js';

export const ownerReference = message('OwnerReference', {
  5: str('apiVersion'),
  1: str('kind'),
  3: str('name'),
  4: str('uid'),
  6: bool('controller', PTR),
  7: bool('blockOwnerDeletion', PTR),
});

export const managedFieldsEntry = message('ManagedFieldsEntry', {
  1: str('manager'),
  2: str('operation'),
  3: str('apiVersion'),
  4: time('time'),
  6: str('fieldsType'),
  7: rawJson('fieldsV1'),
  8: str('subresource'),
});

export const objectMeta = message('ObjectMeta', {
  1: str('name'),
  2: str('generateName'),
  3: str('namespace'),
  4: str('selfLink'),
  5: str('uid'),
  6: str('resourceVersion'),
  7: i64('generation'),
  8: time('creationTimestamp'),
  9: time('deletionTimestamp'),
  10: i64('deletionGracePeriodSeconds', PTR),
  11: map('labels'),
  12: map('annotations'),
  13: msg('ownerReferences', ownerReference, REP),
  14: str('finalizers', REP),
  17: msg('managedFields', managedFieldsEntry, REP),
});

export const listMeta = message('ListMeta', {
  1: str('selfLink'),
  2: str('resourceVersion'),
  3: str('continue'),
  4: i64('remainingItemCount', PTR),
});

export const labelSelectorRequirement = message('LabelSelectorRequirement', {
  1: str('key'),
  2: str('operator'),
  3: str('values', REP),
});

export const labelSelector = message('LabelSelector', {
  1: map('matchLabels'),
  2: msg('matchExpressions', labelSelectorRequirement, REP),
});

export const preconditions = message('Preconditions', {
  1: str('uid', PTR),
  2: str('resourceVersion', PTR),
});

// Field 6 (ignoreStoreReadErrorWithClusterBreakingPotential, 1.32) is not in the proto files
// we could read; it is skipped as an unknown field, which kubectl never sets anyway.
export const deleteOptions = message('DeleteOptions', {
  1: i64('gracePeriodSeconds', PTR),
  2: msg('preconditions', preconditions),
  3: bool('orphanDependents', PTR),
  4: str('propagationPolicy', PTR),
  5: str('dryRun', REP),
});

export const condition = message('Condition', {
  1: str('type'),
  2: str('status'),
  3: i64('observedGeneration'),
  4: time('lastTransitionTime'),
  5: str('reason'),
  6: str('message'),
});
