// exec and attach, independent of the wire: a CommandChannel is the client's side (WebSocket
// channels or SPDY streams), a runtime session the container's. This joins the two, and reports
// the outcome on the error channel the way the kubelet does — Success, NonZeroExitCode with the
// code, or InternalError when the runtime could not run the command.

import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ContainerRuntime, StreamSession, TerminalSize } from '../runtime/runtime.js';
import { exitCodeStatus, internalErrorStatus, successStatus, type KubeStatus } from './status.js';

/** The client's end of an exec or attach session. */
export interface CommandChannel {
  /** The client's input; ends when the client closes it. Absent when stdin was not asked for. */
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  readonly stderr?: Writable;
  onResize(listener: (size: TerminalSize) => void): void;
  /** Settles when the client has gone away. */
  readonly gone: Promise<void>;
  /** Sends the outcome on the error channel and ends the connection. */
  finish(status: KubeStatus): void;
}

export interface CommandTarget {
  runtime: ContainerRuntime;
  containerId: string;
}

export interface CommandOptions {
  /** exec only. */
  command: string[];
  tty: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Copies a runtime output into the client's stream; output nobody asked for is drained. */
async function forward(from: Readable, to: Writable | undefined): Promise<void> {
  if (!to) {
    from.resume();
    await finished(from).catch(() => undefined);
    return;
  }
  from.pipe(to);
  // Only the writing side matters: a SPDY stream stays readable until the client closes it.
  await finished(to, { readable: false }).catch(() => undefined);
}

/** Wires the client to the session; resolves true once every output has ended, false if the client left first. */
async function bridge(channel: CommandChannel, session: StreamSession): Promise<boolean> {
  if (channel.stdin && session.stdin) channel.stdin.pipe(session.stdin);
  session.stdin?.on('error', () => undefined);
  channel.onResize((size) => void session.resize(size).catch(() => undefined));
  const outputs = Promise.all([forward(session.stdout, channel.stdout), forward(session.stderr, channel.stderr)]);
  const ended = await Promise.race([outputs.then(() => true), channel.gone.then(() => false)]);
  if (!ended) session.close();
  return ended;
}

export async function runExec(channel: CommandChannel, target: CommandTarget, options: CommandOptions): Promise<void> {
  let session;
  try {
    session = await target.runtime.exec(target.containerId, { cmd: options.command, stdin: channel.stdin !== undefined, tty: options.tty });
  } catch (error) {
    channel.finish(internalErrorStatus(`error executing command in container: ${messageOf(error)}`));
    return;
  }
  if (!(await bridge(channel, session))) return;
  // Only now ask for the code: the process has closed its output, so it is ending or ended.
  const outcome = await Promise.race([
    session.exitCode().then(
      (code) => ({ code }),
      (error: unknown) => ({ error }),
    ),
    channel.gone.then(() => undefined),
  ]);
  if (!outcome) return session.close();
  if ('error' in outcome) return channel.finish(internalErrorStatus(`error executing command in container: ${messageOf(outcome.error)}`));
  channel.finish(outcome.code === 0 ? successStatus() : exitCodeStatus(outcome.code, options.command));
}

export async function runAttach(channel: CommandChannel, target: CommandTarget): Promise<void> {
  let session;
  try {
    session = await target.runtime.attach(target.containerId, {
      stdin: channel.stdin !== undefined,
      stdout: channel.stdout !== undefined,
      stderr: channel.stderr !== undefined,
    });
  } catch (error) {
    channel.finish(internalErrorStatus(`error attaching to container: ${messageOf(error)}`));
    return;
  }
  // The container's output ends when its process does; the session is then complete.
  if (await bridge(channel, session)) channel.finish(successStatus());
  session.close();
}
