// For this folder's tests: a real API server on an SQLite store in a temporary directory,
// restartable on the same port and data (to test re-watching), and a client bound to it as the
// admin (HTTPS, client certificate).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClusterNetwork } from '../../../src/api/cluster-network.js';
import type { SubresourceHandlers } from '../../../src/apiserver/handlers/resource-handler.js';
import { startApiServer, type ApiServer } from '../../../src/apiserver/server.js';
import { openSqliteStore, type SqliteStore } from '../../../src/storage/sqlite/sqlite-store.js';
import { testSecurity } from '../auth/security.js';
import { ApiClient, type ApiClientOptions } from '../../../src/client/api-client.js';
import type { TlsConfig } from '../../../src/client/config.js';
import { rawRequest, type RawAnswer } from '../client/raw-request.js';

export interface TestServerOptions {
  historyWindow?: number;
  subresources?: SubresourceHandlers;
  /** The address plan Services' cluster IPs come from (default: clusterNetwork()). */
  network?: ClusterNetwork;
}

export class TestServer {
  private api: ApiServer | undefined;
  private current: SqliteStore | undefined;
  private readonly clients: ApiClient[] = [];

  private constructor(
    readonly dir: string,
    private readonly options: TestServerOptions,
    /** The admin's TLS settings, for clients of this server. */
    readonly adminTls: TlsConfig,
  ) {}

  static async start(options: TestServerOptions = {}): Promise<TestServer> {
    const server = new TestServer(await mkdtemp(join(tmpdir(), 'drover-client-')), options, (await testSecurity()).admin);
    await server.open(0);
    return server;
  }

  get url(): string {
    if (!this.api) throw new Error('the test server is stopped');
    return this.api.url;
  }

  get store(): SqliteStore {
    if (!this.current) throw new Error('the test server is stopped');
    return this.current;
  }

  /** A client closed with the server. */
  client(options: ApiClientOptions = {}): ApiClient {
    const client = new ApiClient({ server: this.url, namespace: 'default', tls: this.adminTls }, { userAgent: 'drover-client-test', ...options });
    this.clients.push(client);
    return client;
  }

  /** Stops serving (open watches are cut) but keeps the data. */
  async stop(): Promise<number> {
    const port = this.api?.port ?? 0;
    await this.api?.close();
    await this.current?.close();
    this.api = undefined;
    this.current = undefined;
    return port;
  }

  /** A new server on the same port and data directory. */
  async restart(port: number): Promise<void> {
    await this.open(port);
  }

  async close(): Promise<void> {
    for (const client of this.clients) client.close();
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async open(port: number): Promise<void> {
    const storeOptions: Parameters<typeof openSqliteStore>[0] = { path: join(this.dir, 'state.db') };
    if (this.options.historyWindow !== undefined) storeOptions.historyWindow = this.options.historyWindow;
    this.current = await openSqliteStore(storeOptions);
    const { security } = await testSecurity();
    this.api = await startApiServer({ store: this.current, port, subresources: this.options.subresources ?? new Map(), tls: security.tls, authenticator: security.authenticator, signer: security.pki,
      ...(this.options.network ? { network: this.options.network } : {}),
    });
  }
}

/** One JSON request as the admin against a test server: the status, and the body parsed (or as text when it is not JSON). */
export async function callJson(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const answer = await sendRaw(base, method, path, body === undefined ? undefined : JSON.stringify(body));
  return { status: answer.status, body: answer.json ?? answer.text };
}

export type { RawAnswer };

/** One request as the admin, with the path sent exactly as given (see rawRequest). */
export async function sendRaw(base: string, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawRequest(base, (await testSecurity()).admin, method, path, body, headers);
}

export function testPod(name: string, namespace = 'default', labels: Record<string, string> = {}): { apiVersion: string; kind: string; metadata: { name: string; namespace: string; labels: Record<string, string> }; spec: Record<string, unknown> } {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] },
  };
}
