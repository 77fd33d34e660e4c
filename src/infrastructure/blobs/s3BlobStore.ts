import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { pipeline, type Readable } from 'node:stream';
import { assertBlobKey, blobMediaType, type BlobRef, type BlobStore } from '../../application/ports/blobStore.js';
import { checkedBytes, checkingStream, sha256HexInTurns } from './blobDigest.js';

/** Where the S3 adapter keeps blobs: `<bucket>/<prefix><sha256>`. */
export interface S3Location {
  /** A server other than AWS's (an S3-compatible one); null: AWS S3 in `region`. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** Empty, or ending in `/`. */
  prefix: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`: what most S3-compatible servers need. */
  forcePathStyle: boolean;
}

/**
 * The client for a location. Credentials: the given ones (tests), else the AWS SDK's default
 * chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, AWS_PROFILE, web
 * identity, container and instance roles).
 */
export function createS3Client(location: S3Location, credentials?: S3ClientConfig['credentials']): S3Client {
  return new S3Client({
    region: location.region,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    forcePathStyle: location.forcePathStyle,
    ...(credentials ? { credentials } : {}),
    // Every blob's SHA-256 is checked on read by the adapter itself, and the upload's SHA-256 is
    // signed (x-amz-content-sha256). The SDK's extra CRC32 checksums, on by default since early
    // 2025, add nothing to that and are refused by some S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The SDK waits for ever by default; a blob read is on a request's path.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

/**
 * Blobs as objects in an S3 bucket (AWS S3 or an S3-compatible server), for the scale-out profile:
 * object `<prefix><sha256>` (no fan-out: S3 spreads keys by itself, and hashes are evenly spread).
 * The bucket is not created here: it is the operator's, with its own retention and replication.
 * The credentials need s3:GetObject, s3:PutObject and s3:ListBucket (without it S3 answers a
 * missing object with 403 instead of 404, and `has` and `get` fail instead of saying "none").
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  /** The store at `location`, after checking that its bucket answers (a wrong bucket or key fails at start, not at the first document). */
  static async connect(location: S3Location, credentials?: S3ClientConfig['credentials']): Promise<S3BlobStore> {
    const client = createS3Client(location, credentials);
    try {
      await client.send(new HeadBucketCommand({ Bucket: location.bucket }));
    } catch (error) {
      client.destroy();
      throw new Error(`S3 bucket ${location.bucket} cannot be used: ${describeS3Error(error)}`, { cause: error });
    }
    return new S3BlobStore(client, location.bucket, location.prefix);
  }

  /**
   * Always uploads, even when the object is there: one request either way (a HEAD first would
   * cost a round trip on every new blob to save an upload on the rare repeat), and the upload
   * replaces a corrupted copy. Concurrent uploads of the same bytes: S3 keeps one of them whole.
   */
  async put(bytes: Uint8Array, options: { mediaType?: string } = {}): Promise<BlobRef> {
    const mediaType = blobMediaType(options.mediaType);
    const sha256 = await sha256HexInTurns(bytes);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(sha256),
        Body: bytes,
        ContentLength: bytes.length,
        // For whoever browses the bucket; nothing here reads it back (the reference keeps the type).
        ContentType: mediaType,
      }),
    );
    return { sha256, size: bytes.length, mediaType };
  }

  async get(sha256: string): Promise<Buffer | null> {
    assertBlobKey(sha256);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
      const bytes = await object.Body!.transformToByteArray();
      return await checkedBytes(sha256, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (error) {
      if (errorName(error) === 'NoSuchKey') return null;
      throw error;
    }
  }

  async has(sha256: string): Promise<boolean> {
    assertBlobKey(sha256);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
      return true;
    } catch (error) {
      // A HEAD answer has no body, so no error code: a 404 is the object's absence (a missing
      // bucket would be one too, which `connect` rules out at start).
      if (errorName(error) === 'NotFound' || httpStatus(error) === 404) return false;
      throw error;
    }
  }

  async stream(sha256: string): Promise<Readable | null> {
    assertBlobKey(sha256);
    let body: Readable;
    let size: number | undefined;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
      body = object.Body as Readable;
      size = object.ContentLength;
    } catch (error) {
      if (errorName(error) === 'NoSuchKey') return null;
      throw error;
    }
    const checker = checkingStream(sha256, size);
    // A broken connection reaches the consumer through the checker; abandoning the checker frees the connection.
    pipeline(body, checker, () => undefined);
    return checker;
  }

  /** Every key stored under the prefix, a page of 1,000 at a time (backups: scripts/backup.ts). */
  async *keys(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.prefix.length) ?? '';
        if (/^[0-9a-f]{64}$/.test(key)) yield key;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Releases the client's sockets. */
  close(): void {
    this.client.destroy();
  }

  private keyOf(sha256: string): string {
    return `${this.prefix}${sha256}`;
  }
}

function errorName(error: unknown): string | undefined {
  return (error as { name?: string } | null)?.name;
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function describeS3Error(error: unknown): string {
  const status = httpStatus(error);
  const name = errorName(error);
  const message = error instanceof Error ? error.message : String(error);
  return [
    status ? `HTTP ${status}` : null,
    name && name !== 'Error' ? name : null,
    message && message !== 'UnknownError' ? message : null,
  ]
    .filter((part) => part !== null)
    .join(': ');
}
