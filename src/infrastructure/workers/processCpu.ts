import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux we run on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, in ms) a process has used, from /proc; null where there is no /proc
 * (the caller then falls back to wall time). A task's budget counts CPU, not wall time, so a task
 * on a machine busy with other work is not ended for the machine's being busy.
 */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces, inside parentheses).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
