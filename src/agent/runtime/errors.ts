// Errors a ContainerRuntime raises. The agent maps `code` to pod status reasons
// (ImageNotFound/ImagePullFailed → ErrImagePull, CreateFailed → CreateContainerError,
// StartFailed → RunContainerError, RuntimeUnavailable → node Ready=False), and shows
// `message`, which keeps the engine's own words, to the user.

export type RuntimeErrorCode =
  | 'RuntimeUnavailable'
  | 'ImageNotFound'
  | 'ImagePullFailed'
  | 'ContainerNotFound'
  | 'NameConflict'
  | 'CreateFailed'
  | 'StartFailed'
  | 'NotRunning'
  | 'SandboxFailed'
  | 'ExecFailed'
  | 'RuntimeError';

export class RuntimeError extends Error {
  readonly code: RuntimeErrorCode = 'RuntimeError';
  /** The engine's message, verbatim (empty when the error is ours). */
  readonly engineMessage: string;
  /** HTTP status of the engine's answer, when there was one. */
  readonly statusCode: number | undefined;

  constructor(message: string, opts: { engineMessage?: string; statusCode?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.engineMessage = opts.engineMessage ?? '';
    this.statusCode = opts.statusCode;
  }
}

type Opts = ConstructorParameters<typeof RuntimeError>[1];

/** The engine does not answer (socket missing, connection refused, daemon restarting). */
export class RuntimeUnavailableError extends RuntimeError {
  override readonly code = 'RuntimeUnavailable';
}

/**
 * The image is not present and may not or could not be found: policy Never with no
 * local copy, or a registry that says the image does not exist.
 */
export class ImageNotFoundError extends RuntimeError {
  override readonly code = 'ImageNotFound';
  constructor(
    readonly image: string,
    message: string,
    opts?: Opts,
  ) {
    super(message, opts);
  }
}

/** A pull that failed for another reason: registry unreachable, access denied. */
export class ImagePullError extends RuntimeError {
  override readonly code = 'ImagePullFailed';
  constructor(
    readonly image: string,
    message: string,
    opts?: Opts,
  ) {
    super(message, opts);
  }
}

export class ContainerNotFoundError extends RuntimeError {
  override readonly code = 'ContainerNotFound';
  constructor(
    readonly id: string,
    opts?: Opts,
  ) {
    super(opts?.engineMessage || `no such container: ${id}`, opts);
  }
}

/** A container with the same pod, name and attempt already exists. */
export class NameConflictError extends RuntimeError {
  override readonly code = 'NameConflict';
  constructor(
    readonly runtimeName: string,
    opts?: Opts,
  ) {
    super(opts?.engineMessage || `container name already in use: ${runtimeName}`, opts);
  }
}

export class CreateFailedError extends RuntimeError {
  override readonly code = 'CreateFailed';
}

/** The process could not be started (command not found, bad user, port in use). */
export class StartFailedError extends RuntimeError {
  override readonly code = 'StartFailed';
}

export class NotRunningError extends RuntimeError {
  override readonly code = 'NotRunning';
}

export class SandboxError extends RuntimeError {
  override readonly code = 'SandboxFailed';
}

export class ExecFailedError extends RuntimeError {
  override readonly code = 'ExecFailed';
}
