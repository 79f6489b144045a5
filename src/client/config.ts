// Finding the cluster the way kubectl does: --kubeconfig, else $KUBECONFIG, else
// ~/.kube/config; the current context names a cluster (server URL, TLS) and a user (token).
// Only plain HTTP and bearer tokens are used today; TLS settings are read so that an https
// server needs no new configuration shape.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface TlsConfig {
  /** PEM of the CA(s) to trust. */
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  insecureSkipVerify?: boolean;
  serverName?: string;
}

export interface ClientConfig {
  /** Base URL of the API server, e.g. http://127.0.0.1:6443. */
  server: string;
  /** Namespace of the current context ('default' when it names none). */
  namespace: string;
  token?: string;
  username?: string;
  password?: string;
  tls?: TlsConfig;
  /** The kubeconfig file the settings came from, if any. */
  kubeconfigPath?: string;
  contextName?: string;
}

export interface LoadClientConfigOptions {
  /** Explicit kubeconfig path (kubectl's --kubeconfig); a missing file is an error. */
  kubeconfig?: string;
  /** Overrides the cluster's server (kubectl's --server); enough on its own without a kubeconfig. */
  server?: string;
  context?: string;
  namespace?: string;
  token?: string;
  /** For tests: the environment and home directory to look in. */
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
}

interface Named {
  name?: string;
  [key: string]: unknown;
}

type Section = Record<string, unknown>;

export async function loadClientConfig(options: LoadClientConfigOptions = {}): Promise<ClientConfig> {
  const path = kubeconfigPath(options);
  if (path === undefined) {
    if (options.server) return withOverrides({ server: options.server, namespace: 'default' }, options);
    throw new Error('no cluster configured: pass a server URL, or a kubeconfig (--kubeconfig, KUBECONFIG or ~/.kube/config)');
  }
  const text = await readFile(path, 'utf8');
  const document = (parseYaml(text) ?? {}) as Section;
  return withOverrides(await fromKubeconfig(document, path, options), options);
}

/** The kubeconfig file to read, or undefined when there is none (only an explicit path must exist). */
export function kubeconfigPath(options: Pick<LoadClientConfigOptions, 'kubeconfig' | 'env' | 'homeDir'>): string | undefined {
  if (options.kubeconfig) {
    if (!existsSync(options.kubeconfig)) throw new Error(`kubeconfig ${options.kubeconfig} does not exist`);
    return options.kubeconfig;
  }
  const env = options.env ?? process.env;
  // kubectl merges every file of the list; we read the first one present, which is the one
  // whose current-context wins in kubectl's merge.
  const fromEnv = (env['KUBECONFIG'] ?? '').split(delimiter).filter((p) => p !== '');
  const present = fromEnv.find((p) => existsSync(p));
  if (present) return present;
  if (fromEnv.length > 0) return undefined;
  const home = join(options.homeDir ?? homedir(), '.kube', 'config');
  return existsSync(home) ? home : undefined;
}

async function fromKubeconfig(doc: Section, path: string, options: LoadClientConfigOptions): Promise<ClientConfig> {
  const contextName = options.context ?? str(doc['current-context']);
  if (!contextName && !options.server) throw new Error(`kubeconfig ${path} has no current-context`);
  const context = contextName ? pick(doc['contexts'], contextName, 'context') : {};
  if (contextName && context === undefined) throw new Error(`kubeconfig ${path}: context "${contextName}" not found`);
  const cluster = pick(doc['clusters'], str(context?.['cluster']), 'cluster') ?? {};
  const user = pick(doc['users'], str(context?.['user']), 'user') ?? {};
  const server = options.server ?? str(cluster['server']);
  if (!server) throw new Error(`kubeconfig ${path}: context "${contextName ?? ''}" names no cluster server`);
  const base = dirname(resolve(path));
  const config: ClientConfig = { server, namespace: str(context?.['namespace']) || 'default', kubeconfigPath: path };
  if (contextName) config.contextName = contextName;
  const token = str(user['token']) ?? (await readOptional(base, str(user['tokenFile'])))?.toString('utf8').trim();
  if (token) config.token = token;
  const username = str(user['username']);
  if (username) Object.assign(config, { username, password: str(user['password']) ?? '' });
  const tls = await tlsSettings(cluster, user, base);
  if (tls) config.tls = tls;
  return config;
}

async function tlsSettings(cluster: Section, user: Section, base: string): Promise<TlsConfig | undefined> {
  const tls: TlsConfig = {};
  const ca = await dataOrFile(cluster, 'certificate-authority', base);
  const cert = await dataOrFile(user, 'client-certificate', base);
  const key = await dataOrFile(user, 'client-key', base);
  if (ca) tls.ca = ca;
  if (cert) tls.cert = cert;
  if (key) tls.key = key;
  if (cluster['insecure-skip-tls-verify'] === true) tls.insecureSkipVerify = true;
  const serverName = str(cluster['tls-server-name']);
  if (serverName) tls.serverName = serverName;
  return Object.keys(tls).length > 0 ? tls : undefined;
}

/** kubeconfig's `<field>-data` (base64) beats `<field>` (a path, relative to the kubeconfig). */
async function dataOrFile(section: Section, field: string, base: string): Promise<Buffer | undefined> {
  const data = str(section[`${field}-data`]);
  if (data) return Buffer.from(data, 'base64');
  return readOptional(base, str(section[field]));
}

async function readOptional(base: string, file: string | undefined): Promise<Buffer | undefined> {
  if (!file) return undefined;
  return readFile(isAbsolute(file) ? file : join(base, file));
}

function withOverrides(config: ClientConfig, options: LoadClientConfigOptions): ClientConfig {
  if (options.namespace) config.namespace = options.namespace;
  if (options.token) config.token = options.token;
  config.server = config.server.replace(/\/+$/, '');
  return config;
}

/** The inner section of a named entry (`contexts[].context`), by name. */
function pick(list: unknown, name: string | undefined, field: string): Section | undefined {
  if (name === undefined || !Array.isArray(list)) return undefined;
  const entry = (list as Named[]).find((item) => item && item.name === name);
  const inner = entry?.[field];
  return typeof inner === 'object' && inner !== null ? (inner as Section) : entry ? {} : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
