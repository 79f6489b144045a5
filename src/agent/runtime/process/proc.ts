// Processes by pid, guarded against pid reuse, and signals by name.

import { readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { RuntimeError } from '../errors.js';
import { isRunning, parseProcStat, type ProcStat } from '../../../util/process-alive.js';

export async function procStat(pid: number): Promise<ProcStat | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The process with this pid is the one that started at `startTicks`, and has not ended. */
export async function isAlive(pid: number, startTicks: number): Promise<boolean> {
  return isRunning(await procStat(pid), startTicks);
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
