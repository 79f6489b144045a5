// Starts `drover agent` as a real child process: one more node for a cluster started by
// startServerProcess. Several agents with different node names share this machine's Docker.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDroverProcess, type DroverProcess } from './drover-process.js';

export interface AgentProcess extends DroverProcess {
  nodeName: string;
  /** SIGTERM (a clean stop) or SIGKILL (the machine is gone); the data directory is removed. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `extraArgs` go after the usual ones (`--runtime process` for an agent without Docker, say). */
export async function startAgentProcess(server: string, nodeName: string, extraArgs: string[] = []): Promise<AgentProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `drover-agent-${nodeName}-`));
  const agent = await startDroverProcess(['agent', '--server', server, '--node-name', nodeName, '--data-dir', dataDir, ...extraArgs], `node ${nodeName} ready`);
  return {
    ...agent,
    nodeName,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      await agent.stop(signal);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
