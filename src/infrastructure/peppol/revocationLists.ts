import fs from 'node:fs';
import { verify, X509Certificate } from 'node:crypto';
import { DerCursor, DerError, integerHex, readDer, readTime, TAG, type Der } from './derReader.js';
import { certificateFields } from './certificateDer.js';
import { oidText, readAlgorithm, type SignatureAlgorithm } from './signatureAlgorithms.js';
import { commonNameOf, oneLineName } from './certificates.js';

/**
 * X.509 CRLs (RFC 5280 CertificateList) of the Peppol AP CAs, read by a strict DER reader (node:crypto
 * reads certificates, not CRLs) and each verified against the CA that signed it when loaded: a file
 * that is not a CRL, or that no configured CA signed, refuses the start.
 *
 * A CRL past its nextUpdate is still used, with one warning: what it lists stays revoked, and
 * refusing every access point because the operator has not fetched the new list yet would stop all
 * traffic. Certificates of a CA without a CRL here are not checked for revocation (a warning at load
 * says which CAs). Delta CRLs, indirect CRLs and CRLs scoped by an issuing distribution point carry
 * critical extensions this reader does not process, so they are refused rather than misread.
 */

/** Refused files: larger than any real CA's CRL (the Peppol AP CA's is a few KB). */
export const MAX_CRL_FILE_BYTES = 16 * 1024 * 1024;

export interface RevokedEntry {
  date: Date;
  reason: string | null;
}

/** A CRL as encoded, its signature not yet checked. */
export interface CertificateList {
  /** The signed part, tbsCertList, as encoded. */
  signed: Buffer;
  algorithm: SignatureAlgorithm;
  signature: Buffer;
  /** The issuer Name as encoded: compared byte for byte with the CA's subject. */
  issuer: Buffer;
  thisUpdate: Date;
  nextUpdate: Date | null;
  /** Normalized upper-case hex serial → revocation. */
  revoked: Map<string, RevokedEntry>;
}

const REASON_CODE_OID = '551d15';
const REASONS = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  null,
  'removeFromCRL',
  'privilegeWithdrawn',
  'aACompromise',
];

interface Extension {
  oid: string;
  critical: boolean;
  value: Buffer;
}

function readExtensions(der: Der, what: string): Extension[] {
  const cursor = DerCursor.of(der);
  const extensions: Extension[] = [];
  while (!cursor.done) {
    const extension = DerCursor.of(cursor.next(TAG.sequence, what));
    const oid = extension.next(TAG.oid, `${what} id`).content.toString('hex');
    const criticalFlag = extension.optional(TAG.boolean, `${what} critical flag`);
    if (criticalFlag && (criticalFlag.content.length !== 1 || ![0x00, 0xff].includes(criticalFlag.content[0]!)))
      throw new DerError(`bad critical flag of ${what} at offset ${criticalFlag.offset}`);
    const value = extension.next(TAG.octetString, `${what} value`).content;
    extension.end(what);
    extensions.push({ oid, critical: criticalFlag?.content[0] === 0xff, value });
  }
  if (extensions.length === 0) throw new DerError(`empty ${what}s at offset ${der.offset}`);
  for (const e of extensions)
    if (e.critical)
      throw new DerError(
        `critical ${what} ${oidText(Buffer.from(e.oid, 'hex'))} is not processed here (delta, indirect or partitioned CRLs are not supported)`,
      );
  return extensions;
}

/** The name of a CRLReason (an ENUMERATED, RFC 5280 5.3.1), as CRL entries and OCSP answers carry it. */
export function crlReasonName(enumerated: Der): string {
  const code = enumerated.content;
  const name = enumerated.tag === TAG.enumerated && code.length === 1 ? REASONS[code[0]!] : undefined;
  if (!name) throw new DerError(`unknown revocation reason code ${code.toString('hex')}`);
  return name;
}

function reasonOf(extensions: Extension[]): string | null {
  const reason = extensions.find((e) => e.oid === REASON_CODE_OID);
  if (!reason) return null;
  const name = crlReasonName(readDer(reason.value, TAG.enumerated, 'reason code'));
  // removeFromCRL only means something in a delta CRL, which this reader does not take.
  if (name === 'removeFromCRL') throw new DerError('a removeFromCRL entry outside a delta CRL');
  return name;
}

