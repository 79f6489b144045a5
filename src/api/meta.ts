// The object model shared by every layer: the Kubernetes TypeMeta + ObjectMeta envelope.
// Resource-specific fields are left open here; their schemas live in src/api/schemas.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** A list as the API returns it (PodList, DeploymentList, ...). */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** One cause in a Status: the field at fault and why. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** meta/v1 Status: the body of every API error (and of a few successes). */
export interface Status {
  kind: 'Status';
  apiVersion: string;
  metadata?: { resourceVersion?: string };
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: StatusDetails;
}

/** One invalid field, as carried in Status.details.causes. */
export interface FieldError {
  /** Dotted path as Kubernetes prints it, e.g. `spec.template.spec.containers[0].image`. */
  field: string;
  /** Kubernetes cause type: FieldValueRequired, FieldValueInvalid, FieldValueNotSupported, FieldValueDuplicate, FieldValueForbidden, FieldValueTooLong, FieldValueTypeInvalid, FieldValueUnknown (unknown field), FieldValueNotFound. */
  type: FieldErrorType;
  /** Human text after the field, e.g. `Invalid value: -1: must be greater than or equal to 0`. */
  message: string;
}

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'FieldValueUnknown'
  | 'FieldValueNotFound';

/** metav1.Time as Kubernetes writes it: RFC 3339 at second precision. */
export function metaTime(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime (leases, events): RFC 3339 with six fractional digits. */
export function microTime(date: Date = new Date()): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
