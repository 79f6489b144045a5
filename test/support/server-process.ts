// Starts `drover server` as a real child process (as a user would) on a free port with a fresh
// data directory, and stops it again. Tests use the kubeconfig it writes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadClientConfig, type TlsConfig } from '../../src/client/config.js';
import type { ClusterNetwork } from '../../src/api/cluster-network.js';
import { networkFlags } from './test-network.js';

export const DROVER_BIN = resolve(import.meta.dirname, '../../../bin/drover.js');

export interface ServerProcess {
  url: string;
  dataDir: string;
  kubeconfig: string;
  /** The admin's TLS settings from the kubeconfig: the CA and a system:masters client certificate. */
  tls: TlsConfig;
  child: ChildProcess;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Removes the data directory (after stop). */
  cleanup(): Promise<void>;
}

/**
 * Runs `drover ARGS` as a child process. DROVER_NODE_ARGS passes flags to its node (e.g.
 * `--cpu-prof --cpu-prof-dir=DIR` for profiling; node refuses those in NODE_OPTIONS). Without
 * them the script runs as a user runs it, with the node flags of its #! line.
 */
export function spawnDrover(args: string[], env?: NodeJS.ProcessEnv): ChildProcess {
  const nodeArgs = (process.env['DROVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const [command, ...prefix] = nodeArgs.length > 0 ? [process.execPath, ...nodeArgs, DROVER_BIN] : [DROVER_BIN];
  return spawn(command!, [...prefix, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
}

/** `network`: the cluster's address plan (reserveTestNetwork()); default: Drover's defaults. */
export async function startServerProcess(
  options: { dataDir?: string; port?: number; extraArgs?: string[]; network?: ClusterNetwork } = {},
): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'drover-e2e-')));
  const network = options.network ? networkFlags(options.network) : [];
  const child = spawnDrover(['server', '--data-dir', dataDir, '--port', String(options.port ?? 0), ...network, ...(options.extraArgs ?? [])]);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 20 s:\n${output}`)), 20_000);
    const check = () => {
      const match = /listening on (https:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const kubeconfig = join(dataDir, 'kubeconfig');
  return {
    url,
    dataDir,
    kubeconfig,
    tls: (await loadClientConfig({ kubeconfig })).tls ?? {},
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async cleanup() {
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server process's resident set size in bytes, from /proc (Linux). */
export function serverRss(server: ServerProcess): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}
