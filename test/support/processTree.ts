import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident memory of a process and all its descendants (the service forks worker processes and
 * its embedded PostgreSQL), read from /proc. Linux only.
 */
export interface TreeMemory {
  /** Sum of VmRSS over the tree, in bytes. */
  rssBytes: number;
  /** The part of rssBytes that is shared memory (PostgreSQL's shared buffers count once per backend). */
  shmemBytes: number;
  /** VmRSS in bytes by command name (node, postgres, …). */
  byCommand: Record<string, number>;
  processes: number;
}

/** Parent pid and command of every process on the machine. */
function processTable(): Map<number, { ppid: number; comm: string }> {
  const table = new Map<number, { ppid: number; comm: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may contain spaces and parentheses, so split at the last ')'.
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      table.set(Number(entry), { ppid, comm });
    } catch {
      // the process ended while we looked
    }
  }
  return table;
}

const kb = (status: string, field: string): number => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : 0;
};

/** The pids of `root` and its descendants. */
export function processTree(root: number): number[] {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export function treeMemory(root: number): TreeMemory {
  const result: TreeMemory = { rssBytes: 0, shmemBytes: 0, byCommand: {}, processes: 0 };
  for (const pid of processTree(root)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rss = kb(status, 'VmRSS');
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?';
      result.rssBytes += rss;
      result.shmemBytes += kb(status, 'RssShmem');
      result.byCommand[name] = (result.byCommand[name] ?? 0) + rss;
      result.processes++;
    } catch {
      // the process ended while we looked
    }
  }
  return result;
}
