// Reading request bodies and writing responses: size limits, content types, JSON/YAML decoding,
// and content negotiation of the Accept header (JSON, YAML, and meta.k8s.io Table).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml, parseAllDocuments, stringify as stringifyYaml } from 'yaml';
import { ApiError, badRequest, notAcceptable, tooLarge, unsupportedMediaType } from './errors.js';
import { decodeKubernetesProtobuf, ProtobufDecodeError, PROTOBUF_CONTENT_TYPE } from './protobuf/index.js';
import { endWithin } from './response-stream.js';

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

export const OBJECT_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF_CONTENT_TYPE];

/** Decodes a JSON or YAML request body into a plain value; malformed input is 400 BadRequest. */
export function decodeBody(body: Buffer, contentType: string | undefined, accepted = OBJECT_MEDIA_TYPES): unknown {
  const type = mediaType(contentType) || 'application/json';
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  if (type === PROTOBUF_CONTENT_TYPE) return decodeProtobuf(body);
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the request body is empty');
  if (type.endsWith('json')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw badRequest(`the request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  return decodeYaml(text);
}

/** kubectl's create subcommands send Kubernetes protobuf; it decodes to the same object as JSON. */
function decodeProtobuf(body: Buffer): unknown {
  try {
    return decodeKubernetesProtobuf(body);
  } catch (error) {
    if (error instanceof ProtobufDecodeError) throw new ApiError(error.code, error.reason, error.message);
    throw error;
  }
}

function decodeYaml(text: string): unknown {
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  if (list.length !== 1) throw badRequest(`the request body must hold exactly one YAML document, found ${list.length}`);
  const doc = list[0]!;
  if (doc.errors.length > 0) throw badRequest(`the request body is not valid YAML: ${doc.errors[0]!.message}`);
  try {
    return parseYaml(text);
  } catch (error) {
    throw badRequest(`the request body is not valid YAML: ${(error as Error).message}`);
  }
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
  const body = format.type === 'yaml' ? stringifyYaml(value) : JSON.stringify(value);
  res.writeHead(code, {
    'Content-Type': format.type === 'yaml' ? 'application/yaml' : 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  endWithin(res, body);
}

/** Writes a body that is already JSON: a stored object's own text, never serialized again. */
export function writeJsonText(res: ServerResponse, code: number, json: string | Uint8Array): void {
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
  writeJson(res, error.code, error.toStatus());
}

export function writeText(res: ServerResponse, code: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  endWithin(res, text);
}
