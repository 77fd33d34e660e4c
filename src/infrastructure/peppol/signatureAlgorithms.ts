import { DerCursor, DerError, TAG, type Der } from './derReader.js';

/** A signature algorithm of X.509 structures (certificates, CRLs, OCSP responses) that node:crypto verifies. */
export interface SignatureAlgorithm {
  name: string;
  hash: 'sha256' | 'sha384' | 'sha512';
  key: 'rsa' | 'ec';
}

// AlgorithmIdentifier OIDs, as DER content hex. SHA-1 and MD5 signatures are refused.
const ALGORITHMS = new Map<string, SignatureAlgorithm>([
  ['2a864886f70d01010b', { name: 'sha256WithRSAEncryption', hash: 'sha256', key: 'rsa' }],
  ['2a864886f70d01010c', { name: 'sha384WithRSAEncryption', hash: 'sha384', key: 'rsa' }],
  ['2a864886f70d01010d', { name: 'sha512WithRSAEncryption', hash: 'sha512', key: 'rsa' }],
  ['2a8648ce3d040302', { name: 'ecdsa-with-SHA256', hash: 'sha256', key: 'ec' }],
  ['2a8648ce3d040303', { name: 'ecdsa-with-SHA384', hash: 'sha384', key: 'ec' }],
  ['2a8648ce3d040304', { name: 'ecdsa-with-SHA512', hash: 'sha512', key: 'ec' }],
]);

/** Dotted form of an OID's content, for messages. */
export function oidText(content: Buffer): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  const first = arcs.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/** Reads a signature AlgorithmIdentifier; one not listed above is an error naming it. */
export function readAlgorithm(der: Der): SignatureAlgorithm {
  const cursor = DerCursor.of(der);
  const oid = cursor.next(TAG.oid, 'signature algorithm');
  const algorithm = ALGORITHMS.get(oid.content.toString('hex'));
  if (!algorithm)
    throw new DerError(
      `signature algorithm ${oidText(oid.content)} is not supported (RSA or ECDSA with SHA-256/384/512)`,
    );
  // RSA carries NULL parameters (or, rarely, none); ECDSA none.
  const parameters = cursor.optional(TAG.null, 'algorithm parameters');
  if (parameters && (algorithm.key !== 'rsa' || parameters.content.length !== 0))
    throw new DerError(`unexpected parameters of ${algorithm.name}`);
  cursor.end('the signature algorithm');
  return algorithm;
}
