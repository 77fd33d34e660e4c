import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createS3Client, type S3Location } from '../../src/infrastructure/blobs/s3BlobStore.js';
import {
  describeRequiring,
  startHelperServer,
  stopHelperServer,
  urlOrBinary,
  type HelperServer,
} from './helperServer.js';

/**
 * The S3-compatible server the S3 blob store's suite runs against:
 *  - S3_TEST_URL, when set (MinIO, AWS, any S3-compatible server of your own), with the bucket
 *    S3_TEST_BUCKET (default `invoicing-blob-test`, created when missing), S3_TEST_REGION
 *    (default us-east-1), path-style addressing unless S3_TEST_PATH_STYLE=false, and the
 *    credentials of AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY;
 *  - else gofakes3, when its binary is there (S3SERVER_BIN, or .ci/bin/s3server as `.ci/run`
 *    builds it): started once per test run on a free loopback port, and stopped after every
 *    suite (test/setup.ts);
 *  - else none: the suite is skipped with a printed warning, and fails under CI=true.
 * Each suite works under a prefix of its own, so runs never see each other's objects.
 */
export interface TestS3 {
  location: Omit<S3Location, 'prefix'>;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

const SERVER_BUCKET = 'invoicing-blob-test';

const s3Target = () =>
  urlOrBinary({
    urlEnv: 'S3_TEST_URL',
    binEnv: 'S3SERVER_BIN',
    binName: 's3server',
    server: 'the S3 test server',
    buildScript: '.ci/build-s3',
  });

/** Registers `body` when an S3-compatible server can be had. */
export function describeWithS3(what: string, body: () => void): void {
  describeRequiring(what, 'an S3-compatible server', s3Target(), body);
}

let server: HelperServer | null = null;
let starting: Promise<TestS3> | null = null;

/** Where the test bucket is, starting the server on first use when that is the target. */
export async function testS3(): Promise<TestS3> {
  const target = s3Target();
  if (target.kind === 'none') throw new Error(target.why);
  starting ??= (target.kind === 'url' ? externalS3(target.url) : startS3Server(target.bin)).catch((error: unknown) => {
    starting = null;
    throw error;
  });
  return starting;
}

async function externalS3(url: string): Promise<TestS3> {
  const {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = process.env;
  // Explicit credentials only: the SDK's default chain would go on to ask an instance-metadata
  // address, which a test must never do.
  if (!accessKeyId || !secretAccessKey)
    throw new Error('S3_TEST_URL needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const s3: TestS3 = {
    location: {
      endpoint: url,
      region: process.env.S3_TEST_REGION || 'us-east-1',
      bucket: process.env.S3_TEST_BUCKET || SERVER_BUCKET,
      forcePathStyle: process.env.S3_TEST_PATH_STYLE !== 'false',
    },
    credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) },
  };
  const client = createS3Client({ ...s3.location, prefix: '' }, s3.credentials);
  try {
    await client.send(new CreateBucketCommand({ Bucket: s3.location.bucket }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  } finally {
    client.destroy();
  }
  return s3;
}

async function startS3Server(bin: string): Promise<TestS3> {
  server = await startHelperServer({
    name: 'the S3 test server',
    bin,
    args: ['-listen', '127.0.0.1:0', '-bucket', SERVER_BUCKET],
    urlPattern: /http:\/\/\S+/,
    readyWithinMs: 30_000,
    onUnexpectedExit: () => {
      server = null;
      starting = null;
    },
  });
  const endpoint = server.url;
  // gofakes3 checks no signatures, but the SDK signs every request and needs something to sign with.
  const s3: TestS3 = {
    location: { endpoint, region: 'us-east-1', bucket: SERVER_BUCKET, forcePathStyle: true },
    credentials: { accessKeyId: 'test', secretAccessKey: 'test-secret' },
  };
  console.log(`    S3 test server (gofakes3) on ${endpoint}`);
  return s3;
}

/** Stops the S3 test server this run started, if any. */
export async function stopTestS3(): Promise<void> {
  const running = server;
  server = null;
  starting = null;
  await stopHelperServer(running);
}
