// Starts `drover agent` as a real child process: one more node for a cluster started by
// startServerProcess. Several agents with different node names share this machine's Docker.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DROVER_BIN } from './server-process.js';

export interface AgentProcess {
  nodeName: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM (a clean stop) or SIGKILL (the machine is gone); the data directory is removed. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startAgentProcess(server: string, nodeName: string): Promise<AgentProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `drover-agent-${nodeName}-`));
  const child = spawn(DROVER_BIN, ['agent', '--server', server, '--node-name', nodeName, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!output.includes(`node ${nodeName} ready`)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`drover agent ${nodeName} did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    nodeName,
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
