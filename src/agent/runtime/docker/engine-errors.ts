// Turns dockerode's errors (an Error with statusCode and the engine's JSON body, or a
// socket error) into the runtime's typed errors, keeping Docker's message verbatim.

import { ContainerNotFoundError, NameConflictError, RuntimeError, RuntimeUnavailableError } from '../errors.js';

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'EPIPE', 'EACCES', 'ETIMEDOUT', 'EHOSTUNREACH']);

interface EngineErrorShape {
  statusCode?: unknown;
  json?: unknown;
  code?: unknown;
  message?: unknown;
}

export function statusOf(err: unknown): number | undefined {
  const code = (err as EngineErrorShape | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** Docker's own message: the `message` of its JSON body, else dockerode's text. */
export function engineMessage(err: unknown): string {
  const shape = (err ?? {}) as EngineErrorShape;
  const json = shape.json;
  if (json && typeof json === 'object' && !Buffer.isBuffer(json)) {
    const message = (json as { message?: unknown }).message;
    if (typeof message === 'string') return message.trim();
  }
  if (typeof json === 'string' && json.trim() !== '') return json.trim();
  if (Buffer.isBuffer(json) && json.length > 0) return json.toString('utf8').trim();
  const text = typeof shape.message === 'string' ? shape.message : String(err);
  // dockerode's form: "(HTTP code 404) no such container - No such container: x "
  const dash = text.indexOf(' - ');
  return (text.startsWith('(HTTP code') && dash >= 0 ? text.slice(dash + 3) : text).trim();
}

export function isUnavailable(err: unknown): boolean {
  const code = (err as EngineErrorShape | null)?.code;
  return typeof code === 'string' && UNAVAILABLE_CODES.has(code);
}

export function unavailable(err: unknown): RuntimeUnavailableError {
  const message = engineMessage(err);
  return new RuntimeUnavailableError(`container runtime unavailable: ${message}`, { engineMessage: message, cause: err });
}

/**
 * The common cases of an operation on one container: the engine is gone, the
 * container is gone, the name is taken. Everything else becomes the fallback.
 */
export function mapContainerError(err: unknown, id: string, fallback: (message: string, statusCode: number | undefined) => RuntimeError): RuntimeError {
  if (err instanceof RuntimeError) return err;
  if (isUnavailable(err)) return unavailable(err);
  const statusCode = statusOf(err);
  const message = engineMessage(err);
  const opts = { engineMessage: message, cause: err, ...(statusCode === undefined ? {} : { statusCode }) };
  if (statusCode === 404) return new ContainerNotFoundError(id, opts);
  if (statusCode === 409 && /already in use/i.test(message)) return new NameConflictError(id, opts);
  return fallback(message, statusCode);
}

/** An error of an operation that is not about one container (info, images, events). */
export function genericError(err: unknown, what: string): RuntimeError {
  if (err instanceof RuntimeError) return err;
  if (isUnavailable(err)) return unavailable(err);
  const statusCode = statusOf(err);
  const message = engineMessage(err);
  return new RuntimeError(`${what}: ${message}`, { engineMessage: message, cause: err, ...(statusCode === undefined ? {} : { statusCode }) });
}
