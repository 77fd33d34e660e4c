import os from 'node:os';
import type pg from 'pg';
import type { Logger } from 'pino';

/**
 * Connections a process opens besides its pool: the event store's LISTEN, Agenda's LISTEN, the
 * idempotency claim session, the history chainer's thread.
 */
export const CONNECTIONS_BESIDES_POOL = 4;

/**
 * The database URL with an `application_name` naming this process (`invoicing <host>:<pid>`),
 * unless the URL names one: pg_stat_activity then says which process holds which connection, and
 * the processes sharing the server can be counted (connectionBudget).
 */
export function namedConnections(url: string): string {
  if (/[?&]application_name=/.test(url)) return url;
  const name = encodeURIComponent(`invoicing ${os.hostname()}:${process.pid}`.slice(0, 63));
  return `${url}${url.includes('?') ? '&' : '?'}application_name=${name}`;
}

/**
 * Warns at start when the processes of this service on the database server (counted by their
 * connections' application names) could together open more connections than the server takes:
 * each may open DATABASE_POOL_SIZE + 4 under load, and a process refused a connection fails requests.
 */
export async function checkConnectionBudget(pool: pg.Pool, poolSize: number, logger: Logger): Promise<void> {
  const { rows } = await pool.query<{ available: number; processes: number; others: number }>(
    `SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int AS available,
            count(DISTINCT application_name) FILTER (WHERE application_name LIKE 'invoicing %')::int AS processes,
            count(*) FILTER (WHERE application_name NOT LIKE 'invoicing %')::int AS others
       FROM pg_stat_activity WHERE backend_type = 'client backend'`,
  );
  const { available, processes, others } = rows[0]!;
  const perProcess = poolSize + CONNECTIONS_BESIDES_POOL;
  const needed = Math.max(1, processes) * perProcess + others;
  if (needed > available) {
    logger.warn(
      { processes: Math.max(1, processes), perProcess, available },
      `PostgreSQL takes ${available} connections; the ${Math.max(1, processes)} processes of this service on it may open ${perProcess} each (DATABASE_POOL_SIZE + ${CONNECTIONS_BESIDES_POOL})` +
        (others > 0 ? ` besides ${others} of other clients` : '') +
        ': lower DATABASE_POOL_SIZE or raise max_connections (docs/operating/processes.md)',
    );
  }
}
