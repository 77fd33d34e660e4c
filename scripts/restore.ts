/**
 * Restores a backup (scripts/backup.ts) into a new instance:
 *   npm run restore -- <folder>
 * The settings name the new instance as `npm start` reads them: DATA_DIR (a new data folder, for
 * the embedded PostgreSQL) or DATABASE_URL (an empty database), and BLOB_STORE with its settings,
 * which may differ from the backup's (the blobs are put into whichever store is configured). No
 * service may run on the new instance meanwhile; start it afterwards with the same settings.
 *
 * 1. The schema, as this version's first start makes it (the backup must be of this version).
 * 2. The blobs, each checked against its SHA-256.
 * 3. The tables, in one transaction, each file checked against the manifest.
 * 4. The data folder's files.
 * See docs/operating/backup-restore.md.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../src/infrastructure/config.js';
import { createLogger } from '../src/infrastructure/logger.js';
import { openDatabase } from '../src/infrastructure/postgres/database.js';
import { PG_POOL } from '../src/infrastructure/postgres/tokens.js';
import { openBlobStore } from '../src/infrastructure/blobs/openBlobStore.js';
import { blobRecords, readChecked } from '../src/infrastructure/backup/backupFiles.js';
import { loadTables, schemaDifferences } from '../src/infrastructure/backup/databaseLoad.js';
import { BACKUP_FORMAT, DATA_DIR_STATE, type BackupManifest } from '../src/infrastructure/backup/backupManifest.js';
import { Service } from '../src/service.js';
import pg from 'pg';

/** Blobs put at once (the PostgreSQL store groups concurrent puts into one insert). */
const BLOB_PUTS_IN_FLIGHT = 16;

async function main(): Promise<void> {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: npm run restore -- <backup folder>');
    process.exit(2);
  }
  const manifestFile = path.join(folder, 'manifest.json');
  if (!existsSync(manifestFile)) {
    console.error(`${folder} holds no manifest.json: not a backup, or one that did not finish`);
    process.exit(2);
  }
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) {
    console.error(`${folder} is a backup of format ${String(manifest.format)}; this version reads ${BACKUP_FORMAT}`);
    process.exit(2);
  }
  const config = loadConfig();
  if (config.eventStoreUrl || config.mongodbUrl) {
    console.error('Restore into the PostgreSQL profiles; the scale-out stores are restored with their own tools.');
    process.exit(2);
  }
  for (const name of DATA_DIR_STATE) {
    if (manifest.files.some((f) => f.path.split(path.sep)[0] === name) && existsSync(path.join(config.dataDir, name))) {
      console.error(`${path.join(config.dataDir, name)} exists: restore into a new data folder`);
      process.exit(2);
    }
  }
  const logger = createLogger(config.logLevel);
  const started = Date.now();

  // 1. The schema, as a first start of this version makes it (tables, read-model collections,
  // the jobs table), on a database that must hold no events. The settings' operator key is not
  // needed for that: the backup's hash is restored below.
  const service = await Service.create({
    config: { ...config, operatorKey: config.operatorKey ?? 'op_restore_schema_only', bootstrapAdminKey: null },
    logger,
  });
  const { rows } = await service.resolve<pg.Pool>(PG_POOL).query<{ n: string }>('SELECT count(*) AS n FROM es_events');
  if (Number(rows[0]!.n) > 0) {
    await service.stop();
    console.error('The database named by the settings holds events already: restore into an empty one');
    process.exit(2);
  }
  await service.start();
  await service.stop();
  const schemaDone = Date.now();

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPostgresPort,
    logger,
  });
  const pool = new pg.Pool({ connectionString: database.url, max: 4, application_name: 'invoicing restore' });
  pool.on('error', (error) => {
    if (!pool.ending) console.error(`idle database connection failed: ${error.message}`);
  });
  const blobs = await openBlobStore(config.blobStore, { pool });
  const client = await pool.connect();
  try {
    const differences = await schemaDifferences(client, manifest.tables);
    if (differences.length > 0)
      throw new Error(
        `This version's schema is not the backup's: restore with the version that made it, then upgrade.\n  ${differences.join('\n  ')}`,
      );

    // 2. The blobs, before the events that name them.
    const pack = readChecked(folder, manifest.blobs);
    const inFlight = new Set<Promise<void>>();
    let count = 0;
    for await (const { sha256, bytes } of blobRecords(pack.content)) {
      const put = blobs.store.put(bytes).then((ref) => {
        if (ref.sha256 !== sha256) throw new Error(`the blob pack's blob ${sha256} is damaged`);
      });
      const tracked = put.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      count++;
      if (inFlight.size >= BLOB_PUTS_IN_FLIGHT) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    pack.verified();
    if (count !== manifest.blobs.count)
      throw new Error(`the blob pack has ${count} blobs, the manifest says ${manifest.blobs.count}`);
    const blobsDone = Date.now();

    // 3. The tables, all or nothing.
    await loadTables(client, folder, manifest.tables);

    // 4. The data folder's files.
    for (const file of manifest.files) {
      const bytes = await readFile(path.join(folder, file.file));
      if (createHash('sha256').update(bytes).digest('hex') !== file.sha256) throw new Error(`${file.file} is damaged`);
      const target = path.join(config.dataDir, file.path);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes, { flag: 'wx', mode: 0o600 });
    }
    console.log(
      `restored ${manifest.events} events (position ${manifest.head_position}, as of ${manifest.snapshot_at}) and ${count} blobs ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s (schema ${((schemaDone - started) / 1000).toFixed(1)} s, ` +
        `blobs ${((blobsDone - schemaDone) / 1000).toFixed(1)} s, ` +
        `tables ${((Date.now() - blobsDone) / 1000).toFixed(1)} s)`,
    );
  } finally {
    client.release();
    blobs.close();
    await pool.end();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
