// Whether a process of this machine still runs, by pid alone or guarded against pid reuse.
import { readFileSync } from 'node:fs';

/** Whether some process has this pid: signal 0 checks without sending anything. */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface ProcStat {
  /** R, S, D, T, Z, X... (field 3). */
  state: string;
  /** Clock ticks since boot at which the process started (field 22): with the pid, who it is. */
  startTicks: number;
}

/** The fields of /proc/PID/stat's text that say whether it runs and who it is. */
function parseProcStat(text: string): ProcStat | undefined {
  // The command name (field 2) may hold spaces and parentheses: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTicks = Number(fields[19]);
  if (state === undefined || !Number.isFinite(startTicks)) return undefined;
  return { state, startTicks };
}

/** /proc/PID/stat read now; undefined when there is no such process. */
export function procStatSync(pid: number): ProcStat | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The process with this pid is the one that started at `startTicks` (not another that got its pid since), and has not ended. */
export function processRunning(pid: number, startTicks: number): boolean {
  const stat = procStatSync(pid);
  return stat !== undefined && stat.startTicks === startTicks && stat.state !== 'Z' && stat.state !== 'X';
}
