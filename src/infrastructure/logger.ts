import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

/**
 * The service's logger. `pretty` writes a line a person reads (time, level, message; an error's
 * stack below it) and is the default on a terminal; `json` writes one object a line, for journald
 * and log shippers, and is the default otherwise (LOG_FORMAT chooses). Both carry the same fields.
 */
export function createLogger(level: string, format: LogFormat | null = null): Logger {
  const options = { level, base: { service: 'invoicing' } };
  if ((format ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'json') return pino(options);
  return pino(
    options,
    pretty({
      // In order with what the process writes to stdout directly (the generated operator key).
      sync: true,
      colorize: Boolean(process.stdout.isTTY),
      translateTime: 'SYS:HH:MM:ss.l',
      // A request's line says method, path, status and time; its full record is JSON's.
      ignore: 'pid,hostname,service,req,res,responseTime,startup',
      singleLine: true,
    }),
  );
}
