// The cluster bench:gpu runs on: a real `drover server` and a real `drover agent --runtime
// process`, each a child process as a user starts them. The agent gets the bench's own
// environment, so it finds the machine's nvidia-smi on the PATH (no --extended-resource: the
// GPUs come from discovery) and its host-process pods find the machine's python3.
// With BENCH_LOG_DIR set, everything both print goes to server.log and agent.log there as it
// comes, so a run cut short still leaves its logs.
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ApiClient, resources } from '../src/client/index.js';
import { waitFor } from '../test/support/wait-for.js';
import { startDroverProcess, type DroverProcess } from '../test/support/drover-process.js';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.js';

export interface GpuCluster {
  server: ServerProcess;
  agent: DroverProcess;
  api: ApiClient;
  nodeName: string;
  /** The agent's streaming endpoint (its /metrics). */
  agentUrl: string;
  stop(): Promise<void>;
}

const LOG_DIR = process.env['BENCH_LOG_DIR'];

/** Writes what `child` printed so far and everything it prints from now on to LOG_DIR/name. */
function tee(name: string, printed: string, child: ChildProcess): WriteStream | undefined {
  if (!LOG_DIR) return undefined;
  const file = createWriteStream(join(LOG_DIR, name));
  file.write(printed);
  // Same tick as reading `printed`: no chunk can fall between the two.
  child.stdout?.on('data', (c: Buffer) => file.write(c));
  child.stderr?.on('data', (c: Buffer) => file.write(c));
  return file;
}

function saveFailure(name: string, error: unknown): void {
  if (LOG_DIR) writeFileSync(join(LOG_DIR, name), error instanceof Error ? error.message : String(error));
}

export async function startGpuCluster(nodeName: string): Promise<GpuCluster> {
  if (LOG_DIR) mkdirSync(LOG_DIR, { recursive: true });
  const server = await startServerProcess().catch((error: unknown) => {
    saveFailure('server.log', error);
    throw error;
  });
  const serverLog = tee('server.log', server.output(), server.child);
  const dataDir = await mkdtemp(join(tmpdir(), 'drover-gpu-bench-agent-'));
  let agent: DroverProcess;
  try {
    // Generous: the agent registers only once discovery (one nvidia-smi query) has run.
    agent = await startDroverProcess(
      ['agent', '--kubeconfig', server.kubeconfig, '--node-name', nodeName, '--data-dir', dataDir, '--runtime', 'process'],
      `node ${nodeName} ready`,
      180_000,
      process.env,
    );
  } catch (error) {
    saveFailure('agent.log', error);
    await server.stop();
    throw error;
  }
  const agentLog = tee('agent.log', agent.output(), agent.child);
  const agentUrl = /streaming on (https:\/\/\S+)\)/.exec(agent.output())?.[1] ?? '';
  const api = await ApiClient.load({ kubeconfig: server.kubeconfig }, { userAgent: 'drover-bench-gpu' });
  return {
    server,
    agent,
    api,
    nodeName,
    agentUrl,
    async stop() {
      // Host processes outlive their agent by design: the pods go first, so no python3 is left.
      const pods = api.resource(resources.pods, 'default');
      await pods.deleteCollection({}).catch((e: unknown) => console.error('deleting the pods:', e));
      await waitFor('every pod gone', async () => (await pods.list()).items.length === 0, 60_000).catch((e: unknown) => console.error(String(e)));
      api.close();
      await agent.stop();
      await server.stop();
      serverLog?.end();
      agentLog?.end();
      await server.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
