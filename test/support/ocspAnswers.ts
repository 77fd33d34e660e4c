import { execFile } from 'node:child_process';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createPrivateKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { TAG } from '../../src/infrastructure/peppol/derReader.js';
import { derNull, explicit, octetString, oid, sequence, tlv } from '../../src/infrastructure/peppol/derWriter.js';
import { certificateFields } from '../../src/infrastructure/peppol/certificateDer.js';
import { keyHashOf, type CertId } from '../../src/infrastructure/peppol/ocspMessages.js';
import { makeTestPki } from './testPki.js';

/**
 * OCSP responses written byte by byte, signed with the test PKI's keys: every field and every
 * fault an OCSP response can have, without a responder process (the openssl responder suite,
 * ocspChecker.test.ts, shows the real thing). For the unit suites that mutation testing runs.
 */

export const OCSP_TEST_URL = 'http://ocsp.test/responder';

export interface Signer {
  certificate: X509Certificate;
  key: KeyObject;
}

export interface OcspPki {
  /** The AP CA, the issuer of every certificate below but `untrusted`. */
  ca: Signer;
  /** Its delegated responder (id-kp-OCSPSigning). */
  responder: Signer;
  /** An AP certificate naming OCSP_TEST_URL, and its key (a CA-issued certificate not for OCSP signing). */
  leaf: Signer;
  /** Another AP certificate of the same CA, naming OCSP_TEST_URL too. */
  other: X509Certificate;
  /** An AP certificate from a root the AP CA has nothing to do with. */
  untrusted: Signer;
  /**
   * A responder certificate for OCSP signing whose issuer is named as the AP CA but which another key
   * signed (a self-made CA of the same name): what only the signature check tells apart.
   */
  forged: Signer;
}

let pki: Promise<OcspPki> | undefined;

/** The PEMs of the test PKI this suite uses, as kept between processes. */
type PkiPems = Record<keyof OcspPki, { certificate: string; key: string | null }>;
const KEPT = path.join(os.tmpdir(), 'invoicing-ocsp-answers-pki-3.json');
const KEPT_FOR_MS = 12 * 3600_000;

/** A CA named as `caCertificateFile`'s subject with a key of its own, and a responder certificate it signs. */
async function forgeResponder(caCertificateFile: string, dir: string): Promise<{ certificate: string; key: string }> {
  const run = (...args: string[]) => promisify(execFile)('openssl', args);
  const subject = '/' + new X509Certificate(await readFile(caCertificateFile)).subject.split('\n').join('/');
  const file = (name: string) => path.join(dir, name);
  await writeFile(
    file('ext.cnf'),
    'extendedKeyUsage = critical, OCSPSigning\nsubjectKeyIdentifier = none\nauthorityKeyIdentifier = none\n',
  );
  await run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '30',
    '-subj',
    subject,
    '-keyout',
    file('fake-ca.key'),
    '-out',
    file('fake-ca.pem'),
  );
  await run(
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=Forged OCSP Responder',
    '-keyout',
    file('forged.key'),
    '-out',
    file('forged.csr'),
  );
  await run(
    'x509',
    '-req',
    '-in',
    file('forged.csr'),
    '-CA',
    file('fake-ca.pem'),
    '-CAkey',
    file('fake-ca.key'),
    '-set_serial',
    '7',
    '-days',
    '30',
    '-extfile',
    file('ext.cnf'),
    '-out',
    file('forged.pem'),
  );
  return { certificate: await readFile(file('forged.pem'), 'utf8'), key: await readFile(file('forged.key'), 'utf8') };
}

async function makePems(): Promise<PkiPems> {
  const made = await makeTestPki({ instances: 1, ocspUrl: OCSP_TEST_URL });
  try {
    const pems = async (certificateFile: string, keyFile: string | null) => ({
      certificate: await readFile(certificateFile, 'utf8'),
      key: keyFile ? await readFile(keyFile, 'utf8') : null,
    });
    return {
      ca: await pems(made.apCaCertificateFile, made.apCaKeyFile),
      responder: await pems(made.ocspResponderCertificateFile, made.ocspResponderKeyFile),
      leaf: await pems(made.instance(1).certificateFile, made.instance(1).keyFile),
      other: await pems(made.revoked.certificateFile, null),
      untrusted: await pems(made.untrusted.certificateFile, made.untrusted.keyFile),
      forged: await forgeResponder(made.apCaCertificateFile, made.dir),
    };
  } finally {
    await made.dispose();
  }
}

/**
 * The test PKI (keys, no secrets of anyone's), made once and kept for half a day in the temporary
 * folder: its keys take seconds to make (a minute on a loaded machine), and a mutation run starts
 * these suites afresh for every mutant of a module's top level.
 */
