import path from 'node:path';
import type { S3Location } from './s3BlobStore.js';

/** Where blobs are kept (BLOB_STORE and the variables of the chosen kind); see the README's table. */
export type BlobStoreConfig = { kind: 'postgres' } | { kind: 'fs'; dir: string } | ({ kind: 's3' } & S3Location);

const KINDS = ['postgres', 'fs', 's3'] as const;

const optional = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

/**
 * Reads the blob store's settings, refusing at start what could only fail later: an unknown kind,
 * S3 without a bucket, an endpoint that is not an http(s) URL. Only the chosen kind's variables
 * are read (an S3_BUCKET left set while BLOB_STORE=postgres is ignored).
 */
export function loadBlobStoreConfig(env: NodeJS.ProcessEnv, dataDir: string): BlobStoreConfig {
  const kind = optional(env.BLOB_STORE) ?? 'postgres';
  switch (kind) {
    case 'postgres':
      return { kind };
    case 'fs':
      return { kind, dir: path.resolve(optional(env.BLOB_DIR) ?? path.join(dataDir, 'blobs')) };
    case 's3':
      return {
        kind,
        bucket: bucket(env),
        prefix: prefix(env),
        endpoint: endpoint(env),
        region: optional(env.S3_REGION) ?? optional(env.AWS_REGION) ?? 'us-east-1',
        forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE'),
      };
    default:
      throw new Error(`BLOB_STORE must be one of ${KINDS.join(', ')}, got "${kind}"`);
  }
}

function bucket(env: NodeJS.ProcessEnv): string {
  const name = optional(env.S3_BUCKET);
  if (name === null) throw new Error('S3_BUCKET is required when BLOB_STORE=s3');
  // A name that would change the request's path or host; S3 checks its own finer rules.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(name)) throw new Error(`S3_BUCKET is not a bucket name: "${name}"`);
  return name;
}

/** `invoicing/blobs`, `/invoicing/blobs/` → `invoicing/blobs/`: a folder-like prefix, never a leading slash. */
function prefix(env: NodeJS.ProcessEnv): string {
  const raw = optional(env.S3_PREFIX);
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

function endpoint(env: NodeJS.ProcessEnv): string | null {
  const raw = optional(env.S3_ENDPOINT);
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

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = optional(env[name])?.toLowerCase() ?? 'false';
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, got "${env[name]}"`);
  return raw === 'true';
}
