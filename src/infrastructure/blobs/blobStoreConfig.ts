import path from 'node:path';
import type { S3Location } from './s3BlobStore.js';
import { assertNever } from '../../domain/decider.js';
import { SETTINGS } from '../settings/catalogue.js';
import type { Env } from '../settings/setting.js';

/** Where blobs are kept (BLOB_STORE and the variables of the chosen kind); settings/catalogue.ts declares each. */
export type BlobStoreConfig = { kind: 'postgres' } | { kind: 'fs'; dir: string } | ({ kind: 's3' } & S3Location);

/**
 * Reads the blob store's settings, refusing at start what could only fail later: an unknown kind,
 * S3 without a bucket, an endpoint that is not an http(s) URL. Only the chosen kind's variables
 * are read (an S3_BUCKET left set while BLOB_STORE=postgres is ignored).
 */
export function loadBlobStoreConfig(env: Env, dataDir: string): BlobStoreConfig {
  const kind = SETTINGS.BLOB_STORE.read(env);
  switch (kind) {
    case 'postgres':
      return { kind };
    case 'fs':
      return { kind, dir: path.resolve(SETTINGS.BLOB_DIR.read(env) ?? path.join(dataDir, 'blobs')) };
    case 's3':
      return {
        kind,
        bucket: bucket(env),
        prefix: prefix(env),
        endpoint: endpoint(env),
        region: SETTINGS.S3_REGION.read(env) ?? SETTINGS.AWS_REGION.read(env) ?? 'us-east-1',
        forcePathStyle: SETTINGS.S3_FORCE_PATH_STYLE.read(env),
      };
    default:
      return assertNever(kind);
  }
}

function bucket(env: Env): string {
  const name = SETTINGS.S3_BUCKET.read(env);
  if (name === null) throw new Error('S3_BUCKET is required when BLOB_STORE=s3');
  // A name that would change the request's path or host; S3 checks its own finer rules.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(name)) throw new Error(`S3_BUCKET is not a bucket name: "${name}"`);
  return name;
}

/** `invoicing/blobs`, `/invoicing/blobs/` → `invoicing/blobs/`: a folder-like prefix, never a leading slash. */
function prefix(env: Env): string {
  const raw = SETTINGS.S3_PREFIX.read(env);
  if (raw === null) return '';
  const trimmed = raw.replace(/^\/+|\/+$/g, '');
  // Object keys are at most 1024 bytes; the hash takes 64 of them.
  if (
    trimmed.split('/').some((part) => part === '' || part === '.' || part === '..') ||
    /[\x00-\x1f\x7f\\]/.test(trimmed) ||
    Buffer.byteLength(trimmed) > 900
  ) {
    throw new Error(
      `S3_PREFIX must be folder names separated by "/" (no empty, "." or ".." parts, no control characters or backslashes), got "${raw}"`,
    );
  }
  return trimmed === '' ? '' : `${trimmed}/`;
}

function endpoint(env: Env): string | null {
  const raw = SETTINGS.S3_ENDPOINT.read(env);
  if (raw === null) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    // refused below
  }
  if (
    !parsed ||
    !/^https?:$/.test(parsed.protocol) ||
    parsed.search ||
    parsed.hash ||
    parsed.username ||
    parsed.password
  ) {
    throw new Error(
      `S3_ENDPOINT must be an http(s) URL without query or credentials (those come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY), got "${raw}"`,
    );
  }
  return raw.replace(/\/+$/, '');
}