export function ocspPki(): Promise<OcspPki> {
  pki ??= (async () => {
    let pems: PkiPems;
    try {
      if (Date.now() - (await stat(KEPT)).mtimeMs > KEPT_FOR_MS) throw new Error('too old');
      pems = JSON.parse(await readFile(KEPT, 'utf8')) as PkiPems;
    } catch {
      pems = await makePems();
      const temporary = `${KEPT}.${process.pid}`;
      await writeFile(temporary, JSON.stringify(pems));
      await rename(temporary, KEPT);
    }
    const signer = (p: { certificate: string; key: string | null }): Signer => ({
      certificate: new X509Certificate(p.certificate),
      key: createPrivateKey(p.key!),
    });
    return {
      ca: signer(pems.ca),
      responder: signer(pems.responder),
      leaf: signer(pems.leaf),
      other: new X509Certificate(pems.other.certificate),
      untrusted: signer(pems.untrusted),
      forged: signer(pems.forged),
    };
  })();
  return pki;
}

const SHA1 = '1.3.14.3.2.26';
const BASIC = '1.3.6.1.5.5.7.48.1.1';
export const NONCE = '1.3.6.1.5.5.7.48.1.2';
const SHA256_RSA = '1.2.840.113549.1.1.11';

export const generalizedTime = (at: Date): Buffer =>
  tlv(TAG.generalizedTime, Buffer.from(at.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z', 'latin1'));

export function certIdDer(id: CertId, hashOid = SHA1): Buffer {
  return sequence(
    sequence(oid(hashOid), derNull()),
    octetString(id.issuerNameHash),
    octetString(id.issuerKeyHash),
    tlv(TAG.integer, id.serial),
  );
}

export const GOOD = tlv(0x80);
export const UNKNOWN = tlv(0x82);
/** revoked [1] { revocationTime, [0] reason (a CRLReason code) } */
export const revokedStatus = (at: Date, reason: number | null): Buffer =>
  explicit(
    1,
    generalizedTime(at),
    ...(reason === null ? [] : [explicit(0, tlv(TAG.enumerated, Buffer.from([reason])))]),
  );

export function extension(id: string, value: Buffer, critical?: boolean): Buffer {
  return sequence(
    oid(id),
    ...(critical === undefined ? [] : [tlv(TAG.boolean, Buffer.from([critical ? 0xff : 0]))]),
    octetString(value),
  );
}

export interface SingleFields {
  certId: CertId;
  hashOid?: string;
  status?: Buffer;
  thisUpdate: Date;
  nextUpdate?: Date | null;
  extensions?: Buffer[];
}

export const singleResponse = (s: SingleFields): Buffer =>
  sequence(
    certIdDer(s.certId, s.hashOid),
    s.status ?? GOOD,
    generalizedTime(s.thisUpdate),
    ...(s.nextUpdate ? [explicit(0, generalizedTime(s.nextUpdate))] : []),
    ...(s.extensions ? [explicit(1, sequence(...s.extensions))] : []),
  );

export interface BasicFields {
  signer: Signer;
  singles: Buffer[];
  /** How the ResponderID names the signer (default by key hash); a Buffer is the whole ResponderID. */
  responderId?: 'byName' | 'byKey' | Buffer;
  producedAt?: Date;
  /** The version field's INTEGER content, or none (the default). */
  version?: number;
  extensions?: Buffer[];
  certificates?: X509Certificate[];
  /** The signatureAlgorithm's OID (default sha256WithRSAEncryption, with NULL parameters). */
  algorithm?: Buffer;
  /** Changes the signature bytes (BIT STRING content, unused-bits byte first) before they are written. */
  signatureBits?: (bits: Buffer) => Buffer;
}

export function basicResponse(b: BasicFields): Buffer {
  const responderId =
    b.responderId instanceof Buffer
      ? b.responderId
      : b.responderId === 'byName'
        ? explicit(1, certificateFields(b.signer.certificate).subject.encoded)
        : explicit(2, octetString(keyHashOf(b.signer.certificate)));
  const tbs = sequence(
    ...(b.version === undefined ? [] : [explicit(0, tlv(TAG.integer, Buffer.from([b.version])))]),
    responderId,
    generalizedTime(b.producedAt ?? new Date()),
    sequence(...b.singles),
    ...(b.extensions ? [explicit(1, sequence(...b.extensions))] : []),
  );
  const bits = Buffer.concat([Buffer.from([0]), sign('sha256', tbs, b.signer.key)]);
  return sequence(
    tbs,
    b.algorithm ?? sequence(oid(SHA256_RSA), derNull()),
    tlv(TAG.bitString, b.signatureBits ? b.signatureBits(bits) : bits),
    ...(b.certificates ? [explicit(0, sequence(...b.certificates.map((c) => c.raw)))] : []),
  );
}

/** An OCSPResponse: a status code and, when given, the response bytes of `type` (default basic). */
export function ocspResponseDer(status: number, basic: Buffer | null, type = BASIC): Buffer {
  return sequence(
    tlv(TAG.enumerated, Buffer.from([status])),
    ...(basic ? [explicit(0, sequence(oid(type), octetString(basic)))] : []),
  );
}
