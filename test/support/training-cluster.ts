// A `drover up` cluster for the training-job tests, with kubectl and JSON reads bound to it.
import { kubectl, kubectlRaw, requireKubectl } from './kubectl.js';
import { startUpProcess, waitForNodeReady, type UpProcess } from './up-process.js';
import { runRepoScript } from './repo.js';
import { waitFor } from './wait-for.js';

export interface TrainingCluster {
  up: UpProcess;
  k(args: string[], input?: string, timeoutMs?: number): Promise<string>;
  json<T = any>(args: string[]): Promise<T>;
  stop(): Promise<void>;
}

export async function startTrainingCluster(prefix: string): Promise<TrainingCluster> {
  requireKubectl();
  runRepoScript('ensure-docker.sh', 'drover up needs a real Docker Engine');
  const up = await startUpProcess(`${prefix}-${process.pid}`);
  const k = (args: string[], input?: string, timeoutMs?: number) =>
    kubectl(up.kubeconfig, args, { ...(input === undefined ? {} : { input }), ...(timeoutMs ? { timeoutMs } : {}) });
  await waitForNodeReady(up);
  return {
    up,
    k,
    json: async (args) => JSON.parse(await k([...args, '-o', 'json'])),
    async stop() {
      // Host processes outlive nothing: every job and pod goes before the cluster stops.
      await kubectlRaw(up.kubeconfig, ['delete', 'pytorchjobs,tfjobs', '--all', '--wait=true', '--timeout=30s']);
      await kubectlRaw(up.kubeconfig, ['delete', 'pods', '--all', '--grace-period=1', '--wait=true', '--timeout=30s']);
      await up.stop();
    },
  };
}

/**
 * The example PyTorchJob's final losses, one per replica, after checking each replica joined the
 * rendezvous at `rendezvous` (`host:port`). Workers may still be writing their last line when the
 * master's success ends the job, so each log is read until it has one.
 */
export async function finalLosses(c: TrainingCluster, job: string, replicas: readonly string[], rendezvous: string): Promise<Set<string>> {
  const losses = new Set<string>();
  for (const [rank, replica] of replicas.entries()) {
    const log = await waitFor(
      `${job}-${replica}'s final loss`,
      async () => {
        const text = await c.k(['logs', `${job}-${replica}`]);
        return /final loss/.test(text) && text;
      },
      30_000,
    );
    const joined = `rank ${rank} of ${replicas.length} joined the rendezvous at ${rendezvous}`;
    if (!log.includes(joined)) throw new Error(`${job}-${replica} did not log "${joined}":\n${log}`);
    losses.add(/final loss (\S+)/.exec(log)![1]!);
  }
  return losses;
}
