// The REST client every component uses: one keep-alive connection pool per process (or per
// component), JSON in and out, Status bodies turned into ApiStatusError.
import type { KubeObject } from '../api/meta.js';
import { loadClientConfig, type ClientConfig, type LoadClientConfigOptions } from './config.js';
import { ApiStatusError } from './errors.js';
import { HttpTransport } from './http-transport.js';
import type { ResourceRef } from './resources.js';
import { ResourceClient } from './resource-client.js';
import { startWatch, type WatchEvent, type WatchHandle } from './watch-stream.js';

export interface ApiClientOptions {
  /** Names the component in the User-Agent (`drover-scheduler/0.1.0`), and so in managedFields. */
  userAgent?: string;
  /**
   * The field manager of this component's writes. Without it the server derives the manager
   * from the User-Agent's name, which is the same thing unless set otherwise; apply patches
   * always send one.
   */
  fieldManager?: string;
  /** Keep-alive sockets to the server for ordinary requests. Default 256. */
  maxSockets?: number;
  /** Per-request timeout (watches excepted). Default 60 s. */
  timeoutMs?: number;
}

export interface RawRequestOptions {
  body?: unknown;
  /** Sent as is when a string; JSON-encoded otherwise. */
  contentType?: string;
  query?: URLSearchParams;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const VERSION = '0.1.0';

export class ApiClient {
  readonly config: ClientConfig;
  /** The manager named in apply patches (and in every write when set explicitly). */
  readonly fieldManager: string;
  /** Set only when the caller chose a manager other than the User-Agent name. */
  readonly explicitFieldManager: string | undefined;
  private readonly transport: HttpTransport;

  constructor(config: ClientConfig | string, options: ApiClientOptions = {}) {
    this.config = typeof config === 'string' ? { server: config.replace(/\/+$/, ''), namespace: 'default' } : config;
    const agentName = options.userAgent ?? 'drover-client';
    this.fieldManager = options.fieldManager ?? agentName;
    this.explicitFieldManager = options.fieldManager !== undefined && options.fieldManager !== agentName ? options.fieldManager : undefined;
    const transportOptions: ConstructorParameters<typeof HttpTransport>[1] = { userAgent: `${agentName}/${VERSION}` };
    if (options.maxSockets !== undefined) transportOptions.maxSockets = options.maxSockets;
    if (options.timeoutMs !== undefined) transportOptions.timeoutMs = options.timeoutMs;
    this.transport = new HttpTransport(this.config, transportOptions);
  }

  /** Finds the cluster as kubectl does (see loadClientConfig) and connects to it. */
  static async load(configOptions: LoadClientConfigOptions = {}, options: ApiClientOptions = {}): Promise<ApiClient> {
    return new ApiClient(await loadClientConfig(configOptions), options);
  }

  /** The current context's namespace, for commands that behave like kubectl. */
  get defaultNamespace(): string {
    return this.config.namespace;
  }

  /**
   * Typed access to one resource. Without `namespace`, lists and watches span all namespaces,
   * and object calls take the namespace from the object (or require inNamespace()).
   */
  resource<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace?: string): ResourceClient<T> {
    return new ResourceClient<T>(this, ref, namespace);
  }

  /** Any JSON request; non-2xx answers throw ApiStatusError. */
  async request<R>(method: string, path: string, options: RawRequestOptions = {}): Promise<R> {
    const query = options.query?.toString();
    const fullPath = query ? `${path}?${query}` : path;
    const body = options.body === undefined || typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const sendOptions: Parameters<HttpTransport['request']>[2] = {};
    if (body !== undefined) sendOptions.body = body as string;
    if (options.contentType !== undefined) sendOptions.contentType = options.contentType;
    if (options.timeoutMs !== undefined) sendOptions.timeoutMs = options.timeoutMs;
    if (options.signal !== undefined) sendOptions.signal = options.signal;
    const res = await this.transport.request(method, fullPath, sendOptions);
    if (res.status < 200 || res.status >= 300) throw ApiStatusError.fromResponse(res.status, res.body, method, fullPath);
    return (res.body === '' ? undefined : JSON.parse(res.body)) as R;
  }

  /** A watch on a full path with its query (ResourceClient.watch builds these). */
  watchPath<T extends KubeObject>(pathWithQuery: string, onEvent: (event: WatchEvent<T>) => void): WatchHandle {
    return startWatch<T>(this.transport, pathWithQuery, onEvent);
  }

  /** New client TLS settings (a renewed certificate) for the connections opened from now on. */
  setTls(tls: NonNullable<ClientConfig['tls']>): void {
    this.config.tls = tls;
    this.transport.setTls(tls);
  }

  /** Closes pooled sockets; open watches end with them. */
  close(): void {
    this.transport.close();
  }
}
