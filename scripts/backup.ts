/**
 * A consistent backup of everything that is state, while the service runs:
 *   npm run backup -- <folder>
 * Same settings as `npm start` (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR, which a
 * running service shares; BLOB_STORE and its settings). The folder must be new or empty.
 *
 * 1. One database snapshot (a REPEATABLE READ transaction): the event log (API key and tenant
 *    hashes are in it), the read models with their checkpoints, the jobs, the idempotency keys,
 *    the instance settings, and the blobs when they are kept in PostgreSQL (AS4 messages and
 *    receipts, UBL, PDFs, attachments).
 * 2. With BLOB_STORE=fs or s3, then every blob of the store: a blob is stored before any event
 *    names it and never removed, so every blob the snapshot's events name is there by then.
 * 3. The data folder's operator key hash and test-mode mail.
 * 4. manifest.json, last: sizes and SHA-256 of every file.
 * See docs/operating/backup-restore.md.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/infrastructure/config.js';
import { createLogger } from '../src/infrastructure/logger.js';
import { openDatabase } from '../src/infrastructure/postgres/database.js';
import { FsBlobStore } from '../src/infrastructure/blobs/fsBlobStore.js';
import { S3BlobStore } from '../src/infrastructure/blobs/s3BlobStore.js';
import { blobRecord, CompressedFile } from '../src/infrastructure/backup/backupFiles.js';
import { dumpDatabase } from '../src/infrastructure/backup/databaseSnapshot.js';
import { BACKUP_FORMAT, DATA_DIR_STATE, type BackupManifest } from '../src/infrastructure/backup/backupManifest.js';

async function main(): Promise<void> {
  const folder = process.argv[2];
  if (!folder) {
    console.error('usage: npm run backup -- <folder>');
    process.exit(2);
  }
  const config = loadConfig();
  if (config.eventStoreUrl || config.mongodbUrl) {
    console.error(
      'The scale-out profile keeps its events in EventStoreDB and its read models and jobs in MongoDB: back them up with their own tools (docs/operating/backup-restore.md).',
    );
    process.exit(2);
  }
  await mkdir(folder, { recursive: true });
  if ((await readdir(folder)).length > 0) {
    console.error(`${folder} is not empty: give a new folder`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel);
  const started = Date.now();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedPort: config.embeddedPostgresPort,
    logger,
  });
  const client = new pg.Client({ connectionString: database.url, application_name: 'invoicing backup' });
  try {
    await client.connect();
    const pack = await CompressedFile.create(folder, 'blobs.pack.gz');
    const snapshot = await dumpDatabase(client, folder, pack);
    const dumped = Date.now();
    const blobs = { ...snapshot.blobs };
    if (config.blobStore.kind !== 'postgres') {
      const store =
        config.blobStore.kind === 'fs'
          ? await FsBlobStore.open(config.blobStore.dir)
          : await S3BlobStore.connect(config.blobStore);
      try {
        for await (const sha256 of store.keys()) {
          const bytes = await store.get(sha256);
          if (!bytes) continue;
          for (const part of blobRecord(sha256, bytes)) await pack.write(part);
          blobs.count++;
          blobs.contentBytes += bytes.length;
        }
      } finally {
        if (store instanceof S3BlobStore) store.close();
      }
    }
    const packed = await pack.finish();
    const files: BackupManifest['files'] = [];
    for (const name of DATA_DIR_STATE) {
      const source = path.join(config.dataDir, name);
      if (!existsSync(source)) continue;
      await cp(source, path.join(folder, 'files', name), { recursive: true });
      for (const file of await filesUnder(path.join(folder, 'files', name))) {
        const bytes = await readFile(file);
        files.push({
          path: path.relative(path.join(folder, 'files'), file),
          file: path.relative(folder, file),
          bytes: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        });
      }
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      snapshot_at: snapshot.snapshotAt,
      finished_at: new Date().toISOString(),
      source: {
        profile: config.databaseUrl ? 'postgres-server' : 'embedded-postgres',
        blob_store: config.blobStore.kind,
        server_version: snapshot.serverVersion,
      },
      head_position: snapshot.headPosition,
      events: snapshot.events,
      tables: snapshot.tables,
      blobs: { ...packed, count: blobs.count, content_bytes: blobs.contentBytes },
      files,
    };
    await writeFile(path.join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
    const size = snapshot.tables.reduce((sum, t) => sum + t.bytes, packed.bytes);
    console.log(
      `backed up ${snapshot.events} events (position ${snapshot.headPosition}) and ${blobs.count} blobs (${mb(blobs.contentBytes)}) ` +
        `as of ${snapshot.snapshotAt} into ${folder}: ${mb(size)} in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(database ${((dumped - started) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await client.end().catch(() => undefined);
    await database.stop();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function filesUnder(entry: string): Promise<string[]> {
  if (!(await stat(entry)).isDirectory()) return [entry];
  const found: string[] = [];
  for (const name of (await readdir(entry)).sort()) found.push(...(await filesUnder(path.join(entry, name))));
  return found;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
