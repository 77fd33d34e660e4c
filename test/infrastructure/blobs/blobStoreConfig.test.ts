import { expect } from 'chai';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../../src/infrastructure/config.js';
import { loadBlobStoreConfig } from '../../../src/infrastructure/blobs/blobStoreConfig.js';
import { openBlobStore } from '../../../src/infrastructure/blobs/openBlobStore.js';
import { FsBlobStore } from '../../../src/infrastructure/blobs/fsBlobStore.js';
import { PgBlobStore } from '../../../src/infrastructure/blobs/pgBlobStore.js';
import { applyPostgresSchema } from '../../../src/infrastructure/postgres/pgSchema.js';
import { freshDatabase } from '../../support/postgres.js';

describe('Blob store settings', () => {
  it('default to PostgreSQL', () => {
    expect(loadBlobStoreConfig({}, '/data')).to.deep.equal({ kind: 'postgres' });
    expect(loadConfig({}).blobStore).to.deep.equal({ kind: 'postgres' });
  });

  it('ignore the variables of the kinds not chosen', () => {
    expect(
      loadBlobStoreConfig({ BLOB_STORE: 'postgres', S3_ENDPOINT: 'not a url', BLOB_DIR: 'x' }, '/data'),
    ).to.deep.equal({ kind: 'postgres' });
  });

  it('put the filesystem store under DATA_DIR/blobs unless BLOB_DIR says where', () => {
    expect(loadBlobStoreConfig({ BLOB_STORE: 'fs' }, '/data')).to.deep.equal({
      kind: 'fs',
      dir: path.resolve('/data/blobs'),
    });
    expect(loadBlobStoreConfig({ BLOB_STORE: 'fs', BLOB_DIR: '/srv/blobs' }, '/data')).to.deep.equal({
      kind: 'fs',
      dir: '/srv/blobs',
    });
    expect(loadConfig({ BLOB_STORE: 'fs', DATA_DIR: '/var/lib/einvoice' }).blobStore).to.deep.equal({
      kind: 'fs',
      dir: '/var/lib/einvoice/blobs',
    });
  });

  it('read the S3 location, with AWS defaults', () => {
    expect(loadBlobStoreConfig({ BLOB_STORE: 's3', S3_BUCKET: 'invoices' }, '/data')).to.deep.equal({
      kind: 's3',
      bucket: 'invoices',
      prefix: '',
      endpoint: null,
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(
      loadBlobStoreConfig({ BLOB_STORE: 's3', S3_BUCKET: 'invoices', AWS_REGION: 'eu-central-1' }, '/data'),
    ).to.include({ region: 'eu-central-1' });
    expect(
      loadBlobStoreConfig(
        {
          BLOB_STORE: 's3',
          S3_BUCKET: 'invoices',
          S3_PREFIX: '/prod/blobs/',
          S3_ENDPOINT: 'http://minio.internal:9000/',
          S3_REGION: 'local',
          AWS_REGION: 'eu-central-1',
          S3_FORCE_PATH_STYLE: 'TRUE',
        },
        '/data',
      ),
    ).to.deep.equal({
      kind: 's3',
      bucket: 'invoices',
      prefix: 'prod/blobs/',
      endpoint: 'http://minio.internal:9000',
      region: 'local',
      forcePathStyle: true,
    });
  });

  it('refuse at start what would only fail later', () => {
    const refusals: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ BLOB_STORE: 'memory' }, /BLOB_STORE must be one of postgres, fs, s3, got "memory"/],
      [{ BLOB_STORE: 'S3' }, /BLOB_STORE must be one of/],
      [{ BLOB_STORE: 's3' }, /S3_BUCKET is required/],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'a/b' }, /S3_BUCKET is not a bucket name/],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'bb', S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT must be an http\(s\) URL/],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'bb', S3_ENDPOINT: 'ftp://minio' }, /S3_ENDPOINT must be an http\(s\) URL/],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'bb', S3_ENDPOINT: 'https://key:secret@minio' }, /without query or credentials/],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'bb', S3_PREFIX: 'a/../b' }, /S3_PREFIX must be/],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'bb', S3_PREFIX: 'a//b' }, /S3_PREFIX must be/],
      [{ BLOB_STORE: 's3', S3_BUCKET: 'bb', S3_PREFIX: 'a\nb' }, /S3_PREFIX must be/],
      [
        { BLOB_STORE: 's3', S3_BUCKET: 'bb', S3_FORCE_PATH_STYLE: 'yes' },
        /S3_FORCE_PATH_STYLE must be true or false, got "yes"/,
      ],
    ];
    for (const [env, message] of refusals)
      expect(() => loadBlobStoreConfig(env, '/data'), JSON.stringify(env)).to.throw(message);
    expect(() => loadConfig({ BLOB_STORE: 'nfs' })).to.throw(/BLOB_STORE/);
  });
});

describe('openBlobStore', () => {
  it('opens the PostgreSQL store on the service pool and the filesystem store in its folder', async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase('blobs'), max: 2 });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'blobs-open-'));
    try {
      await applyPostgresSchema(pool);
      const inPostgres = await openBlobStore({ kind: 'postgres' }, { pool });
      expect(inPostgres.store).to.be.instanceOf(PgBlobStore);
      const ref = await inPostgres.store.put(Buffer.from('in postgres'));
      expect((await inPostgres.store.get(ref.sha256))!.toString()).to.equal('in postgres');

      const inFolder = await openBlobStore({ kind: 'fs', dir: path.join(dir, 'blobs') }, { pool });
      expect(inFolder.store).to.be.instanceOf(FsBlobStore);
      expect((await stat(path.join(dir, 'blobs', 'tmp'))).isDirectory()).to.equal(true);
      inPostgres.close();
      inFolder.close();
    } finally {
      await pool.end();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
