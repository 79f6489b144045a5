// Processes by pid, guarded against pid reuse, and signals by name.

import { readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { RuntimeError } from '../errors.js';

export interface ProcStat {
  /** R, S, D, T, Z, X... (field 3). */
  state: string;
  /** Clock ticks since boot at which the process started (field 22). */
  startTicks: number;
}

export async function procStat(pid: number): Promise<ProcStat | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTicks = Number(fields[19]);
  if (state === undefined || !Number.isFinite(startTicks)) return undefined;
  return { state, startTicks };
}

/** The process with this pid is the one that started at `startTicks`, and has not ended. */
export async function isAlive(pid: number, startTicks: number): Promise<boolean> {
  const stat = await procStat(pid);
  return stat !== undefined && stat.startTicks === startTicks && stat.state !== 'Z' && stat.state !== 'X';
}

/** The same process, even if it has ended and waits to be reaped. */
export async function isSameProcess(pid: number, startTicks: number): Promise<boolean> {
  const stat = await procStat(pid);
  return stat !== undefined && stat.startTicks === startTicks;
}

/** Accepts "SIGUSR1", "USR1", "usr1" and "10". */
export function parseSignal(signal: string): NodeJS.Signals | number {
  const trimmed = signal.trim();
  if (/^\d+$/.test(trimmed)) {
    const n = Number(trimmed);
    if (n > 0 && n <= 64) return n;
  } else {
    const name = (trimmed.toUpperCase().startsWith('SIG') ? trimmed.toUpperCase() : `SIG${trimmed.toUpperCase()}`) as NodeJS.Signals;
    if (name in constants.signals) return name;
  }
  throw new RuntimeError(`invalid signal: ${signal}`, { statusCode: 400 });
}

/** False when there is no such process (or group): it has gone already. */
export function sendSignal(pid: number, signal: NodeJS.Signals | number, group: boolean): boolean {
  try {
    process.kill(group ? -pid : pid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/** To the process group the process leads, or to the process alone if it leads none. */
export function signalGroup(pid: number, signal: NodeJS.Signals | number): boolean {
  return sendSignal(pid, signal, true) || sendSignal(pid, signal, false);
}
