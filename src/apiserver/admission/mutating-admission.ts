// The mutating phase of admission, as in Kubernetes: after defaults, before the kind's own
// validation and the validating steps, so what a mutating step adds is validated like anything
// the client sent. Drover's steps mutate creates only (the service-account token projection).
import type { MaybePromise } from '../../util/maybe-promise.js';
import type { AdmissionRequest } from './validating-admission.js';

export interface MutatingAdmission {
  /** Whether the step may change this request's object (see ValidatingAdmission.validates); absent: every request. */
  mutates?(request: AdmissionRequest): boolean;
  /** Changes request.object in place, at once or by the promise it returns; throws (or rejects) with an ApiError to refuse. */
  admit(request: AdmissionRequest): MaybePromise<void>;
}