/** Parses one DER CertificateList (RFC 5280 section 5.1) without checking its signature. */
export function parseCertificateList(bytes: Buffer): CertificateList {
  const outer = DerCursor.of(readDer(bytes, TAG.sequence, 'CertificateList'));
  const tbs = outer.next(TAG.sequence, 'tbsCertList');
  const algorithmDer = outer.next(TAG.sequence, 'signatureAlgorithm');
  const bits = outer.next(TAG.bitString, 'signatureValue');
  outer.end('the CertificateList');
  if (bits.content.length < 2 || bits.content[0] !== 0)
    throw new DerError('the signature is not a whole-byte BIT STRING');

  const fields = DerCursor.of(tbs);
  const version = fields.optional(TAG.integer, 'version');
  if (version && integerHex(version) !== '1') throw new DerError('only version 2 CRLs carry a version (v2 = 1)');
  const innerAlgorithm = fields.next(TAG.sequence, 'signature');
  if (!innerAlgorithm.encoded.equals(algorithmDer.encoded))
    throw new DerError('tbsCertList.signature differs from signatureAlgorithm');
  const issuer = fields.next(TAG.sequence, 'issuer');
  const thisUpdateDer = fields.next(undefined, 'thisUpdate');
  const thisUpdate = readTime(thisUpdateDer, 'thisUpdate');
  const nextTag = fields.peek();
  const nextUpdate =
    nextTag === TAG.utcTime || nextTag === TAG.generalizedTime ? readTime(fields.next(), 'nextUpdate') : null;

  const revoked = new Map<string, RevokedEntry>();
  const list = fields.optional(TAG.sequence, 'revokedCertificates');
  if (list) {
    const entries = DerCursor.of(list);
    if (entries.done) throw new DerError('empty revokedCertificates (omitted when empty)');
    while (!entries.done) {
      const entry = DerCursor.of(entries.next(TAG.sequence, 'revoked certificate'));
      const serial = integerHex(entry.next(TAG.integer, 'userCertificate'));
      const date = readTime(entry.next(undefined, 'revocationDate'), 'revocationDate');
      const extensions = entry.optional(TAG.sequence, 'crlEntryExtensions');
      entry.end('a revoked certificate');
      if (extensions && !version) throw new DerError('entry extensions in a version 1 CRL');
      revoked.set(serial, {
        date,
        reason: extensions ? reasonOf(readExtensions(extensions, 'entry extension')) : null,
      });
    }
  }
  const crlExtensions = fields.optional(0xa0, 'crlExtensions');
  if (crlExtensions) {
    if (!version) throw new DerError('extensions in a version 1 CRL');
    const inner = DerCursor.of(crlExtensions);
    readExtensions(inner.next(TAG.sequence, 'CRL extension'), 'CRL extension');
    inner.end('crlExtensions');
  }
  fields.end('tbsCertList');
  return {
    signed: tbs.encoded,
    algorithm: readAlgorithm(algorithmDer),
    signature: bits.content.subarray(1),
    issuer: issuer.encoded,
    thisUpdate,
    nextUpdate,
    revoked,
  };
}

const subjectDer = (certificate: X509Certificate): Buffer => certificateFields(certificate).subject.encoded;

/**
 * The serial number of a certificate as CRL serials are kept here: the INTEGER's two's-complement
 * content in upper-case hex without leading zeros (so 00-padded positive serials match either way).
 */
export const serialOf = (certificate: X509Certificate): string => integerHex(certificateFields(certificate).serial);

/** The DER CRLs of a file: PEM blocks ("X509 CRL"), else the file as one DER CRL. */
export function crlsOfFile(bytes: Buffer): Buffer[] {
  const text = bytes.toString('latin1');
  if (!text.includes('-----BEGIN')) return [bytes];
  const blocks = [...text.matchAll(/-----BEGIN X509 CRL-----([A-Za-z0-9+/=\s]+?)-----END X509 CRL-----/g)];
  if (blocks.length === 0) throw new DerError('a PEM file without an "X509 CRL" block');
  return blocks.map((b) => Buffer.from(b[1]!.replace(/\s+/g, ''), 'base64'));
}

interface LoadedList extends CertificateList {
  source: string;
  ca: X509Certificate;
  caName: string;
}

export interface CrlSource {
  /** For messages: the file name. */
  name: string;
  bytes: Buffer;
}

export class RevocationLists {
  private readonly warnedStale = new Set<LoadedList>();

