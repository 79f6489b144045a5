// A terminal session for typing a README's commands: each command runs in bash in the
// session's directory with its environment, and what a command exports (or a `cd`) carries
// over to the next, as in one terminal. A command that runs until Ctrl-C is started in the
// background and later sent SIGINT, as the terminal sends it to its whole process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StopWaiting, waitFor } from './wait-for.js';

export interface CommandResult {
  code: number | null;
  /** stdout and stderr together, as a terminal shows them. */
  output: string;
}

export interface BackgroundCommand {
  output(): string;
  /** Resolves once the output matches; rejects if it exits first or the time runs out. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Ctrl-C: SIGINT to its process group, then waits until every process of it is gone. */
  interrupt(timeoutMs?: number): Promise<CommandResult>;
}

export class ShellSession {
  private readonly envFile: string;
  private readonly background = new Set<BackgroundCommand>();

  constructor(
    public cwd: string,
    public env: Record<string, string>,
  ) {
    this.envFile = join(mkdtempSync(join(tmpdir(), 'drover-shell-')), 'env');
  }

  /** Runs a command to its end (killed after `timeoutMs`), typing `input` into it. */
  async run(command: string, options: { input?: string; timeoutMs?: number } = {}): Promise<CommandResult> {
    // The environment at the end is read back, so `export` and `cd` hold for the next command.
    const script = `${command}\n__status=$?\nenv -0 > '${this.envFile}'\nexit $__status`;
    const child = this.spawn(script, options.input);
    const output = collect(child);
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), options.timeoutMs ?? 60_000);
    const code = await exitCode(child);
    clearTimeout(timer);
    if (code === 0) this.readEnv();
    return { code, output: output() };
  }

  /** Starts a command that runs until Ctrl-C. */
  start(command: string): BackgroundCommand {
    const child = this.spawn(command);
    const output = collect(child);
    const exited = exitCode(child);
    const running: BackgroundCommand = {
      output,
      async waitFor(pattern, timeoutMs) {
        return waitFor(
          `\`${command}\` to show ${pattern}`,
          () => {
            const match = pattern.exec(output());
            if (match) return match;
            if (child.exitCode !== null || child.signalCode !== null) throw new StopWaiting(`\`${command}\` exited before showing ${pattern}:\n${output()}`);
            throw new Error(`it printed:\n${output()}`);
          },
          timeoutMs,
        );
      },
      interrupt: async (timeoutMs = 30_000) => {
        killGroup(child, 'SIGINT');
        // The shell may exit before the programs it started have finished stopping.
        await waitFor(`\`${command}\` and what it started to stop`, () => !groupAlive(child), timeoutMs).catch(() => killGroup(child, 'SIGKILL'));
        this.background.delete(running);
        return { code: await exited, output: output() };
      },
    };
    this.background.add(running);
    return running;
  }

  /** Interrupts whatever still runs in the background, and forgets the session's files. */
  async close(): Promise<void> {
    for (const running of [...this.background]) await running.interrupt();
    rmSync(join(this.envFile, '..'), { recursive: true, force: true });
  }

  private spawn(script: string, input?: string): ChildProcess {
    // detached: a process group of its own, as a terminal gives each command line.
    const child = spawn('bash', ['-c', script], { cwd: this.cwd, env: this.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    // A command that never reads its input may exit first: its closed stdin (EPIPE) is no failure.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(input ?? '');
    return child;
  }

  private readEnv(): void {
    const env: Record<string, string> = {};
    for (const entry of readFileSync(this.envFile, 'utf8').split('\0')) {
      const at = entry.indexOf('=');
      if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
    }
    this.env = env;
    if (env['PWD']) this.cwd = env['PWD'];
  }
}

function collect(child: ChildProcess): () => string {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('close', (code) => resolve(code)));
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}
