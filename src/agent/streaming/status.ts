// Kubernetes `Status` objects as the streaming endpoints send them: as HTTP error bodies (which the
// API server relays to kubectl unchanged), and on the error channel of exec and attach, where the
// exit code of a command travels as a NonZeroExitCode cause.

import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { RuntimeError } from '../runtime/errors.js';

export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes?: Array<{ reason: string; message: string }> };
}

export function successStatus(): KubeStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
}

/** What kubectl turns into its own exit code ("command terminated with exit code N"). */
export function exitCodeStatus(exitCode: number, command: readonly string[]): KubeStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

export function failureStatus(code: number, reason: string, message: string): KubeStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

export function internalErrorStatus(message: string): KubeStatus {
  return failureStatus(500, 'InternalError', `Internal error occurred: ${message}`);
}

/** A request the streaming server refuses, with the HTTP status it answers. */
export class StreamingError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'StreamingError';
  }

  toStatus(): KubeStatus {
    return failureStatus(this.code, this.reason, this.message);
  }
}

export const badRequest = (message: string) => new StreamingError(400, 'BadRequest', message);
export const notFound = (message: string) => new StreamingError(404, 'NotFound', message);

const REASONS: Record<number, string> = { 400: 'BadRequest', 404: 'NotFound', 409: 'Conflict', 503: 'ServiceUnavailable' };

/**
 * Errors → HTTP statuses. Runtime errors by their code (a gone container is 404, a stopped one
 * 409); any other error that carries a numeric HTTP `code` (a resolver's ResolveError, worded
 * for the user) keeps it.
 */
export function toStreamingError(error: unknown): StreamingError {
  if (error instanceof StreamingError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RuntimeError) {
    if (error.code === 'ContainerNotFound') return notFound(message);
    if (error.code === 'NotRunning') return new StreamingError(409, 'Conflict', message);
    if (error.code === 'RuntimeUnavailable') return new StreamingError(503, 'ServiceUnavailable', message);
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number' && code >= 400 && code < 600) return new StreamingError(code, REASONS[code] ?? 'InternalError', message);
  return new StreamingError(500, 'InternalError', message);
}

export function writeStatus(res: ServerResponse, error: StreamingError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(error.toStatus());
  res.writeHead(error.code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Answers an upgrade request that will not be upgraded, on its raw socket. */
export function rejectUpgrade(socket: Duplex, error: StreamingError, extraHeaders: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(error.toStatus());
  const headers = { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close', ...extraHeaders };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${error.code} ${STATUS_CODES[error.code] ?? 'Error'}\r\n${head}\r\n${body}`);
}
