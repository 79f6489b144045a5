// HTTP to the API server over node:http with a keep-alive pool. Measured against fetch (undici)
// for small JSON writes (see create-benchmark.ts), node:http with a warm pool was the faster
// of the two, and it gives direct control of sockets for long-lived watch streams.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions as NodeRequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ClientConfig } from './config.js';
import { ApiStatusError } from './errors.js';

export interface TransportOptions {
  userAgent: string;
  /** Sockets kept per server for ordinary requests. Watches use a separate pool. */
  maxSockets?: number;
  /** Per-request timeout; 0 disables it. Default 60 s. */
  timeoutMs?: number;
}

export interface RequestOptions {
  body?: string | Buffer;
  contentType?: string;
  /** Overrides the transport's default timeout for this request. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  body: string;
}

type RequestFn = typeof httpRequest;

export class HttpTransport {
  private readonly agent: HttpAgent;
  private readonly streamAgent: HttpAgent;
  private readonly send: RequestFn;
  private readonly base: URL;
  private readonly basePath: string;
  private readonly headers: OutgoingHttpHeaders;
  private readonly timeoutMs: number;

  constructor(config: ClientConfig, options: TransportOptions) {
    this.base = new URL(config.server);
    this.basePath = this.base.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 60_000;
    const secure = this.base.protocol === 'https:';
    const pool = { keepAlive: true, maxSockets: options.maxSockets ?? 256, maxFreeSockets: options.maxSockets ?? 256, scheduling: 'lifo' as const };
    const tls = secure ? tlsOptions(config) : {};
    this.agent = secure ? new HttpsAgent({ ...pool, ...tls }) : new HttpAgent(pool);
    // One socket per watch for its whole life; kept apart so watches never starve requests.
    this.streamAgent = secure ? new HttpsAgent({ keepAlive: false, ...tls }) : new HttpAgent({ keepAlive: false });
    this.send = (secure ? httpsRequest : httpRequest) as RequestFn;
    this.headers = { 'User-Agent': options.userAgent, Accept: 'application/json', ...authHeaders(config) };
  }

  /** One request; resolves with any HTTP status (callers map non-2xx to errors). */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<TransportResponse> {
    try {
      return await this.attempt(method, path, options);
    } catch (error) {
      // The server may close an idle keep-alive socket just as we reuse it; then the request
      // never reached it, and Node's documented remedy is to send it again on a new socket.
      if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        return this.attempt(method, path, options);
      }
      throw error;
    }
  }

  /** Opens a streaming GET (a watch); rejects with ApiStatusError unless the status is 2xx. */
  openStream(path: string, signal?: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = this.send(this.requestOptions('GET', path, this.streamAgent, {}), (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve(res);
        readAll(res).then((body) => reject(ApiStatusError.fromResponse(status, body, 'GET', path)), reject);
      });
      req.on('error', reject);
      onAbort(signal, req);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
    this.streamAgent.destroy();
  }

  private attempt(method: string, path: string, options: RequestOptions): Promise<TransportResponse> {
    return new Promise((resolve, reject) => {
      const req = this.send(this.requestOptions(method, path, this.agent, options), (res) => {
        readAll(res).then((body) => resolve({ status: res.statusCode ?? 0, body }), reject);
      });
      req.on('error', (error) => {
        (error as { reusedSocket?: boolean }).reusedSocket = req.reusedSocket;
        reject(error);
      });
      const timeout = options.timeoutMs ?? this.timeoutMs;
      if (timeout > 0) req.setTimeout(timeout, () => req.destroy(new Error(`${method} ${path}: no response within ${timeout} ms`)));
      onAbort(options.signal, req);
      req.end(options.body);
    });
  }

  private requestOptions(method: string, path: string, agent: HttpAgent, options: RequestOptions): NodeRequestOptions {
    let headers = this.headers;
    if (options.body !== undefined) {
      headers = { ...headers, 'Content-Type': options.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(options.body) };
    }
    return { protocol: this.base.protocol, hostname: this.base.hostname, port: this.base.port, path: this.basePath + path, method, agent, headers };
  }
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    res.on('end', () => resolve(body));
    res.on('error', reject);
    // A connection cut mid-body ends without 'end'; a rejected promise is settled only once.
    res.on('close', () => res.complete || reject(new Error('the connection closed before the response was complete')));
  });
}

/** Destroys `req` when `signal` aborts, without leaving listeners on a long-lived signal. */
function onAbort(signal: AbortSignal | undefined, req: ClientRequest): void {
  if (!signal) return;
  if (signal.aborted) {
    req.destroy(abortError());
    return;
  }
  const abort = () => req.destroy(abortError());
  signal.addEventListener('abort', abort, { once: true });
  req.once('close', () => signal.removeEventListener('abort', abort));
}

function authHeaders(config: ClientConfig): OutgoingHttpHeaders {
  if (config.token) return { Authorization: `Bearer ${config.token}` };
  if (config.username !== undefined) {
    return { Authorization: `Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}` };
  }
  return {};
}

function tlsOptions(config: ClientConfig): Record<string, unknown> {
  const tls = config.tls ?? {};
  const options: Record<string, unknown> = { rejectUnauthorized: !tls.insecureSkipVerify };
  if (tls.ca) options['ca'] = tls.ca;
  if (tls.cert) options['cert'] = tls.cert;
  if (tls.key) options['key'] = tls.key;
  if (tls.serverName) options['servername'] = tls.serverName;
  return options;
}

export function abortError(): Error {
  const error = new Error('the operation was aborted');
  error.name = 'AbortError';
  return error;
}
