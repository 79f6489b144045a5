// One request with the path sent exactly as given (fetch would resolve dot segments and
// re-encode before the server saw them), over HTTPS with the caller's TLS settings. For tests
// and tools that must see the server's answer byte for byte. A body defaults to JSON.
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { TlsConfig } from '../../../src/client/config.js';
import { tlsConnectionOptions } from '../../../src/client/http-transport.js';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: any;
}

export function rawRequest(
  base: string,
  tls: TlsConfig,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    // A length, not chunking: Node does not chunk DELETE bodies, which would then arrive empty.
    const allHeaders = body === undefined ? headers : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...headers };
    const options = {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port,
      method,
      path,
      headers: allHeaders,
      agent: false as const,
      ...tlsConnectionOptions(tls),
    };
    const req = httpsRequest(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * fetch() over HTTPS with the caller's TLS settings (Node 20's fetch takes none): the answer is
 * a standard Response whose body streams as it arrives, for tests that read watches or check
 * headers. The request body, when given, is sent as is.
 */
export function fetchWithTls(
  url: string,
  tls: TlsConfig,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; signal?: AbortSignal } = {},
): Promise<Response> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        method: init.method ?? 'GET',
        path: `${target.pathname}${target.search}`,
        headers: init.body === undefined ? (init.headers ?? {}) : { 'Content-Length': String(Buffer.byteLength(init.body)), ...init.headers },
        agent: false,
        ...tlsConnectionOptions(tls),
        ...(init.signal ? { signal: init.signal } : {}),
      },
      (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
        }
        const status = res.statusCode ?? 0;
        const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, headers }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