  private constructor(
    private readonly lists: readonly LoadedList[],
    private readonly onStale: (message: string) => void,
  ) {}

  /** Reads and verifies the CRL files; an Error names the file and what is wrong with it. */
  static load(
    files: readonly string[],
    cas: readonly X509Certificate[],
    onStale: (message: string) => void = () => {},
  ): RevocationLists {
    return RevocationLists.of(
      files.map((file) => {
        const size = fs.statSync(file).size;
        if (size > MAX_CRL_FILE_BYTES)
          throw new Error(`CRL file ${file}: ${size} bytes, more than the ${MAX_CRL_FILE_BYTES} a CRL may have here`);
        return { name: file, bytes: fs.readFileSync(file) };
      }),
      cas,
      onStale,
    );
  }

  static of(
    sources: readonly CrlSource[],
    cas: readonly X509Certificate[],
    onStale: (message: string) => void = () => {},
  ): RevocationLists {
    const subjects = cas.map((ca) => ({ ca, subject: subjectDer(ca) }));
    const lists: LoadedList[] = [];
    for (const { name, bytes } of sources) {
      if (bytes.length > MAX_CRL_FILE_BYTES)
        throw new Error(`CRL file ${name}: larger than ${MAX_CRL_FILE_BYTES} bytes`);
      let ders: Buffer[];
      try {
        ders = crlsOfFile(bytes);
      } catch (error) {
        throw new Error(`CRL file ${name}: ${(error as Error).message}`, { cause: error });
      }
      for (const der of ders) {
        let crl: CertificateList;
        try {
          crl = parseCertificateList(der);
        } catch (error) {
          throw new Error(`CRL file ${name} is not a valid DER X.509 CRL: ${(error as Error).message}`, {
            cause: error,
          });
        }
        const signer = subjects.find(
          ({ ca, subject }) =>
            subject.equals(crl.issuer) &&
            ca.publicKey.asymmetricKeyType === crl.algorithm.key &&
            verify(crl.algorithm.hash, crl.signed, ca.publicKey, crl.signature),
        );
        if (!signer)
          throw new Error(
            `CRL file ${name} is not signed by any configured Peppol AP CA (PEPPOL_AP_CA_FILES): ` +
              (subjects.some(({ subject }) => subject.equals(crl.issuer))
                ? 'its signature does not verify with its issuer’s key'
                : 'its issuer is none of them'),
          );
        lists.push({
          ...crl,
          source: name,
          ca: signer.ca,
          caName: commonNameOf(signer.ca) ?? oneLineName(signer.ca.subject),
        });
      }
    }
    return new RevocationLists(lists, onStale);
  }

  get count(): number {
    return this.lists.length;
  }

  /** The CAs (of those given) for which no CRL is loaded: their certificates are not checked for revocation. */
  uncovered(cas: readonly X509Certificate[]): X509Certificate[] {
    return cas.filter((ca) => !this.covers(ca));
  }

  /** Whether a CRL of `ca` is loaded (then its certificates are checked against it). */
  covers(ca: X509Certificate): boolean {
    return this.lists.some((l) => l.ca.fingerprint256 === ca.fingerprint256);
  }

  /** Why `certificate` is revoked at `now` by a CRL of the CA that issued it, or null. */
  problem(certificate: X509Certificate, now: Date): string | null {
    const serial = serialOf(certificate);
    for (const list of this.lists) {
      if (!certificate.checkIssued(list.ca) || !certificate.verify(list.ca.publicKey)) continue;
      this.noteStale(list, now);
      const entry = list.revoked.get(serial);
      if (entry)
        return `revoked on ${entry.date.toISOString()} (CRL of ${list.caName}${entry.reason ? `, reason ${entry.reason}` : ''})`;
    }
    return null;
  }

  /** Warns (once per CRL) about every CRL already past its nextUpdate at `now`. */
  checkFreshness(now: Date): void {
    for (const list of this.lists) this.noteStale(list, now);
  }

  private noteStale(list: LoadedList, now: Date): void {
    if (!list.nextUpdate || now <= list.nextUpdate || this.warnedStale.has(list)) return;
    this.warnedStale.add(list);
    this.onStale(
      `the CRL ${list.source} of ${list.caName} was due for renewal on ${list.nextUpdate.toISOString()}: ` +
        'it is still used; fetch the current one',
    );
  }
}
