// Signals to processes by pid or group, and by name. Whether a pid still names the process that
// started is src/util/process-alive.ts's question.

import { constants } from 'node:os';
import { RuntimeError } from '../errors.js';

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
