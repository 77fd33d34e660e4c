import {
  createHash,
  createSign,
  createVerify,
  timingSafeEqual,
  type KeyObject,
  type X509Certificate,
} from 'node:crypto';
import { contentIdOfHref } from '../../domain/peppol/as4/userMessage.js';
import type { PartDigest } from '../../domain/peppol/as4/signalMessage.js';
import { canonicalize, CodePointExclusiveCanonicalization, type Canonicalizer } from './exclusiveC14n.js';
import { ALGORITHM, NS } from './namespaces.js';
import { DEFAULT_XML_LIMITS } from '../../domain/validation/xml/limits.js';
import {
  attributeOf,
  childElements,
  decodeUtf8Xml,
  firstChild,
  parseOwnXmlDom,
  parseUntrustedXmlDom,
  textOf,
} from './xmlDom.js';
import {
  binarySecurityTokenXml,
  certificateOfKeyInfo,
  elementById,
  readReference,
  referenceXml,
  SecurityHeaderError,
  securityHeader,
  tokenReferenceXml,
} from './wsSecurityTokens.js';

/** An attachment as the signature covers it: after decryption, before decompression. */
export interface AttachmentContent {
  contentId: string;
  /** The attachment's own media type (for an encrypted one, EncryptedData/@MimeType). */
  mimeType: string;
  bytes: Buffer;
}

export type ReferenceStatus = 'ok' | 'digest-mismatch' | 'unresolvable' | 'unsupported';

export interface ReferenceCheck {
  reference: PartDigest;
  status: ReferenceStatus;
  detail: string | null;
}

