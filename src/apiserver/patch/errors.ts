// Errors of the three patch types. The split follows what Kubernetes answers: a patch document
// that is wrong on its own (not JSON, unknown op, bad pointer, bad directive) is 400 BadRequest;
// a well-formed patch that cannot apply to this particular object (missing path, failed test,
// index out of bounds) is 422 Invalid. The rule of thumb: if the error can be found without
// looking at the current object, it is BadRequest.

export type PatchErrorReason = 'BadRequest' | 'Invalid';

export class PatchError extends Error {
  /** The HTTP status the API answers with. */
  readonly code: 400 | 422;

  constructor(
    readonly reason: PatchErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'PatchError';
    this.code = reason === 'BadRequest' ? 400 : 422;
  }
}

/** The patch document is malformed (400). */
export const malformedPatch = (message: string): PatchError => new PatchError('BadRequest', message);

/** The patch is well formed but does not apply to the current object (422). */
export const inapplicablePatch = (message: string): PatchError => new PatchError('Invalid', message);
