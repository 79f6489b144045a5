// CPU time as the kernel counts it (Linux /proc): a process's user + system time, all threads.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** Seconds of CPU `pid` has used so far, in ticks of 10 ms. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15, so 11 and 12 after the state (field 3).
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Seconds of CPU this process has used so far. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
