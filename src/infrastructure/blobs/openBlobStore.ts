import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type pg from 'pg';
import type { BlobStore } from '../../application/ports/blobStore.js';
import type { BlobStoreConfig } from './blobStoreConfig.js';
import { FsBlobStore } from './fsBlobStore.js';
import { PgBlobStore } from './pgBlobStore.js';

/** The opened blob store (`{ store, close }`), closed with the service. */
export const BLOBS = Symbol('Blobs');

/**
 * The blob store BLOB_STORE names, ready for use (its folder made, its bucket checked), and how to
 * let it go. `pool` is the service's PostgreSQL pool, on which the schema (table `blobs`) is
 * applied at start. The composition root (composition/shared.ts) opens it once per service.
 */
export async function openBlobStore(
  config: BlobStoreConfig,
  resources: { pool: pg.Pool; s3Credentials?: S3ClientConfig['credentials'] },
): Promise<{ store: BlobStore; close(): void }> {
  switch (config.kind) {
    case 'postgres':
      return { store: new PgBlobStore(resources.pool), close: () => undefined };
    case 'fs':
      return { store: await FsBlobStore.open(config.dir), close: () => undefined };
    case 's3': {
      // Loaded only here: the S3 client costs a third of a second of every start that has no use for it.
      const { S3BlobStore } = await import('./s3BlobStore.js');
      const store = await S3BlobStore.connect(config, resources.s3Credentials);
      return { store, close: () => store.close() };
    }
  }
}
