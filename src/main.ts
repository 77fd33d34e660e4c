import { loadConfig } from './infrastructure/config.js';
import { createLogger } from './infrastructure/logger.js';
import { Service } from './service.js';

/**
 * `npm start`: the service on the storage profile its settings choose (the embedded PostgreSQL
 * by default; see composition/options.ts), until SIGINT/SIGTERM.
 */
/** How long a shutdown waits for the requests, deliveries and jobs under way (each) before it cuts them off. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  let service: Service | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await service?.stop(SHUTDOWN_GRACE_MS);
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    service = await Service.create({ config, logger });
    await service.start();
    await service.listen(config.port, config.host);
    logger.info({ port: config.port }, `listening on http://localhost:${config.port}`);
  } catch (error) {
    logger.error({ err: error }, 'failed to start');
    await service?.stop().catch(() => undefined);
    process.exit(1);
  }
}

void main();
