import { SETTINGS } from './settings/catalogue.js';

/**
 * Crash injection for the SIGKILL tests: `FAILPOINTS=delivery:after-transport` makes the process
 * kill itself (SIGKILL, no cleanup) the first time it passes that point, so a test can crash it
 * exactly between two steps. Unset in production: then this is a lookup in an empty set.
 */
const armed = new Set(SETTINGS.FAILPOINTS.read(process.env));

export type Failpoint = 'send:after-request' | 'delivery:after-transport' | 'webhook:after-call' | 'as4:after-store';

export function failpoint(name: Failpoint): void {
  if (armed.has(name)) process.kill(process.pid, 'SIGKILL');
}
