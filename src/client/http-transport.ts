// HTTP to the API server over node:http with a keep-alive pool. Measured against fetch (undici)
// for small JSON writes, node:http with a warm pool was the faster
// of the two, and it gives direct control of sockets for long-lived watch streams.
//
// `server` may list several API servers, comma-separated (`drover agent --server URL1,URL2`),
// as k3s agents balance over every server: requests go to one until it cannot be reached, then
// to the next. A request that never reached a server (connection refused) is sent to the next
// at once; one whose fate is unknown (cut mid-way, timed out) fails as before, so a write is
// never sent twice, and the caller's retry goes to the next server. Watches resume elsewhere
// from their last resourceVersion (the informer does that), which on a shared etcd is the same
// revision everywhere: nothing missed, nothing repeated.
import {
  Agent as HttpAgent,
  type AgentOptions,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestOptions as NodeRequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ClientConfig, TlsConfig } from './config.js';
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

/** What a server whose store is out of reach answers (and /readyz says). */
const UNAVAILABLE = 503;

/**
 * Requests on Leases: leader election, the farm's shards, node heartbeats. Kept on sockets of
 * their own, as kube-apiserver's priority and fairness gives leader election a level of its own:
 * queued in one pool behind a controller's burst of creates (hundreds at once), renewals missed
 * their deadline and the controllers stopped (issue 15).
 */
const LEASES_PATH = '/apis/coordination.k8s.io/';
const LEASE_SOCKETS = 16;

export class HttpTransport {
  private agent: HttpAgent;
  private leaseAgent: HttpAgent;
  private streamAgent: HttpAgent;
  /** Pools replaced by setTls(): their connections finish what they carry, and close with this transport. */
  private readonly retired: HttpAgent[] = [];
  /** The settings of the three pools, which setTls() opens again with new credentials. */
  private readonly pools: { requests: AgentOptions; leases: AgentOptions; streams: AgentOptions };
  private readonly send: RequestFn;
  private readonly bases: URL[];
  /** The server requests go to now. */
  private current = 0;
  private readonly headers: OutgoingHttpHeaders;
  private readonly timeoutMs: number;

  constructor(config: ClientConfig, options: TransportOptions) {
    this.bases = serverUrls(config.server);
    this.timeoutMs = options.timeoutMs ?? 60_000;
    const secure = this.bases[0]!.protocol === 'https:';
    const requests = { keepAlive: true, maxSockets: options.maxSockets ?? 256, maxFreeSockets: options.maxSockets ?? 256, scheduling: 'lifo' as const };
    this.pools = {
      requests,
      leases: { ...requests, maxSockets: LEASE_SOCKETS, maxFreeSockets: LEASE_SOCKETS },
      // One socket per watch for its whole life; kept apart so watches never starve requests.
      streams: { keepAlive: false },
    };
    [this.agent, this.leaseAgent, this.streamAgent] = this.openPools(secure ? tlsConnectionOptions(config.tls) : undefined);
    this.send = (secure ? httpsRequest : httpRequest) as RequestFn;
    this.headers = { 'User-Agent': options.userAgent, Accept: 'application/json', ...authHeaders(config) };
  }

  /** One request; resolves with any HTTP status (callers map non-2xx to errors). */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<TransportResponse> {
    const idempotent = method === 'GET' || method === 'HEAD';
    return this.failingOver(
      (base) => this.requestOnce(base, method, path, options),
      idempotent,
      (res) => res.status === UNAVAILABLE,
    );
  }

  /** The server requests go to now (the first of the list until one fails). */
  get server(): string {
    return this.bases[this.current]!.href.replace(/\/+$/, '');
  }

  /**
   * Runs `call` against the current server. A server that refuses connections, or answers 503
   * (its etcd out of reach), is left for the next one: the call goes there at once when that
   * cannot repeat it (never sent, or a read); otherwise it fails and the next call goes there.
   */
  private async failingOver<R>(call: (base: URL) => Promise<R>, idempotent: boolean, unavailable?: (result: R) => boolean): Promise<R> {
    for (let tried = 1; ; tried++) {
      const index = this.current;
      const moveOn = () => {
        if (this.current === index) this.current = (index + 1) % this.bases.length;
      };
      let result: R;
      try {
        result = await call(this.bases[index]!);
      } catch (error) {
        // Any other answer (410, 403) proves this server is there; aborts are the caller's.
        if (isAbort(error) || (error instanceof ApiStatusError && error.code !== UNAVAILABLE)) throw error;
        moveOn();
        const again = error instanceof ApiStatusError ? idempotent : neverSent(error);
        if (!again || tried >= this.bases.length) throw error;
        continue;
      }
      if (this.bases.length > 1 && unavailable?.(result)) {
        moveOn();
        if (idempotent && tried < this.bases.length) continue;
      }
      return result;
    }
  }

