// The validating phase of admission, as in Kubernetes: after defaults and the kind's own
// validation, before the store. A validating step sees the object as it will be stored (and the
// stored one on update), may refuse the write by throwing an ApiError, and may warn the client.
// Dry runs pass through it like any write: a dry run answers what the write would do.
import type { KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { UserInfo } from '../../auth/types.js';
import type { MaybePromise } from '../../util/maybe-promise.js';

export interface AdmissionRequest {
  operation: 'create' | 'update';
  def: ResourceDefinition;
  object: KubeObject;
  /** The stored object, on update. */
  old?: KubeObject;
  /** 'status', 'scale', ... ; undefined for the main resource. */
  subresource?: string;
  /** Who writes; undefined for writes from inside the server. */
  user?: UserInfo;
  /** A dry run: a step that keeps state (quota usage) checks without recording. */
  dryRun?: boolean;
  /** Annotations for this request's audit event; filled whatever the outcome, refusals included. */
  auditAnnotations: Record<string, string>;
}

export interface ValidatingAdmission {
  /**
   * Whether the step has anything to check in this request (Kubernetes' Handles, by resource as
   * well as operation). Every write passes every step, and most steps look at a few kinds: one
   * that does not validate a request is not called, which spares each write a promise and a turn
   * of the microtask queue per step. Absent: every request.
   */
  validates?(request: AdmissionRequest): boolean;
  /**
   * Warnings for the client (`Warning: 299` headers); throws (or rejects) to refuse. A step that
   * has what it needs in memory answers at once rather than with a promise (util/maybe-promise.ts).
   */
  validate(request: AdmissionRequest): MaybePromise<string[]>;
}
