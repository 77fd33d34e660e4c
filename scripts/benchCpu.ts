import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * CPU time (user + system, ms) used so far by a process, plus that of its reaped children when
 * asked. CPU per document is steadier than latency on a shared 2-core machine, so it shows what a
 * change saves.
 */
export async function cpuMs(pid: number, withChildren: boolean): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return 0;
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  // Fields 14-17 of proc(5), counted from the state field (3): utime, stime, cutime, cstime, in ticks of 10 ms.
  const [utime, stime, cutime, cstime] = fields.slice(11, 15) as [number, number, number, number];
  return (utime + stime + (withChildren ? cutime + cstime : 0)) * 10;
}

/** A process and all its live descendants (a service's worker processes, PostgreSQL's backends), with the reaped ones. */
export async function treeCpuMs(root: number): Promise<number> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const inTree = (pid: number): boolean => pid === root || (parents.has(pid) && inTree(parents.get(pid)!));
  let total = 0;
  for (const pid of parents.keys()) if (inTree(pid)) total += await cpuMs(pid, true);
  return total;
}

/** PostgreSQL's CPU: the postmaster of the cluster in `dataDir` and every backend. */
export async function postgresCpuMs(dataDir: string): Promise<number> {
  const postmaster = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return treeCpuMs(postmaster);
}
