// Starts `drover agent` as a real child process: one more node for a cluster started by
// startServerProcess. It joins as a node does, with the server's join token (its own certificate,
// identity system:node:<name>, kept in its data dir). Several agents with different node names
// share this machine's Docker.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDroverProcess, type DroverProcess } from './drover-process.js';
import type { ServerProcess } from './server-process.js';
import type { ClusterNetwork } from '../../src/api/cluster-network.js';
import { networkFlags } from './test-network.js';
import { waitFor } from './wait-for.js';

export interface AgentProcess extends DroverProcess {
  nodeName: string;
  /** Its data dir, where pki/ holds its certificate. */
  dataDir: string;
  /** SIGTERM (a clean stop) or SIGKILL (the machine is gone); the data directory is removed. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** SIGKILL, keeping the data directory for a restart (`options.dataDir`). */
  kill(): Promise<void>;
}

/** The join token `drover server` wrote to its data dir. */
export async function joinToken(server: ServerProcess): Promise<string> {
  return (await readFile(join(server.dataDir, 'token'), 'utf8')).trim();
}

/**
 * An agent of `server`'s cluster. `servers`: the URLs it balances over (default: the server's).
 * `extraArgs` go after the usual ones (`--runtime process` for an agent without Docker, say).
 * `network`: the cluster's address plan (reserveTestNetwork(), the server's too); without one
 * the agent runs with --no-service-proxy, so tests on the default ranges never program the
 * service rules this machine's other test clusters share. `dataDir`: a killed agent's, to start it again.
 */
export async function startAgentProcess(
  server: ServerProcess,
  nodeName: string,
  extraArgs: string[] = [],
  servers = server.url,
  options: { network?: ClusterNetwork; dataDir?: string } = {},
): Promise<AgentProcess> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), `drover-agent-${nodeName}-`)));
  const network = options.network ? networkFlags(options.network) : ['--no-service-proxy'];
  const args = ['agent', '--server', servers, '--token', await joinToken(server), '--node-name', nodeName, '--data-dir', dataDir, ...network, ...extraArgs];
  const agent = await startDroverProcess(args, `node ${nodeName} ready`);
  return {
    ...agent,
    nodeName,
    dataDir,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      await agent.stop(signal);
      await endProcessesUnder(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    },
    kill: () => agent.stop('SIGKILL'),
  };
}

/**
 * Process-runtime pods outlive their agent (their supervisors keep them for the next agent to
 * adopt), so a test's agent that goes for good takes them with it: every process whose command
 * line names its data dir is asked to stop (a supervisor passes SIGTERM on to its pod), then killed.
 */
async function endProcessesUnder(dataDir: string): Promise<void> {
  const pattern = `${dataDir}/`;
  const running = () => spawnSync('pgrep', ['-f', pattern]).status === 0;
  if (!running()) return;
  spawnSync('pkill', ['-TERM', '-f', pattern]);
  await waitFor(`the processes under ${dataDir} to stop`, () => !running(), 5_000).catch(() => spawnSync('pkill', ['-KILL', '-f', pattern]));
}
