// The one error the protobuf decoder throws. Its `code` and `reason` are those of the Kubernetes
// Status the API server answers with, so a handler can turn it into an ApiError directly.

export type ProtobufDecodeFailure = 'malformed' | 'unsupported-kind';

export class ProtobufDecodeError extends Error {
  /** HTTP status: 400 for a body that is not valid Kubernetes protobuf, 415 for a kind we cannot map. */
  readonly code: 400 | 415;
  readonly reason: 'BadRequest' | 'UnsupportedMediaType';

  constructor(
    readonly failure: ProtobufDecodeFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ProtobufDecodeError';
    this.code = failure === 'malformed' ? 400 : 415;
    this.reason = failure === 'malformed' ? 'BadRequest' : 'UnsupportedMediaType';
  }
}

export const malformed = (message: string) => new ProtobufDecodeError('malformed', message);
