// Starts a `drover` subcommand as a real child process (as a user would run it) and waits for
// the line it prints once it runs: agents, controller-managers and schedulers beside a server.
import type { ChildProcess } from 'node:child_process';
import { spawnDrover } from './server-process.js';
import { StopWaiting, waitFor } from './wait-for.js';

export interface DroverProcess {
  child: ChildProcess;
  /** Everything it printed, for failure messages. */
  output(): string;
  /** SIGTERM (a clean stop) or SIGKILL (the machine is gone). */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `env` replaces the child's environment (a PATH with a stand-in tool first, say). */
export async function startDroverProcess(args: string[], readyText: string, timeoutMs = 30_000, env?: NodeJS.ProcessEnv): Promise<DroverProcess> {
  const child = spawnDrover(args, env);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(
    `drover ${args[0]} to print "${readyText}"`,
    () => {
      if (output.includes(readyText)) return true;
      if (child.exitCode !== null) throw new StopWaiting(`drover ${args[0]} exited (${child.exitCode}) before printing "${readyText}"`);
      return undefined;
    },
    timeoutMs,
  ).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}:\n${output}`);
  });
  return {
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
