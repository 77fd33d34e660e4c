import { SETTINGS } from './settings/catalogue.js';

/**
 * Crash injection for the SIGKILL tests: `FAILPOINTS=delivery:after-transport` makes the process
 * kill itself (SIGKILL, no cleanup) the first time it passes that point, so a test can crash it
 * exactly between two steps; `name@n` the n-th time (with other work under way). Unset in
 * production: then this is a lookup in an empty map.
 */
const armed = new Map(
  SETTINGS.FAILPOINTS.read(process.env).map((entry) => {
    const [name, times] = entry.split('@');
    return [name!, Math.max(1, Number(times ?? 1) || 1)] as const;
  }),
);

export type Failpoint =
  | 'send:after-request'
  | 'delivery:after-transport'
  | 'webhook:after-call'
  | 'as4:after-store'
  | 'idempotency:before-complete';

export function failpoint(name: Failpoint): void {
  const left = armed.get(name);
  if (left === undefined) return;
  if (left <= 1) process.kill(process.pid, 'SIGKILL');
  else armed.set(name, left - 1);
}
