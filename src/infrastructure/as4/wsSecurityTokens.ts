import type { X509Certificate } from 'node:crypto';
import { certificateOfBase64 } from './certificateCache.js';
import type { PartDigest, ReferenceTransform } from '../../domain/peppol/as4/signalMessage.js';
import { escapeAttribute, escapeText } from '../../domain/xml/xmlWriter.js';
import { ALGORITHM, NS, TOKEN } from './namespaces.js';
import { allElements, attributeOf, childElements, firstChild, qualifiedName, textOf } from './xmlDom.js';

/** A WS-Security header that cannot be processed: missing, ambiguous, or using what AS4 does not. */
export class SecurityHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecurityHeaderError';
  }
}

/** The SOAP envelope's Header and Body, SOAP 1.2 or 1.1. */
export function envelopeParts(doc: Document): { soapNs: string; header: Element | null; body: Element | null } {
  // A parsed document has its root element (parseUntrustedXmlDom refuses one without).
  const envelope = doc.documentElement!;
  if (
    envelope.localName !== 'Envelope' ||
    (envelope.namespaceURI !== NS.soap12 && envelope.namespaceURI !== NS.soap11)
  ) {
    throw new SecurityHeaderError(`the root element is not a SOAP Envelope: ${qualifiedName(envelope)}`);
  }
  const soapNs = envelope.namespaceURI;
  return { soapNs, header: firstChild(envelope, soapNs, 'Header'), body: firstChild(envelope, soapNs, 'Body') };
}

/** The one wsse:Security header block (a second one, for another actor, is not something AS4 sends). */
export function securityHeader(doc: Document): Element {
  const { header } = envelopeParts(doc);
  const blocks = header ? childElements(header, NS.wsse, 'Security') : [];
  if (blocks.length === 0) throw new SecurityHeaderError('the message has no wsse:Security header');
  if (blocks.length > 1) throw new SecurityHeaderError('the message has more than one wsse:Security header');
  return blocks[0]!;
}

/** The id an element is referenced by: wsu:Id, or a plain Id/ID/id attribute (XML Signature and XML Encryption elements). */
export function idOf(element: Element): string | null {
  return (
    attributeOf(element, 'Id', NS.wsu) ??
    attributeOf(element, 'Id') ??
    attributeOf(element, 'ID') ??
    attributeOf(element, 'id')
  );
}

/**
 * The element a `#id` reference names. Exactly one element of the document may carry the id: a
 * second one is how signature wrapping hides a forged part beside the signed one.
 */
export function elementById(doc: Document, id: string): Element {
  const matches = allElements(doc.documentElement!).filter((e) => idOf(e) === id);
  if (matches.length === 0) throw new SecurityHeaderError(`no element has the id ${id}`);
  if (matches.length > 1) throw new SecurityHeaderError(`${matches.length} elements have the id ${id}`);
  return matches[0]!;
}

/** Ids must be unique in the whole message, whatever references them. */
export function assertUniqueIds(doc: Document): void {
  const seen = new Set<string>();
  for (const element of allElements(doc.documentElement!)) {
    const id = idOf(element);
    if (id === null) continue;
    if (seen.has(id)) throw new SecurityHeaderError(`more than one element has the id ${id}`);
    seen.add(id);
  }
}

/**
 * The certificate a KeyInfo names: wsse:SecurityTokenReference/wsse:Reference to a
 * BinarySecurityToken in the same message (direct reference, as the Peppol AS4 profile requires).
 */
