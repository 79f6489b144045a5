// meta/v1: ObjectMeta, ListMeta, LabelSelector, Status, DeleteOptions, and the envelope every
// top-level kind shares (apiVersion, kind, metadata).
import { Type } from '@sinclair/typebox';
import { atomicList, bool, field, int32, int64, keyedList, list, map, named, enumStr, str, stringList, struct, time, type Schema } from './builders.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

export const OwnerReference = named(
  `${META}.OwnerReference`,
  struct(
    'Points at an object that owns this one. Owned objects are garbage-collected once all their owners are gone. The owner must be in the same namespace as the dependent, or be cluster-scoped.',
    {
      apiVersion: str('API version of the owner.'),
      kind: str('Kind of the owner, e.g. ReplicaSet.'),
      name: str('Name of the owner.'),
      uid: str('UID of the owner; the reference is only valid while an object with this UID exists.'),
      controller: bool('True when the owner is the managing controller of this object. At most one owner reference may set it.'),
      blockOwnerDeletion: bool(
        'When true, and the owner has the "foregroundDeletion" finalizer, the owner cannot be removed from storage until this reference is removed.',
      ),
    },
    ['apiVersion', 'kind', 'name', 'uid'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const ManagedFieldsEntry = named(
  `${META}.ManagedFieldsEntry`,
  struct('Records which workflow (field manager) owns which fields of the object, for server-side apply.', {
    manager: str('Name of the workflow that manages these fields.'),
    operation: str('Kind of operation that produced this entry: Apply or Update.'),
    apiVersion: str('API version of the object the fields were set with; field sets are only meaningful with it.'),
    time: time('When these fields were last changed by this manager (only for Update, and only when a field changed).'),
    fieldsType: str('Format of fieldsV1; the only value is "FieldsV1".'),
    fieldsV1: Type.Unsafe({
      type: 'object',
      description: 'The set of owned fields, in the FieldsV1 trie format.',
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    subresource: str('Subresource the change was made through (e.g. "status"), empty for the main resource.'),
  }),
);

export const ObjectMeta = named(
  `${META}.ObjectMeta`,
  struct('Metadata every persisted object has: name, namespace, labels, annotations, owners and server-maintained bookkeeping.', {
    name: str('Unique name within the namespace (or cluster, for cluster-scoped kinds). Required on create unless generateName is set. Cannot be updated.'),
    generateName: str('Prefix from which the server generates a unique name when name is empty; a random suffix is appended.'),
    namespace: str('Namespace the object belongs to; empty means "default" for namespaced kinds. Must be a DNS label. Cannot be updated.'),
    selfLink: str('Deprecated and never set by the server.'),
    uid: str('Unique identifier the server assigns at creation; never reused. Read-only.'),
    resourceVersion: str(
      'Opaque version of this object, changed by every write. Used for optimistic concurrency and watches. Read-only for clients except as a precondition.',
    ),
    generation: int64('Sequence number of the desired state; incremented by the server on every change to the spec. Read-only.'),
    creationTimestamp: time('When the object was created, set by the server. Read-only.'),
    deletionTimestamp: time('When the object will be (or started to be) deleted; set by the server when a graceful deletion is requested. Read-only.'),
    deletionGracePeriodSeconds: int64('Seconds the object is allowed to terminate gracefully before removal; set together with deletionTimestamp. Read-only.'),
    labels: map('Key/value pairs used to organise and select objects (by label selectors in services, controllers and queries).'),
    annotations: map('Arbitrary non-identifying key/value metadata for tools and controllers; not queryable.'),
    ownerReferences: list(
      'Objects this one depends on. When every owner is deleted this object is garbage-collected. At most one entry may be the controller.',
      OwnerReference,
      {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
    ),
    finalizers: list('Keys that must be removed (by the controllers that own them) before the object is deleted from storage.', Type.String(), {
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    managedFields: atomicList('Field ownership for server-side apply, maintained by the server.', ManagedFieldsEntry),
  }),
);

export const ListMeta = named(
  `${META}.ListMeta`,
  struct('Metadata of a list response.', {
    selfLink: str('Deprecated and never set by the server.'),
    resourceVersion: str('Version of the collection this list is consistent with; use it to start a watch.'),
    continue: str('Token to pass as the continue parameter to fetch the next page; empty on the last page.'),
    remainingItemCount: int64('Number of items after this page, when the server can tell.'),
  }),
);

export const LabelSelectorRequirement = named(
  `${META}.LabelSelectorRequirement`,
  struct(
    'One selector expression: a key, an operator and values.',
    {
      key: str('The label key the requirement applies to.'),
      operator: enumStr('How key and values relate: In, NotIn, Exists or DoesNotExist.', ['In', 'NotIn', 'Exists', 'DoesNotExist']),
      values: stringList('Values for In and NotIn (must be non-empty); must be empty for Exists and DoesNotExist.'),
    },
    ['key', 'operator'],
  ),
);

export const LabelSelector = named(
  `${META}.LabelSelector`,
  struct(
    'A label query. Requirements of matchLabels and matchExpressions are ANDed. An empty selector matches every object; a missing one matches none.',
    {
      matchLabels: map('Each {key: value} pair is equivalent to a matchExpressions entry with operator In and the single value.'),
      matchExpressions: atomicList('List of label selector requirements, all of which must hold.', LabelSelectorRequirement),
    },
    [],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const Condition = named(
  `${META}.Condition`,
  struct(
    'One aspect of the current state of an object.',
    {
      type: str('Type of the condition, in CamelCase.'),
      status: enumStr('True, False or Unknown.', ['True', 'False', 'Unknown']),
      observedGeneration: int64('metadata.generation the condition was set for.'),
      lastTransitionTime: time('When the condition last changed status.'),
      reason: str('Machine-readable CamelCase reason of the last transition.'),
      message: str('Human-readable details of the last transition.'),
    },
    ['type', 'status'],
  ),
);

export const StatusCause = named(
  `${META}.StatusCause`,
  struct('One reason an operation failed, e.g. one invalid field.', {
    reason: str('Machine-readable cause, e.g. FieldValueRequired.'),
    message: str('Human-readable explanation.'),
    field: str('Path of the field that caused the error, e.g. spec.containers[0].image.'),
  }),
);

export const StatusDetails = named(
  `${META}.StatusDetails`,
  struct('Extra data about a failed (or accepted) operation.', {
    name: str('Name of the resource involved.'),
    group: str('API group of the resource.'),
    kind: str('Kind of the resource.'),
    uid: str('UID of the resource.'),
    causes: atomicList('Detailed causes, one per problem found.', StatusCause),
    retryAfterSeconds: int32('Seconds to wait before retrying, when meaningful.'),
  }),
);

export const Status = named(
  `${META}.Status`,
  struct(
    'Result of an API call that does not return an object, and every error response.',
    {
      apiVersion: str('Version of the schema of this representation: "v1".'),
      kind: str('Always "Status".'),
      metadata: field(ListMeta, 'Standard list metadata.'),
      status: str('"Success" or "Failure".'),
      message: str('Human-readable description of the status.'),
      reason: str('Machine-readable reason, e.g. NotFound, AlreadyExists, Invalid.'),
      details: field(StatusDetails, 'Extra data that depends on the reason.'),
      code: int32('HTTP status code of this response.'),
    },
    [],
    { 'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }] },
  ),
);

export const Preconditions = named(
  `${META}.Preconditions`,
  struct('Conditions that must hold for a delete to proceed.', {
    uid: str('The object must have this UID.'),
    resourceVersion: str('The object must have this resourceVersion.'),
  }),
);

export const DeleteOptions = named(
  `${META}.DeleteOptions`,
  struct(
    'Options of a delete request.',
    {
      apiVersion: str('Version of the schema of this representation.'),
      kind: str('Always "DeleteOptions".'),
      gracePeriodSeconds: int64("Seconds before the object is removed; 0 deletes immediately. Defaults to the kind's own grace period."),
      preconditions: field(Preconditions, 'Must hold for the deletion to proceed.'),
      orphanDependents: bool('Deprecated: use propagationPolicy. When true, dependents are orphaned rather than deleted.'),
      propagationPolicy: enumStr('How dependents are garbage-collected: Orphan, Background or Foreground.', ['Orphan', 'Background', 'Foreground']),
      dryRun: stringList('When present, the request is validated but not persisted. The only value is "All".'),
      ignoreStoreReadErrorWithClusterBreakingPotential: bool('Deletes an object even when it cannot be read from storage. Dangerous; disabled by default.'),
    },
    [],
    { 'x-kubernetes-group-version-kind': [{ group: '', kind: 'DeleteOptions', version: 'v1' }] },
  ),
);

export const RawExtension = named(
  `io.k8s.apimachinery.pkg.runtime.RawExtension`,
  Type.Unsafe({
    type: 'object',
    description: 'An embedded object in its serialized form (any JSON object).',
    'x-kubernetes-preserve-unknown-fields': true,
  }),
);

export const Patch = named(
  `${META}.Patch`,
  Type.Unsafe({
    type: 'object',
    description: 'The body of a PATCH request: a JSON patch, a JSON merge patch, a strategic merge patch or an apply configuration, per the Content-Type.',
  }),
);

export const WatchEvent = named(
  `${META}.WatchEvent`,
  struct(
    'One event of a watch stream.',
    {
      type: str('ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.'),
      object: field(RawExtension, 'The object after the change; for ERROR a Status; for BOOKMARK an object carrying only the resourceVersion.'),
    },
    ['type', 'object'],
    { 'x-kubernetes-group-version-kind': [{ group: '', kind: 'WatchEvent', version: 'v1' }] },
  ),
);

export const typeMetaFields = {
  apiVersion: str('Versioned schema of this representation, e.g. "apps/v1". Servers convert recognised versions.'),
  kind: str('The REST resource kind of this object, in CamelCase, e.g. "Deployment". Cannot be updated.'),
};

/** Kubernetes' OpenAPI package for a group, e.g. 'apps' -> 'io.k8s.api.apps'. */
export function apiPackage(group: string, version: string): string {
  const short = group === '' ? 'core' : (group.split('.')[0] ?? group);
  return `io.k8s.api.${short}.${version}`;
}

/** A top-level kind: envelope + the given fields, with x-kubernetes-group-version-kind. */
export function kindSchema(
  gvk: { group: string; version: string; kind: string },
  description: string,
  properties: Record<string, Schema>,
  required: readonly string[] = [],
): Schema {
  const name = `${apiPackage(gvk.group, gvk.version)}.${gvk.kind}`;
  return named(
    name,
    struct(
      description,
      { ...typeMetaFields, metadata: field(ObjectMeta, 'Standard object metadata: name, namespace, labels, annotations, owners.'), ...properties },
      required,
      { 'x-kubernetes-group-version-kind': [{ group: gvk.group, kind: gvk.kind, version: gvk.version }] },
    ),
  );
}

/** The keyed list of conditions most status types carry (merged by type). */
export function conditionList(description: string, item: Schema): Schema {
  return keyedList(description, item, 'type');
}
