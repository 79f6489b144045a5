// Starts a `drover` subcommand as a real child process (as a user would run it) and waits for
// the line it prints once it runs: agents, controller-managers and schedulers beside a server.
import type { ChildProcess } from 'node:child_process';
import { spawnDrover } from './server-process.js';

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
  const deadline = Date.now() + timeoutMs;
  while (!output.includes(readyText)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`drover ${args[0]} did not print "${readyText}":\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