export function certificateOfKeyInfo(doc: Document, keyInfo: Element | null): X509Certificate {
  const reference = keyInfo
    ? firstChild(firstChild(keyInfo, NS.wsse, 'SecurityTokenReference') ?? keyInfo, NS.wsse, 'Reference')
    : null;
  const uri = reference ? attributeOf(reference, 'URI') : null;
  if (!uri || !uri.startsWith('#'))
    throw new SecurityHeaderError('the key is not named by a direct reference to a BinarySecurityToken');
  const token = elementById(doc, uri.slice(1));
  if (token.namespaceURI !== NS.wsse || token.localName !== 'BinarySecurityToken')
    throw new SecurityHeaderError(`${uri} is not a BinarySecurityToken`);
  const valueType = attributeOf(token, 'ValueType');
  if (valueType !== TOKEN.x509v3)
    throw new SecurityHeaderError(
      `BinarySecurityToken ${uri} is not an X.509 v3 certificate (${valueType ?? 'no ValueType'})`,
    );
  const encoding = attributeOf(token, 'EncodingType');
  if (encoding !== null && encoding !== TOKEN.base64Binary)
    throw new SecurityHeaderError(`BinarySecurityToken ${uri} is not base64 (${encoding})`);
  try {
    // An element's textContent is a string (null only for documents and doctypes).
    return certificateOfBase64(token.textContent as string);
  } catch (error) {
    throw new SecurityHeaderError(
      `BinarySecurityToken ${uri} is not a readable certificate: ${(error as Error).message}`,
    );
  }
}

/** A wsse:BinarySecurityToken for a certificate. */
export const binarySecurityTokenXml = (id: string, certificate: X509Certificate): string =>
  `<wsse:BinarySecurityToken EncodingType="${TOKEN.base64Binary}" ValueType="${TOKEN.x509v3}" wsu:Id="${id}">${certificate.raw.toString('base64')}</wsse:BinarySecurityToken>`;

/** A KeyInfo naming a BinarySecurityToken by direct reference. */
export const tokenReferenceXml = (tokenId: string): string =>
  `<wsse:SecurityTokenReference><wsse:Reference URI="#${tokenId}" ValueType="${TOKEN.x509v3}"/></wsse:SecurityTokenReference>`;

/** Reads a ds:Reference (in SignedInfo, or copied into a receipt's NonRepudiationInformation). */
export function readReference(reference: Element): PartDigest {
  const transforms: ReferenceTransform[] = [];
  const list = firstChild(reference, NS.ds, 'Transforms');
  for (const t of list ? childElements(list, NS.ds, 'Transform') : []) {
    const inclusive = firstChild(t, NS.ec, 'InclusiveNamespaces');
    const prefixList = inclusive ? attributeOf(inclusive, 'PrefixList') : null;
    transforms.push({
      algorithm: attributeOf(t, 'Algorithm') ?? '',
      inclusivePrefixes: prefixList === null ? null : prefixList.split(/\s/).filter(Boolean),
    });
  }
  const digestMethod = firstChild(reference, NS.ds, 'DigestMethod');
  return {
    uri: attributeOf(reference, 'URI') ?? '',
    transforms,
    digestMethod: digestMethod ? (attributeOf(digestMethod, 'Algorithm') ?? '') : '',
    digestValue: (textOf(firstChild(reference, NS.ds, 'DigestValue')) ?? '').replace(/\s/g, ''),
  };
}

/** Writes a ds:Reference (the `ds` and `ec` prefixes must be in scope). */
export function referenceXml(digest: PartDigest): string {
  const transforms = digest.transforms
    .map((t) => {
      const inclusive =
        t.inclusivePrefixes && t.inclusivePrefixes.length > 0
          ? `<ec:InclusiveNamespaces xmlns:ec="${NS.ec}" PrefixList="${escapeAttribute(t.inclusivePrefixes.join(' '))}"/>`
          : '';
      return inclusive
        ? `<ds:Transform Algorithm="${escapeAttribute(t.algorithm)}">${inclusive}</ds:Transform>`
        : `<ds:Transform Algorithm="${escapeAttribute(t.algorithm)}"/>`;
    })
    .join('');
  return `<ds:Reference URI="${escapeAttribute(digest.uri)}"><ds:Transforms>${transforms}</ds:Transforms><ds:DigestMethod Algorithm="${escapeAttribute(digest.digestMethod)}"/><ds:DigestValue>${escapeText(digest.digestValue)}</ds:DigestValue></ds:Reference>`;
}

export const SIGNATURE_ALGORITHMS = {
  signature: ALGORITHM.rsaSha256,
  digest: ALGORITHM.sha256,
  c14n: ALGORITHM.excC14n,
} as const;
