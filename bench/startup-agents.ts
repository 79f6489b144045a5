// The agents bench:startup runs its pods on: `drover up`'s own node, and for the run on two
// agents a second `drover agent` process joined to it with the join token, sharing this
// machine's Docker (as test/support/agent-process.ts starts extra agents for the tests).
// BENCH_AGENT_ARGS (flags, split on spaces) goes to both, e.g. `--sandbox-pool-max 0` to
// compare an agent option on and off.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadClientConfig, type TlsConfig } from '../src/client/config.js';
import { POD_START_STAGES_PATH, type PodStartRecord } from '../src/metrics/pod-start-stages.js';
import { startDroverProcess, type DroverProcess } from '../test/support/drover-process.js';
import { KUBECTL } from '../test/support/kubectl.js';
import { docker, run } from './peers.js';

export const AGENT_ARGS = (process.env['BENCH_AGENT_ARGS'] ?? '').split(/\s+/).filter(Boolean);

export interface ExtraAgent {
  nodeName: string;
  /** The stages of its pods' starts, which its process alone holds (src/metrics/pod-start-stages.ts). */
  stageRecords(): Promise<PodStartRecord[]>;
  stop(): Promise<void>;
}

/** GET of the agent's stages over its streaming endpoint, as a cluster admin (the kubeconfig's certificate). */
function fetchAgentStages(streamingUrl: string, tls: TlsConfig): Promise<PodStartRecord[]> {
  return new Promise((resolve, reject) => {
    const request = get(new URL(POD_START_STAGES_PATH, streamingUrl), { ca: tls.ca, cert: tls.cert, key: tls.key, timeout: 30_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${POD_START_STAGES_PATH} on ${streamingUrl}: ${res.statusCode} ${body}`));
        resolve((JSON.parse(body) as { items: PodStartRecord[] }).items);
      });
    });
    request.on('timeout', () => request.destroy(new Error(`${POD_START_STAGES_PATH} on ${streamingUrl}: no answer`)));
    request.on('error', reject);
  });
}

/**
 * Starts `drover agent` as node `nodeName` of the `drover up` cluster in `upDataDir`, and waits
 * until the node is Ready. `networkFlags`: the cluster's address plan, as `drover up` was given it.
 */
export async function startExtraAgent(upDataDir: string, nodeName: string, networkFlags: string[]): Promise<ExtraAgent> {
  const kubeconfig = join(upDataDir, 'kubeconfig');
  const { server, tls } = await loadClientConfig({ kubeconfig });
  const token = (await readFile(join(upDataDir, 'token'), 'utf8')).trim();
  const dataDir = await mkdtemp(join(tmpdir(), `drover-bench-agent-${nodeName}-`));
  // No service rules: `drover up`'s node programs this machine's already, and the bench's pods use none.
  const args = [
    'agent',
    '--server',
    server,
    '--token',
    token,
    '--node-name',
    nodeName,
    '--data-dir',
    dataDir,
    ...networkFlags,
    '--no-service-proxy',
    ...AGENT_ARGS,
  ];
  let agent: DroverProcess;
  try {
    agent = await startDroverProcess(args, `node ${nodeName} ready`, 60_000);
    await run(KUBECTL, ['--kubeconfig', kubeconfig, 'wait', '--for=condition=Ready', `node/${nodeName}`, '--timeout=120s']);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const streamingUrl = /streaming on (\S+)\)/.exec(agent.output())?.[1];
  return {
    nodeName,
    stageRecords: async () => (streamingUrl ? fetchAgentStages(streamingUrl, tls ?? {}) : []),
    async stop() {
      await agent.stop();
      // What a stopped agent leaves in Docker (its pods are deleted before it stops; this is the rest).
      const { stdout } = await docker('ps', '-aq', '--filter', `label=drover.dev/node=${nodeName}`);
      const ids = stdout.split('\n').filter(Boolean);
      if (ids.length) await docker('rm', '-f', ...ids).catch(() => undefined);
      await run(KUBECTL, ['--kubeconfig', kubeconfig, 'delete', 'node', nodeName, '--wait=false']).catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
