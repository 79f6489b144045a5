// API errors. Every failure the server reports is one of these and is written as a Kubernetes
// `Status` object (kind Status, status Failure, reason, code, details.causes[].field), so that
// kubectl and client libraries print and classify it as they do for Kubernetes.
import type { FieldError, StatusCause, StatusDetails } from '../api/meta.js';
import { PatchError } from './patch/errors.js';
import { KeyNotFoundError, MAX_VALUE_BYTES, RevisionConflictError, StoreUnavailableError, ValueTooLargeError } from '../storage/errors.js';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

export type { StatusCause, StatusDetails };

/** The resource an error is about, as Kubernetes names it in messages: `deployments.apps "web"`. */
export interface ResourceRef {
  group: string;
  plural: string;
  name?: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): Record<string, unknown> {
    const status: Record<string, unknown> = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) status['details'] = this.details;
    return status;
  }
}

function qualified(ref: ResourceRef): string {
  return ref.group ? `${ref.plural}.${ref.group}` : ref.plural;
}

function refDetails(ref: ResourceRef): StatusDetails {
  const details: StatusDetails = { kind: ref.plural };
  if (ref.name !== undefined) details.name = ref.name;
  if (ref.group) details.group = ref.group;
  return details;
}

export const badRequest = (message: string, causes?: StatusCause[]) => new ApiError(400, 'BadRequest', message, causes ? { causes } : undefined);

export const notFound = (ref: ResourceRef) => new ApiError(404, 'NotFound', `${qualified(ref)} "${ref.name ?? ''}" not found`, refDetails(ref));

/** 404 for a URL that names no resource the server serves. */
export const pathNotFound = (path: string) => new ApiError(404, 'NotFound', `the server could not find the requested resource (${path})`, {});

export const alreadyExists = (ref: ResourceRef) => new ApiError(409, 'AlreadyExists', `${qualified(ref)} "${ref.name ?? ''}" already exists`, refDetails(ref));

export const conflict = (ref: ResourceRef, why: string) =>
  new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(ref)} "${ref.name ?? ''}": ${why}`, refDetails(ref));

export const staleResourceVersion = (ref: ResourceRef) =>
  conflict(ref, 'the object has been modified; please apply your changes to the latest version and try again');

export const expired = (message: string) => new ApiError(410, 'Expired', message);

/** 401: no credentials where they are needed, or credentials that do not verify. */
export const unauthorized = () => new ApiError(401, 'Unauthorized', 'Unauthorized');

export const forbidden = (message: string, ref?: ResourceRef) => new ApiError(403, 'Forbidden', message, ref ? refDetails(ref) : undefined);

export const methodNotAllowed = (method: string) =>
  new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${method})`);

export const notAcceptable = (accept: string) =>
  new ApiError(406, 'NotAcceptable', `only the following media types are accepted: application/json, application/yaml (requested ${accept})`);

/** An object larger than the store keeps (etcd's 1.5 MiB). */
export const tooLargeObject = (bytes: number) =>
  new ApiError(413, 'RequestEntityTooLarge', `the object is too large: ${bytes} bytes, limit is ${MAX_VALUE_BYTES}`);

export const tooLarge = (limitBytes: number) => new ApiError(413, 'RequestEntityTooLarge', `the request body is too large: limit is ${limitBytes} bytes`);

export const unsupportedMediaType = (contentType: string, supported: string[]) =>
  new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')} (got ${JSON.stringify(contentType)})`,
  );

export const internalError = (message: string) => new ApiError(500, 'InternalError', `Internal error occurred: ${message}`);

/** 422 Invalid, with one cause per field as Kubernetes reports them. */
export function invalid(kind: string, name: string, group: string, reported: FieldError[]): ApiError {
  // A field can fail the schema check and a kind's own rule alike ("Required value"): once.
  const seen = new Set<string>();
  const errors = reported.filter((e) => {
    const key = `${e.field}\u0000${e.type}\u0000${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const summary = errors.map((e) => `${e.field}: ${e.message}`);
  const message = `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ` + (summary.length === 1 ? summary[0] : `[${summary.join(', ')}]`);
  const details: StatusDetails = {
    name,
    kind,
    causes: errors.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
  };
  if (group) details.group = group;
  return new ApiError(422, 'Invalid', message, details);
}

/** Anything that escaped as a non-ApiError becomes a 500 with its message (never a crash). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof PatchError) return new ApiError(error.code, error.reason, error.message);
  // A write that raced a delete and escaped its handler: the object is gone.
  if (error instanceof ValueTooLargeError) return tooLargeObject(error.bytes);
  if (error instanceof KeyNotFoundError) return new ApiError(404, 'NotFound', 'the object was deleted while the request was handled');
  // A write that lost every race it retried: the client's to make again, as Kubernetes answers.
  if (error instanceof RevisionConflictError) {
    return new ApiError(
      409,
      'Conflict',
      'Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again',
    );
  }
  // etcd down or slow: the request may succeed later, so it is the client's to retry (kube-apiserver answers the same).
  if (error instanceof StoreUnavailableError) return new ApiError(503, 'ServiceUnavailable', error.message);
  const message = error instanceof Error ? error.message : String(error);
  return internalError(message);
}
