// Errors the API answers with. Every non-2xx response becomes one ApiStatusError carrying the
// Kubernetes Status body, so callers branch on `reason`/`code` through the helpers below rather
// than on messages.

import type { Status, StatusCause } from '../api/meta.js';

export type { Status, StatusCause };

// The reason Kubernetes clients assume when a body carries none (client-go's
// reasonForError on a bare HTTP status).
const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

export class ApiStatusError extends Error {
  readonly code: number;
  readonly reason: string;

  constructor(
    readonly status: Status,
    readonly method = '',
    readonly path = '',
  ) {
    super(status.message || `${method} ${path}: HTTP ${status.code ?? 0}`);
    this.name = 'ApiStatusError';
    this.code = status.code ?? 0;
    this.reason = status.reason || REASON_BY_CODE[this.code] || 'Unknown';
  }

  get causes(): StatusCause[] {
    return this.status.details?.causes ?? [];
  }

  /** Builds the error from a response; a body that is not a Status (a proxy's HTML page) is kept as the message. */
  static fromResponse(code: number, body: string, method: string, path: string): ApiStatusError {
    let parsed: unknown;
    try {
      parsed = body === '' ? undefined : JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    if (isStatus(parsed)) return new ApiStatusError({ ...parsed, code: parsed.code ?? code }, method, path);
    const reason = REASON_BY_CODE[code] ?? 'Unknown';
    const message = body.trim() || `${method} ${path}: HTTP ${code}`;
    return new ApiStatusError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message }, method, path);
  }
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

function hasCode(error: unknown, code: number, reason?: string): boolean {
  if (!(error instanceof ApiStatusError)) return false;
  return reason === undefined ? error.code === code : error.code === code || error.reason === reason;
}

export const isNotFound = (error: unknown): boolean => hasCode(error, 404, 'NotFound');
/** 403: the client's identity may not do this (RBAC, admission). */
export const isForbidden = (error: unknown): boolean => hasCode(error, 403, 'Forbidden');
/** A write lost an optimistic-concurrency race (stale resourceVersion or a failed precondition). */
export const isConflict = (error: unknown): boolean => hasCode(error, 409) && (error as ApiStatusError).reason !== 'AlreadyExists';
export const isAlreadyExists = (error: unknown): boolean => error instanceof ApiStatusError && error.reason === 'AlreadyExists';
export const isInvalid = (error: unknown): boolean => hasCode(error, 422, 'Invalid');
/** 410: the requested resourceVersion is older than the server's history; re-list. */
export const isGone = (error: unknown): boolean => hasCode(error, 410, 'Gone') || hasCode(error, 410, 'Expired');
export const isExpired = isGone;
export const isTooManyRequests = (error: unknown): boolean => hasCode(error, 429, 'TooManyRequests');