  private async requestOnce(base: URL, method: string, path: string, options: RequestOptions): Promise<TransportResponse> {
    try {
      return await this.attempt(base, method, path, options);
    } catch (error) {
      // The server may close an idle keep-alive socket just as we reuse it; then the request
      // never reached it, and Node's documented remedy is to send it again on a new socket.
      if ((error as { reusedSocket?: boolean }).reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        return this.attempt(base, method, path, options);
      }
      throw error;
    }
  }

  /** Opens a streaming GET (a watch); rejects with ApiStatusError unless the status is 2xx. */
  openStream(path: string, signal?: AbortSignal): Promise<IncomingMessage> {
    return this.failingOver((base) => this.openStreamOnce(base, path, signal), true);
  }

  private openStreamOnce(base: URL, path: string, signal?: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = this.send(this.requestOptions(base, 'GET', path, this.streamAgent, {}), (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve(res);
        readAll(res).then((body) => reject(ApiStatusError.fromResponse(status, body, 'GET', path)), reject);
      });
      req.on('error', reject);
      onAbort(signal, req);
      req.end();
    });
  }

  /**
   * New TLS settings (a renewed client certificate) for every connection opened from now on.
   * Open connections, watches among them, keep the certificate they were opened with (still
   * valid: it is renewed well before it expires); idle pooled ones are closed now.
   */
  setTls(tls: NonNullable<ClientConfig['tls']>): void {
    if (this.bases[0]!.protocol !== 'https:') return;
    for (const old of [this.agent, this.leaseAgent, this.streamAgent]) {
      for (const sockets of Object.values(old.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
      this.retired.push(old);
    }
    [this.agent, this.leaseAgent, this.streamAgent] = this.openPools(tlsConnectionOptions(tls));
  }

  /** The requests', Leases' and streams' pools: HTTPS with `tls`, plain HTTP without. */
  private openPools(tls: ReturnType<typeof tlsConnectionOptions> | undefined): [HttpAgent, HttpAgent, HttpAgent] {
    const { requests, leases, streams } = this.pools;
    return [requests, leases, streams].map((pool) => (tls ? new HttpsAgent({ ...pool, ...tls }) : new HttpAgent(pool))) as [HttpAgent, HttpAgent, HttpAgent];
  }

  close(): void {
    this.agent.destroy();
    this.leaseAgent.destroy();
    this.streamAgent.destroy();
    for (const old of this.retired) old.destroy();
  }

  private attempt(base: URL, method: string, path: string, options: RequestOptions): Promise<TransportResponse> {
    return new Promise((resolve, reject) => {
      const agent = path.startsWith(LEASES_PATH) ? this.leaseAgent : this.agent;
      const req = this.send(this.requestOptions(base, method, path, agent, options), (res) => {
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

  private requestOptions(base: URL, method: string, path: string, agent: HttpAgent, options: RequestOptions): NodeRequestOptions {
    let headers = this.headers;
    if (options.body !== undefined) {
      headers = { ...headers, 'Content-Type': options.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(options.body) };
    }
    const basePath = base.pathname.replace(/\/+$/, '');
    return { protocol: base.protocol, hostname: base.hostname, port: base.port, path: basePath + path, method, agent, headers };
  }
}

/** The servers of a `server` setting: one URL, or several separated by commas. */
export function serverUrls(server: string): URL[] {
  const urls = server
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '')
    .map((url) => new URL(url));
  if (urls.length === 0) throw new Error(`no API server URL in ${JSON.stringify(server)}`);
  return urls;
}

/** The request cannot have reached the server: it is safe to send it to another. */
function neverSent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL';
}

function isAbort(error: unknown): boolean {
  return (error as Error).name === 'AbortError';
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

/** The node:https / node:tls options of a client's TLS settings: the CA to verify with, its certificate. */
export function tlsConnectionOptions(tls: TlsConfig = {}): Record<string, unknown> {
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
