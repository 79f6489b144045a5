// Starts `drover up` (a whole cluster: API server, scheduler, controllers and a node) as a real
// child process, as the README tells a new user to.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DROVER_BIN } from './server-process.js';
import type { ClusterNetwork } from '../../src/api/cluster-network.js';
import { networkFlags } from './test-network.js';
import { StopWaiting, waitFor } from './wait-for.js';
import { kubectl } from './kubectl.js';

export interface UpProcess {
  dataDir: string;
  kubeconfig: string;
  nodeName: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `network`: the cluster's address plan (reserveTestNetwork()); without one the node runs with
 * --no-service-proxy, leaving the machine's shared service rules alone. `extraArgs`: more flags
 * for `drover up` (a fast HPA sync period, say).
 */
export async function startUpProcess(nodeName: string, options: { network?: ClusterNetwork; extraArgs?: string[] } = {}): Promise<UpProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-up-'));
  const network = options.network ? networkFlags(options.network) : ['--no-service-proxy'];
  const child = spawn(DROVER_BIN, ['up', '--data-dir', dataDir, '--port', '0', '--node-name', nodeName, ...network, ...(options.extraArgs ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(
    `drover up to print "node ${nodeName} ready"`,
    () => {
      if (output.includes(`node ${nodeName} ready`)) return true;
      if (child.exitCode !== null) throw new StopWaiting(`drover up exited (${child.exitCode})`);
      return undefined;
    },
    60_000,
  ).catch((error: Error) => {
    throw new Error(`drover up did not become ready (${error.message}):\n${output}`);
  });
  return {
    dataDir,
    kubeconfig: join(dataDir, 'kubeconfig'),
    nodeName,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until kubectl shows the cluster's node Ready, as a user checks before applying workloads. */
export async function waitForNodeReady(up: Pick<UpProcess, 'kubeconfig' | 'nodeName'>, timeoutMs = 30_000): Promise<void> {
  const ready = async () =>
    (await kubectl(up.kubeconfig, ['get', 'node', up.nodeName, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])) === 'True';
  await waitFor('the node Ready', ready, timeoutMs);
}
