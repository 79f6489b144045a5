// The one in-process API server of the tests: a real API server on an SQLite store in a
// temporary directory, serving HTTPS with the test PKI and authenticating as `drover server`
// does; restartable on the same port and data (to test re-watching); clients bound to it as the
// admin (client certificate). Tests that need more of the server (pod proxy upgrades, an
// authenticator of their own, an event TTL) pass startApiServer's options through; tests of
// servers sharing a store (etcd) open theirs with `openStore`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../../src/apiserver/server.js';
import { writeKubeconfig } from '../../../src/cluster/kubeconfig.js';
import { openSqliteStore, type SqliteStore } from '../../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../../src/storage/store.js';
import { testSecurity, testServing } from '../auth/security.js';
import { ApiClient, type ApiClientOptions } from '../../../src/client/api-client.js';
import type { TlsConfig } from '../../../src/client/config.js';
import { rawRequest, type RawAnswer } from '../client/raw-request.js';

/** startApiServer's options other than the store and port, which the test server owns. */
export type TestServerOptions<S extends Store = SqliteStore> = Partial<Omit<ApiServerOptions, 'store' | 'port'>> & {
  /** The store's watch history, in revisions (openSqliteStore's historyWindow). */
  historyWindow?: number;
  /**
   * Opens the server's store on each start, instead of SQLite in the server's directory (servers
   * sharing one etcd, say). The server closes it when it stops.
   */
  openStore?: (dir: string) => Promise<S>;
  /**
   * Service-account tokens as `drover server` serves them (token requests, their authentication,
   * the kube-api-access projection into pods of namespaces whose account exists). Off by
   * default: most tests' pods are the API's, not a container's.
   */
  serviceAccountTokens?: boolean;
};

export class TestServer<S extends Store = SqliteStore> {
  private api: ApiServer | undefined;
  private current: S | undefined;
  private readonly clients: ApiClient[] = [];

  private constructor(
    readonly dir: string,
    private readonly options: TestServerOptions<S>,
    /** The admin's TLS settings, for clients of this server. */
    readonly adminTls: TlsConfig,
  ) {}

  static async start<S extends Store = SqliteStore>(options: TestServerOptions<S> = {}): Promise<TestServer<S>> {
    const server = new TestServer<S>(await mkdtemp(join(tmpdir(), 'drover-test-server-')), options, (await testSecurity()).admin);
    try {
      await server.open(0);
    } catch (error) {
      await server.close();
      throw error;
    }
    return server;
  }

  get url(): string {
    if (!this.api) throw new Error('the test server is stopped');
    return this.api.url;
  }

  get store(): S {
    if (!this.current) throw new Error('the test server is stopped');
    return this.current;
  }

  /** The running server itself (its registry, its metrics). */
  get apiServer(): ApiServer {
    if (!this.api) throw new Error('the test server is stopped');
    return this.api;
  }

  /** Writes a kubeconfig for the admin of this server into its directory; returns its path. */
  async writeAdminKubeconfig(): Promise<string> {
    const path = join(this.dir, 'kubeconfig');
    await writeKubeconfig(path, this.url, this.adminTls);
    return path;
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
    const { historyWindow, serviceAccountTokens, openStore, ...apiOptions } = this.options;
    const sqlite = () => openSqliteStore({ path: join(this.dir, 'state.db'), ...(historyWindow !== undefined ? { historyWindow } : {}) });
    // Without openStore, S is SqliteStore (the default type argument).
    this.current = openStore ? await openStore(this.dir) : ((await sqlite()) as Store as S);
    const { serviceAccounts, ...serving } = await testServing();
    this.api = await startApiServer({ ...serving, ...(serviceAccountTokens ? { serviceAccounts } : {}), ...apiOptions, store: this.current, port });
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

export function testPod(
  name: string,
  namespace = 'default',
  labels: Record<string, string> = {},
): { apiVersion: string; kind: string; metadata: { name: string; namespace: string; labels: Record<string, string> }; spec: Record<string, unknown> } {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] },
  };
}
