// Errors a Store raises. The API server maps each to its Kubernetes Status (404, 409, 410).

export class StoreError extends Error {
  constructor(
    message: string,
    readonly key: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The key does not exist (get, update, delete). */
export class KeyNotFoundError extends StoreError {
  constructor(key: string) {
    super(`key not found: ${key}`, key);
  }
}

/**
 * A value past what one object may be. etcd refuses requests over 1.5 MiB (its default
 * --max-request-bytes), so no Kubernetes object is larger; the same bound here keeps every later
 * read, watch event and patch of an object within what one request may cost.
 */
export const MAX_VALUE_BYTES = 1.5 * 1024 * 1024;

export class ValueTooLargeError extends StoreError {
  constructor(
    key: string,
    readonly bytes: number,
  ) {
    super(`the object is too large: ${bytes} bytes, limit is ${MAX_VALUE_BYTES}`, key);
  }
}

/** create() of a key that already exists. */
export class KeyExistsError extends StoreError {
  constructor(key: string) {
    super(`key already exists: ${key}`, key);
  }
}

/** update()/delete() whose expectedRevision is not the object's current revision. */
export class RevisionConflictError extends StoreError {
  constructor(
    key: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`revision conflict on ${key}: expected ${expected}, current ${actual}`, key);
  }
}

/** watch() or a continued list() from a revision the store has already compacted away. */
export class RevisionExpiredError extends StoreError {
  constructor(
    readonly requested: number,
    readonly oldest: number,
  ) {
    super(`revision ${requested} has been compacted; oldest available is ${oldest}`, '');
  }
}

/** A list() continue token that this store did not issue, or one issued for another prefix. */
export class InvalidContinueTokenError extends StoreError {
  constructor(reason: string) {
    super(`invalid continue token: ${reason}`, '');
  }
}

/** Any call on a store after close(); also the error that ends open watches at close(). */
export class StoreClosedError extends StoreError {
  constructor() {
    super('store is closed', '');
  }
}

/**
 * The store's backend could not be reached or did not answer in time (an etcd member down or
 * partitioned). The API answers 503, so clients retry instead of treating it as a server bug.
 */
export class StoreUnavailableError extends StoreError {
  constructor(readonly detail: string) {
    super(`the storage backend is unavailable: ${detail}`, '');
  }
}
