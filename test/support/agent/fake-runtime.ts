// For tests: just enough of a ContainerRuntime for the streaming server — containers and
// sandboxes found by label, logs, exec and attach over in-memory streams, kill.

import { PassThrough, Readable } from 'node:stream';
import { CONTAINER_NAME, POD_NAME, POD_NAMESPACE, POD_UID, ATTEMPT, KIND, MANAGED } from '../../../src/agent/runtime/labels.js';
import type {
  AttachOptions, ContainerRuntime, ContainerSummary, ExecOptions, ExecSession, ListFilter, LogOptions, SandboxInfo, StreamSession, TerminalSize,
} from '../../../src/agent/runtime/runtime.js';
import { ContainerNotFoundError } from '../../../src/agent/runtime/errors.js';

export interface FakeIo {
  stdin?: PassThrough;
  stdout: PassThrough;
  stderr: PassThrough;
}

/** Runs an exec'd "command" against in-memory streams; resolves with its exit code. */
export type FakeCommand = (cmd: string[], io: FakeIo) => Promise<number>;

/** echo ARGS → stdout; fail N → exit N after "oops" on stderr; cat → stdin to stdout. */
export const defaultCommand: FakeCommand = async (cmd, io) => {
  if (cmd[0] === 'echo') {
    io.stdout.write(`${cmd.slice(1).join(' ')}\n`);
    return 0;
  }
  if (cmd[0] === 'fail') {
    io.stderr.write('oops\n');
    return Number(cmd[1] ?? 1);
  }
  if (cmd[0] === 'cat' && io.stdin) {
    io.stdin.pipe(io.stdout, { end: false });
    await new Promise((resolve) => io.stdin!.once('end', resolve));
    return 0;
  }
  return 127;
};

function matches(labels: Record<string, string>, filter: ListFilter | undefined): boolean {
  return Object.entries(filter?.labels ?? {}).every(([k, v]) => (v === true ? k in labels : labels[k] === v));
}

export class FakeRuntime {
  readonly containers: ContainerSummary[] = [];
  readonly sandboxes: SandboxInfo[] = [];
  readonly logCalls: Array<{ id: string; options: LogOptions }> = [];
  readonly execCalls: Array<{ id: string; options: ExecOptions; resizes: TerminalSize[] }> = [];
  readonly kills: Array<{ id: string; signal: string }> = [];
  logText = 'line 1\nline 2\nline 3\n';
  command: FakeCommand = defaultCommand;

  constructor(readonly name = 'docker') {}

  addContainer(pod: { uid: string; name: string; namespace: string }, container: string, attempt: number, createdAt = new Date()): string {
    const id = `${container}-${pod.uid}-${attempt}`;
    const labels = { [MANAGED]: 'true', [KIND]: 'container', [POD_UID]: pod.uid, [POD_NAME]: pod.name, [POD_NAMESPACE]: pod.namespace, [CONTAINER_NAME]: container, [ATTEMPT]: String(attempt) };
    this.containers.push({ id, runtimeName: id, state: 'running', image: 'img', imageId: 'sha256:1', createdAt, labels });
    return id;
  }

  addSandbox(pod: { uid: string; name: string; namespace: string }, attempt: number, state: SandboxInfo['state'] = 'running'): string {
    const id = `sandbox-${pod.uid}-${attempt}`;
    const labels = { [MANAGED]: 'true', [KIND]: 'sandbox', [POD_UID]: pod.uid, [POD_NAME]: pod.name, [POD_NAMESPACE]: pod.namespace, [ATTEMPT]: String(attempt) };
    this.sandboxes.push({ id, pod, attempt, state, ip: '10.0.0.2', createdAt: new Date(), labels });
    return id;
  }

  private known(id: string): void {
    if (!this.containers.some((c) => c.id === id) && !this.sandboxes.some((s) => s.id === id)) throw new ContainerNotFoundError(id);
  }

  private session(withStdin: boolean): { io: FakeIo; streams: Omit<StreamSession, 'resize' | 'close'> } {
    const io: FakeIo = { stdout: new PassThrough(), stderr: new PassThrough(), ...(withStdin ? { stdin: new PassThrough() } : {}) };
    return { io, streams: { stdout: io.stdout, stderr: io.stderr, ...(io.stdin ? { stdin: io.stdin } : {}) } };
  }

  asRuntime(): ContainerRuntime {
    const self = this;
    const partial: Partial<ContainerRuntime> = {
      name: this.name,
      listContainers: async (filter) => self.containers.filter((c) => matches(c.labels, filter)),
      listSandboxes: async (filter) => self.sandboxes.filter((s) => matches(s.labels, filter)),
      async logs(id, options = {}) {
        self.known(id);
        self.logCalls.push({ id, options });
        return Readable.from([Buffer.from(self.logText)]);
      },
      async exec(id, options): Promise<ExecSession> {
        self.known(id);
        const record = { id, options, resizes: [] as TerminalSize[] };
        self.execCalls.push(record);
        const { io, streams } = self.session(options.stdin ?? false);
        const code = self.command(options.cmd, io).finally(() => {
          io.stdout.end();
          io.stderr.end();
        });
        return { id: 'exec-1', ...streams, exitCode: () => code, resize: async (size) => void record.resizes.push(size), close: () => io.stdout.destroy() };
      },
      async attach(id, options: AttachOptions): Promise<StreamSession> {
        self.known(id);
        const { io, streams } = self.session(options.stdin ?? false);
        io.stdout.end('attached output\n');
        io.stderr.end();
        return { ...streams, resize: async () => undefined, close: () => undefined };
      },
      async killContainer(id, signal) {
        self.known(id);
        self.kills.push({ id, signal });
      },
    };
    return partial as ContainerRuntime;
  }
}
