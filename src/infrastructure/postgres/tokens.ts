/** Injection tokens of the PostgreSQL adapters (bound by the composition root). */

/** `pg.Pool`: the deployment's PostgreSQL connections (every profile keeps keys and counters there). */
export const PG_POOL = Symbol('PgPool');
/** `string`: the URL of that database (the event store's LISTEN connection opens one of its own). */
export const DATABASE_URL = Symbol('DatabaseUrl');
/** `Database` (database.ts): the database the service runs on; stopped last. */
export const DATABASE = Symbol('Database');
