import path from 'node:path';

/** Every setting of the service, read once from the environment. See the README's table. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: start the embedded PostgreSQL under dataDir. */
  databaseUrl: string | null;
  embeddedPostgresPort: number;
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
  operatorKey: string | null;
  bootstrapAdminKey: string | null;
  logLevel: string;
  /** Largest accepted JSON body, in bytes. */
  jsonBodyLimit: number;
  /** Largest accepted XML or file upload, in bytes. */
  uploadBodyLimit: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

const optional = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: integer(env, 'PORT', 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './var'),
    databaseUrl: optional(env.DATABASE_URL),
    embeddedPostgresPort: integer(env, 'EMBEDDED_PG_PORT', 54329),
    eventStoreUrl: optional(env.EVENTSTORE_URL),
    mongodbUrl: optional(env.MONGODB_URL),
    operatorKey: optional(env.OPERATOR_KEY),
    bootstrapAdminKey: optional(env.BOOTSTRAP_ADMIN_KEY),
    logLevel: env.LOG_LEVEL || 'info',
    jsonBodyLimit: integer(env, 'JSON_BODY_LIMIT', 2 * 1024 * 1024),
    uploadBodyLimit: integer(env, 'UPLOAD_BODY_LIMIT', 20 * 1024 * 1024),
  };
}
