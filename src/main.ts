import { loadConfig } from './infrastructure/config.js';
import { createLogger } from './infrastructure/logger.js';
import { holdBuildGeneration } from './infrastructure/buildGeneration.js';
import { STARTUP_FACTS, startupReport, type StartupFact } from './composition/startupReport.js';
import { Service, VERSION } from './service.js';

/**
 * `npm start` (and the systemd unit, deploy/invoicing.service): the service on the storage
 * profile its settings choose (the embedded PostgreSQL by default; see composition/options.ts),
 * until SIGINT/SIGTERM.
 */
/** How long a shutdown waits for the requests, deliveries and jobs under way (each) before it cuts them off. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  // First: no later build may remove the files this process and its workers load.
  const build = holdBuildGeneration();
  const config = loadConfig();
  const logger = createLogger(config.logLevel, config.logFormat);
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
    const report = startupReport(
      config,
      service.resolve<StartupFact[]>(STARTUP_FACTS),
      build,
      `invoicing ${VERSION} listening on http://localhost:${config.port} (HOST ${config.host}, data in ${config.dataDir})`,
    );
    logger.info({ startup: report.facts }, report.text);
  } catch (error) {
    logger.error({ err: error }, 'failed to start');
    await service?.stop().catch(() => undefined);
    process.exit(1);
  }
}

void main();
