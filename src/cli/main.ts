// The `drover` command. Argument parsing only: each command calls an exported function.
import { Command, InvalidArgumentError } from 'commander';
import { ApiClient } from '../client/index.js';
import { startServer } from '../cluster/server.js';
import { startScheduler } from '../scheduler/scheduler.js';

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return number;
}

function positiveInt(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive integer');
  return number;
}

/** Stops `close` on SIGINT/SIGTERM exactly once, then exits. */
function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`received ${signal}, shutting down`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

export function buildProgram(): Command {
  const program = new Command('drover').description('A container orchestrator that speaks the Kubernetes API').version('0.1.0');
  program
    .command('server')
    .description('run the API server with its state in an embedded SQLite store')
    .option('--data-dir <dir>', 'where state and the kubeconfig live', '.drover')
    .option('--port <port>', 'port to serve the API on (127.0.0.1)', port, 6443)
    .option('--watch-history <revisions>', 'revisions of watch history kept; older watches get 410 Expired', positiveInt, 10_000)
    .option('--no-control-plane', 'serve the API only; run the scheduler and controllers elsewhere')
    .action(async (options: { dataDir: string; port: number; watchHistory: number; controlPlane: boolean }) => {
      const server = await startServer({ dataDir: options.dataDir, port: options.port, watchHistory: options.watchHistory, controlPlane: options.controlPlane });
      console.log(`drover API server listening on ${server.api.url}`);
      console.log(`kubeconfig: ${server.kubeconfigPath}`);
      console.log(`try: kubectl --kubeconfig ${server.kubeconfigPath} get namespaces`);
      stopOnSignals(() => server.close());
    });
  program
    .command('scheduler')
    .description('run the scheduler alone against an API server (as kube-scheduler does)')
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)')
    .option('--server <url>', 'API server URL (overrides the kubeconfig)')
    .option('--scheduler-name <name>', 'schedule the pods whose spec.schedulerName is this', 'default-scheduler')
    .action(async (options: { kubeconfig?: string; server?: string; schedulerName: string }) => {
      const configOptions: { kubeconfig?: string; server?: string } = {};
      if (options.kubeconfig) configOptions.kubeconfig = options.kubeconfig;
      if (options.server) configOptions.server = options.server;
      const api = await ApiClient.load(configOptions, { userAgent: 'drover-scheduler' });
      const scheduler = await startScheduler({ api, schedulerName: options.schedulerName });
      console.log(`drover scheduler "${options.schedulerName}" running`);
      stopOnSignals(async () => {
        await scheduler.stop();
        api.close();
      });
    });
  return program;
}

// A bug in one request's handling must not take the whole control plane down with it.
process.on('unhandledRejection', (reason) => {
  console.error('unhandled rejection (kept running):', reason);
});

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
