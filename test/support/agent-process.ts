// Starts `drover agent` as a real child process: one more node for a cluster started by
// startServerProcess. Several agents with different node names share this machine's Docker.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDroverProcess, type DroverProcess } from './drover-process.js';
import type { ServerProcess } from './server-process.js';

export interface AgentProcess extends DroverProcess {
  nodeName: string;
  /** SIGTERM (a clean stop) or SIGKILL (the machine is gone); the data directory is removed. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * An agent of `server`'s cluster. `servers`: the URLs it balances over (default: the server's).
 * `extraArgs` go after the usual ones (`--runtime process` for an agent without Docker, say).
 */
export async function startAgentProcess(server: ServerProcess, nodeName: string, extraArgs: string[] = [], servers = server.url): Promise<AgentProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `drover-agent-${nodeName}-`));
  const agent = await startDroverProcess(['agent', '--server', servers, '--kubeconfig', server.kubeconfig, '--node-name', nodeName, '--data-dir', dataDir, ...extraArgs], `node ${nodeName} ready`);
  return {
    ...agent,
    nodeName,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      await agent.stop(signal);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
