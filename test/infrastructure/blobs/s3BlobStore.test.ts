import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createS3Client, S3BlobStore, type S3Location } from '../../../src/infrastructure/blobs/s3BlobStore.js';
import { openBlobStore } from '../../../src/infrastructure/blobs/openBlobStore.js';
import { blobStoreContract } from '../../contracts/blobStoreContract.js';
import { describeWithS3, testS3 } from '../../support/s3.js';

async function count(client: S3Client, bucket: string, prefix: string): Promise<number> {
  let total = 0;
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    total += page.KeyCount ?? page.Contents?.length ?? 0;
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return total;
}

// Runs against S3_TEST_URL, else against the gofakes3 server .ci/run builds; without either it is
// skipped with a warning (a failure in CI).
describeWithS3('S3 blob store', () => {
  blobStoreContract('S3', async () => {
    const { location, credentials } = await testS3();
    const prefix = `contract-${randomBytes(6).toString('hex')}/`;
    const client = createS3Client({ ...location, prefix }, credentials);
    // Nothing listens on port 9 (discard): every request fails to connect.
    const nowhere = createS3Client({ ...location, prefix, endpoint: 'http://127.0.0.1:9' }, credentials);
    return {
      store: new S3BlobStore(client, location.bucket, prefix),
      corrupt: async (sha256) => {
        const key = `${prefix}${sha256}`;
        const object = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key }));
        const bytes = Buffer.from(await object.Body!.transformToByteArray());
        bytes[0] = bytes[0]! ^ 1;
        await client.send(new PutObjectCommand({ Bucket: location.bucket, Key: key, Body: bytes }));
      },
      count: () => count(client, location.bucket, prefix),
      unreachable: () => new S3BlobStore(nowhere, location.bucket, prefix),
      dispose: async () => {
        nowhere.destroy();
        client.destroy();
      },
    };
  });

  describe('S3 specifics', () => {
    let location: Omit<S3Location, 'prefix'>;
    let credentials: Awaited<ReturnType<typeof testS3>>['credentials'];
    before(async () => {
      ({ location, credentials } = await testS3());
    });

    it('keeps a blob as <prefix><sha256> with the media type as Content-Type', async () => {
      const prefix = `layout-${randomBytes(4).toString('hex')}/`;
      const client = createS3Client({ ...location, prefix }, credentials);
      try {
        const store = new S3BlobStore(client, location.bucket, prefix);
        const ref = await store.put(Buffer.from('<Invoice/>'), { mediaType: 'application/xml' });
        const head = await client.send(
          new HeadObjectCommand({ Bucket: location.bucket, Key: `${prefix}${ref.sha256}` }),
        );
        expect(head.ContentLength).to.equal(10);
        expect(head.ContentType).to.equal('application/xml');
      } finally {
        client.destroy();
      }
    });

    it('is opened for BLOB_STORE=s3 once its bucket answers, and refuses a missing bucket at start', async () => {
      const prefix = `open-${randomBytes(4).toString('hex')}/`;
      const opened = await openBlobStore(
        { kind: 's3', ...location, prefix },
        { pool: null as never, s3Credentials: credentials },
      );
      try {
        const ref = await opened.store.put(Buffer.from('via openBlobStore'));
        expect((await opened.store.get(ref.sha256))!.toString()).to.equal('via openBlobStore');
      } finally {
        opened.close();
      }
      const missing = await S3BlobStore.connect(
        { ...location, prefix, bucket: `missing-${randomBytes(4).toString('hex')}` },
        credentials,
      ).then(
        () => null,
        (e: Error) => e,
      );
      expect(missing?.message).to.match(/^S3 bucket missing-[0-9a-f]{8} cannot be used: HTTP 404/);
    });
  });
});

describe('S3 blob store on the wire', () => {
  it('signs the SHA-256 of the bytes it uploads (x-amz-content-sha256: the blob key), so S3 refuses bytes altered on the way', async () => {
    // A plain HTTP server that records what the adapter sends (every S3 server checks this header).
    const seen: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders }> = [];
    const server = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers });
      req.resume();
      req.on('end', () => res.writeHead(200, { ETag: '"x"' }).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const location = {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'eu-west-1',
      bucket: 'evidence',
      prefix: 'p/',
      forcePathStyle: true,
    };
    const client = createS3Client(location, { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' });
    try {
      const ref = await new S3BlobStore(client, 'evidence', 'p/').put(Buffer.from('<Invoice/>'), {
        mediaType: 'application/xml',
      });
      expect(seen).to.have.length(1);
      expect(seen[0]!.method).to.equal('PUT');
      expect(new URL(seen[0]!.url!, 'http://x').pathname).to.equal(`/evidence/p/${ref.sha256}`);
      expect(seen[0]!.headers['x-amz-content-sha256']).to.equal(ref.sha256);
      expect(seen[0]!.headers.authorization).to.match(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=[^,]*x-amz-content-sha256/,
      );
      expect(seen[0]!.headers['content-type']).to.equal('application/xml');
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
