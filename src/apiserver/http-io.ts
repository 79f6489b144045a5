// Reading request bodies and writing responses: size limits, content types (decoding is
// decode/), and content negotiation of the Accept header (JSON, YAML, and meta.k8s.io Table).
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { toYaml } from './yaml-response.js';
import { ApiError, notAcceptable, tooLarge } from './errors.js';
import { endWithin } from './response-stream.js';
import { auditResponse } from './audit/response-capture.js';

/** Kubernetes' limit on request bodies. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      req.resume();
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => failed || resolve(Buffer.concat(chunks)));
    req.on('error', (err) => failed || reject(err));
  });
}

/** The media type of a Content-Type header without parameters, lower-cased. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export type ResponseFormat = { type: 'json' | 'yaml'; table: boolean; includeObject?: string };

/**
 * Chooses the response encoding from Accept. kubectl asks for
 * `application/json;as=Table;v=v1;g=meta.k8s.io, application/json` for `get`.
 */
export function negotiate(accept: string | undefined, allowTable: boolean): ResponseFormat {
  if (!accept || accept.trim() === '') return { type: 'json', table: false };
  for (const clause of accept.split(',')) {
    const [rawType, ...params] = clause.split(';').map((part) => part.trim());
    const type = (rawType ?? '').toLowerCase();
    const args = Object.fromEntries(params.map((p) => p.split('=').map((s) => s.trim()) as [string, string]));
    if (args['as'] === 'Table') {
      if (allowTable && args['g'] === 'meta.k8s.io' && (args['v'] === 'v1' || args['v'] === 'v1beta1')) {
        return { type: 'json', table: true };
      }
      continue;
    }
    if (args['as']) continue; // other transformations (PartialObjectMetadata, discovery) are not served
    if (type === 'application/json' || type === 'application/*' || type === '*/*' || type === 'application/json-patch+json') {
      return { type: 'json', table: false };
    }
    if (type === 'application/yaml') return { type: 'yaml', table: false };
  }
  throw notAcceptable(accept);
}

export function writeJson(res: ServerResponse, code: number, value: unknown, format: ResponseFormat = { type: 'json', table: false }): void {
  auditResponse(res, { value });
  const body = format.type === 'yaml' ? toYaml(value) : JSON.stringify(value);
  res.writeHead(code, {
    'Content-Type': format.type === 'yaml' ? 'application/yaml' : 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  endWithin(res, body);
}

/** Writes a body that is already JSON: a stored object's own text, never serialized again. */
export function writeJsonText(res: ServerResponse, code: number, json: string | Uint8Array): void {
  auditResponse(res, { json });
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': typeof json === 'string' ? Buffer.byteLength(json) : json.byteLength,
  });
  endWithin(res, json);
}

export function writeError(res: ServerResponse, error: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // As kube-apiserver: a Status that says when to retry says it in the header too (client-go waits for it).
  const retryAfter = error.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0) res.setHeader('Retry-After', String(retryAfter));
  writeJson(res, error.code, error.toStatus());
}

export function writeText(res: ServerResponse, code: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  endWithin(res, text);
}

/** Answers an upgrade request (its raw socket, no ServerResponse) with a Status and closes it. */
export function refuseUpgrade(socket: Duplex, error: ApiError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(error.toStatus());
  socket.end(
    `HTTP/1.1 ${error.code} ${STATUS_CODES[error.code] ?? 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
