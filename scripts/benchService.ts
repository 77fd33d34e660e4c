import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface BenchService {
  process: ChildProcess;
  base: string;
  /** Stops the service (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * The service as `npm start` runs it, in a process of its own (a load generator must not share
 * its event loop), on the given database, with the tenants' rate limits off (they are for fair
 * use, not what a benchmark measures). SERVICE_NODE_ARGS passes flags to its node, e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof". Resolves once it answers /healthz.
 */
export async function startBenchService(options: {
  databaseUrl: string;
  dataDir: string;
  port: number;
  operatorKey: string;
  env?: Record<string, string>;
}): Promise<BenchService> {
  const nodeArgs = (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const service = spawn(process.execPath, [...nodeArgs, fileURLToPath(new URL('../src/main.js', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      OPERATOR_KEY: options.operatorKey,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_STANDARD_PER_MINUTE: '0',
      RATE_LIMIT_PREMIUM_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_MINUTE: '0',
      RATE_LIMIT_ADMIN_PER_HOUR: '0',
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => service.once('exit', resolve));
  const base = `http://127.0.0.1:${options.port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => null))?.ok) break;
    if (i > 600) throw new Error('the service did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    process: service,
    base,
    stop: async () => {
      service.kill('SIGTERM');
      await exited;
    },
  };
}