export interface SignatureVerification {
  /** Every reference resolved and matched, and the SignedInfo signature is the signer's. */
  valid: boolean;
  /** Whether the SignatureValue is the signer's key's signature over the canonical SignedInfo (null when it could not be checked). */
  signedInfoValid: boolean | null;
  references: ReferenceCheck[];
  /** The certificate the signature names (not yet judged for trust: that is the caller's question). */
  certificate: X509Certificate | null;
  /** The first reason the signature fails, for the log and the ebMS error; null when valid. */
  reason: string | null;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('base64');

/** Whether `octets` digest to the base64 `digestValue` (of any length: a short one is a mismatch, not an error). */
function digestMatches(octets: string | Buffer, digestValue: string): boolean {
  const computed = createHash('sha256').update(octets).digest();
  const stated = Buffer.from(digestValue, 'base64');
  return computed.length === stated.length && timingSafeEqual(computed, stated);
}

/**
 * SwA profile 1.1, 5.4.2, as WSS4J (phase4's WS-Security library) applies it: XML attachments are
 * digested in exclusive canonical form, other text with CRLF line ends, everything else as its
 * bytes. A Peppol payload is gzip, so its bytes.
 */
function attachmentOctets(attachment: AttachmentContent, canonicalizer: Canonicalizer): Buffer {
  const type = attachment.mimeType.toLowerCase();
  if (/^(text\/xml|application\/xml)\b/.test(type) || /^(application|image)\/[^;]*\+xml\b/.test(type)) {
    const doc = parseUntrustedXmlDom(decodeUtf8Xml(attachment.bytes), DEFAULT_XML_LIMITS);
    return Buffer.from(canonicalize(doc.documentElement!, [], canonicalizer));
  }
  if (type.startsWith('text/'))
    return Buffer.from(attachment.bytes.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
  return attachment.bytes;
}

function checkReference(
  doc: Document,
  reference: PartDigest,
  attachments: ReadonlyMap<string, AttachmentContent>,
  canonicalizer: Canonicalizer,
): ReferenceCheck {
  const result = (status: ReferenceStatus, detail: string | null = null): ReferenceCheck => ({
    reference,
    status,
    detail,
  });
  if (reference.digestMethod !== ALGORITHM.sha256)
    return result('unsupported', `digest method ${reference.digestMethod} (Peppol requires SHA-256)`);
  let octets: Buffer | string;
  if (reference.uri.startsWith('#')) {
    const [transform, ...more] = reference.transforms;
    if (!transform || more.length > 0 || transform.algorithm !== ALGORITHM.excC14n)
      return result('unsupported', 'a same-document reference must have exactly one transform, exclusive C14N');
    let element: Element;
    try {
      element = elementById(doc, reference.uri.slice(1));
    } catch (error) {
      return result('unresolvable', (error as Error).message);
    }
    octets = canonicalize(element, transform.inclusivePrefixes ?? [], canonicalizer);
  } else {
    const contentId = contentIdOfHref(reference.uri);
    if (contentId === null) return result('unsupported', `reference ${reference.uri} is neither #id nor cid:`);
    if (
      reference.transforms.length !== 1 ||
      reference.transforms[0]!.algorithm !== ALGORITHM.attachmentContentSignature
    ) {
      return result(
        'unsupported',
        'an attachment reference must have exactly one transform, Attachment-Content-Signature-Transform',
      );
    }
    const attachment = attachments.get(contentId);
    if (!attachment)
      return result(
        'unresolvable',
        `attachment ${reference.uri} is not available (absent, or encrypted for another key)`,
      );
    try {
      octets = attachmentOctets(attachment, canonicalizer);
    } catch (error) {
      return result(
        'unsupported',
        `attachment ${reference.uri} declared as XML cannot be canonicalized: ${(error as Error).message}`,
      );
    }
  }
  return digestMatches(octets, reference.digestValue)
    ? result('ok')
    : result('digest-mismatch', `the digest of ${reference.uri} does not match`);
}

/**
 * Verifies the ds:Signature in the wsse:Security header: each reference (`#id` parts by exclusive
 * C14N, `cid:` attachments by the Attachment-Content-Signature-Transform), then the RSA-SHA256
 * signature over the canonical SignedInfo with the key of the BinarySecurityToken the KeyInfo names.
 * Only the algorithms the Peppol AS4 profile uses are accepted. `attachments` holds the plaintext
 * of every attachment, keyed by Content-ID.
 */
export function verifySignature(
  doc: Document,
  attachments: ReadonlyMap<string, AttachmentContent> = new Map(),
  canonicalizer: Canonicalizer = CodePointExclusiveCanonicalization,
): SignatureVerification {
  const refused = (
    reason: string,
    certificate: X509Certificate | null = null,
    references: ReferenceCheck[] = [],
  ): SignatureVerification => ({
    valid: false,
    signedInfoValid: null,
    references,
    certificate,
    reason,
  });
  let signature: Element;
  try {
    const signatures = childElements(securityHeader(doc), NS.ds, 'Signature');
    if (signatures.length !== 1)
      return refused(
        signatures.length === 0
          ? 'the Security header has no signature'
          : 'the Security header has more than one signature',
      );
    signature = signatures[0]!;
  } catch (error) {
    return refused((error as Error).message);
  }
  const signedInfo = firstChild(signature, NS.ds, 'SignedInfo');
  const signatureValue = textOf(firstChild(signature, NS.ds, 'SignatureValue'));
  if (!signedInfo || !signatureValue) return refused('the signature has no SignedInfo or SignatureValue');
  const c14nMethod = firstChild(signedInfo, NS.ds, 'CanonicalizationMethod');
  if (!c14nMethod || attributeOf(c14nMethod, 'Algorithm') !== ALGORITHM.excC14n)
    return refused('SignedInfo is not canonicalized with exclusive C14N');
  const method = firstChild(signedInfo, NS.ds, 'SignatureMethod');
  if (!method || attributeOf(method, 'Algorithm') !== ALGORITHM.rsaSha256)
    return refused(
      `signature method ${method ? attributeOf(method, 'Algorithm') : 'missing'} (Peppol requires RSA-SHA256)`,
    );
  let certificate: X509Certificate;
  try {
    certificate = certificateOfKeyInfo(doc, firstChild(signature, NS.ds, 'KeyInfo'));
  } catch (error) {
    return refused((error as Error).message);
  }
  const referenceElements = childElements(signedInfo, NS.ds, 'Reference');
  if (referenceElements.length === 0) return refused('SignedInfo has no references', certificate);
  const references = referenceElements.map((r) => checkReference(doc, readReference(r), attachments, canonicalizer));

  const inclusive = firstChild(c14nMethod, NS.ec, 'InclusiveNamespaces');
  const prefixList = inclusive ? attributeOf(inclusive, 'PrefixList') : null;
  const prefixes = prefixList === null ? [] : prefixList.split(/\s/).filter(Boolean);
  const canonicalSignedInfo = canonicalize(signedInfo, prefixes, canonicalizer);
  let signedInfoValid: boolean;
  try {
    signedInfoValid = createVerify('RSA-SHA256')
      .update(canonicalSignedInfo)
      // Base64 decoding skips the line breaks a SignatureValue may be wrapped with.
      .verify(certificate.publicKey, Buffer.from(signatureValue, 'base64'));
  } catch {
    signedInfoValid = false;
  }
  const failed = references.find((r) => r.status !== 'ok');
  const reason = failed
    ? `${failed.detail ?? failed.status}`
    : signedInfoValid
      ? null
      : 'the SignatureValue does not match SignedInfo for the signing certificate';
  return { valid: reason === null, signedInfoValid, references, certificate, reason };
}

/** The wsu:Id of the signed parts: which elements a verified signature actually covers. */
export function signedIds(verification: SignatureVerification): Set<string> {
  return new Set(
    verification.references
      .filter((r) => r.status === 'ok' && r.reference.uri.startsWith('#'))
      .map((r) => r.reference.uri.slice(1)),
  );
}

export interface SigningKey {
  privateKey: KeyObject;
  certificate: X509Certificate;
}

export interface SignRequest {
  /** The envelope with an empty wsse:Security header (`<wsse:Security …></wsse:Security>`, prefixes S12/wsse/wsu bound). */
  envelope: string;
  /** wsu:Ids of the elements to sign, in order (eb:Messaging, then the Body). */
  ids: readonly string[];
  /** Attachments to sign, plaintext (what the receiver gets after decryption). */
  attachments: readonly AttachmentContent[];
  /** Security header content that goes before the signer's token (the encryption blocks, when encrypting). */
  headerPrefix?: string;
  key: SigningKey;
  /** Unique ids for the token, signature and key info. */
  newId: () => string;
}

export interface SignedEnvelope {
  xml: string;
  /** What we signed, as a receipt must echo it back. */
  references: PartDigest[];
}

// phase4 names its SOAP prefix in every PrefixList; so do we, which keeps our canonical forms
// identical to theirs and exercises the ordering a receiver must get right.
const PREFIX_LIST = 'S12';
const PREFIXES = PREFIX_LIST.split(' ');

/**
 * Signs an envelope the way the Peppol AS4 profile requires and phase4 does: RSA-SHA256 over an
 * exclusively canonicalized SignedInfo (PrefixList S12), one SHA-256 reference per header block or
 * body by wsu:Id and one per attachment by the Attachment-Content-Signature-Transform, and the
 * certificate as a BinarySecurityToken named by direct reference. The envelope text is kept as
 * written: the Signature is spliced in as text.
 *
 * One parse serves every canonical form: the envelope with the Signature in its header, digests
 * still placeholders (neither the token nor the encryption blocks: no signed element is inside them,
 * and exclusive C14N of an element depends only on it and its ancestors' declarations). A digest is
 * base64 text, which canonicalization leaves as it is, so SignedInfo's canonical form with the
 * placeholders replaced is its canonical form with the digests.
 */
export function signEnvelope(request: SignRequest): SignedEnvelope {
  const tokenId = `X509-${request.newId()}`;
  const marker = '</wsse:Security>';
  const at = request.envelope.indexOf(marker);
  if (at === -1) throw new SecurityHeaderError('the envelope has no wsse:Security header to sign into');
  const [head, tail] = [request.envelope.slice(0, at), request.envelope.slice(at)];
  const placeholder = (i: number) => `DIGEST-PLACEHOLDER-${i}`;
  const references: PartDigest[] = request.ids.map((id, i) => ({
    uri: `#${id}`,
    transforms: [{ algorithm: ALGORITHM.excC14n, inclusivePrefixes: PREFIXES }],
    digestMethod: ALGORITHM.sha256,
    digestValue: placeholder(i),
  }));
  for (const attachment of request.attachments) {
    references.push({
      uri: `cid:${attachment.contentId}`,
      transforms: [{ algorithm: ALGORITHM.attachmentContentSignature, inclusivePrefixes: null }],
      digestMethod: ALGORITHM.sha256,
      digestValue: sha256(attachmentOctets(attachment, CodePointExclusiveCanonicalization)),
    });
  }
  const [signatureId, keyInfoId] = [`SIG-${request.newId()}`, `KI-${request.newId()}`];
  const signature = (value: string) =>
    `<ds:Signature xmlns:ds="${NS.ds}" Id="${signatureId}"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${ALGORITHM.excC14n}"><ec:InclusiveNamespaces xmlns:ec="${NS.ec}" PrefixList="${PREFIX_LIST}"/></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${ALGORITHM.rsaSha256}"/>${references.map(referenceXml).join('')}</ds:SignedInfo><ds:SignatureValue>${value}</ds:SignatureValue>` +
    `<ds:KeyInfo Id="${keyInfoId}">${tokenReferenceXml(tokenId)}</ds:KeyInfo></ds:Signature>`;
  const doc = parseOwnXmlDom(head + signature('') + tail);
  request.ids.forEach((id, i) => {
    references[i]!.digestValue = sha256(canonicalize(elementById(doc, id), PREFIXES));
  });
  let signedInfo = canonicalize(
    firstChild(firstChild(securityHeader(doc), NS.ds, 'Signature')!, NS.ds, 'SignedInfo')!,
    PREFIXES,
  );
  request.ids.forEach((_id, i) => {
    signedInfo = signedInfo.replace(placeholder(i), references[i]!.digestValue);
  });
  const value = createSign('RSA-SHA256').update(signedInfo).sign(request.key.privateKey, 'base64');
  const securityContent =
    (request.headerPrefix ?? '') + binarySecurityTokenXml(tokenId, request.key.certificate) + signature(value);
  return { xml: head + securityContent + tail, references };
}
