import { createSign } from 'node:crypto';
import { canonicalize } from '../../src/infrastructure/as4/exclusiveC14n.js';
import { NS } from '../../src/infrastructure/as4/namespaces.js';
import type { SigningKey } from '../../src/infrastructure/as4/wsSecuritySignature.js';
import { attributeOf, firstChild, parseOwnXmlDom } from '../../src/infrastructure/as4/xmlDom.js';

/**
 * A signed envelope whose SignedInfo was changed and signed again with `key`, as a sender who
 * controls the key would: the SignatureValue matches the changed SignedInfo, so only the check a
 * test is about can refuse it (a mere edit would also fail on the SignatureValue, and a verifier
 * that skipped the check would go unnoticed).
 */
export function resign(xml: string, key: SigningKey, edit: (signedInfo: string) => string): string {
  const at = xml.indexOf('<ds:SignedInfo>');
  const end = xml.indexOf('</ds:SignedInfo>') + '</ds:SignedInfo>'.length;
  if (at < 0 || end < at) throw new Error('the envelope has no ds:SignedInfo to change');
  const changed = xml.slice(0, at) + edit(xml.slice(at, end)) + xml.slice(end);
  const doc = parseOwnXmlDom(changed);
  const signedInfo = doc.getElementsByTagNameNS(NS.ds, 'SignedInfo')[0]!;
  const inclusive = firstChild(firstChild(signedInfo, NS.ds, 'CanonicalizationMethod')!, NS.ec, 'InclusiveNamespaces');
  const prefixes = inclusive ? (attributeOf(inclusive, 'PrefixList') ?? '').split(' ').filter(Boolean) : [];
  const value = createSign('RSA-SHA256').update(canonicalize(signedInfo, prefixes)).sign(key.privateKey, 'base64');
  return changed.replace(
    /<ds:SignatureValue>[^<]*<\/ds:SignatureValue>/,
    `<ds:SignatureValue>${value}</ds:SignatureValue>`,
  );
}

/** The `n`-th ds:Reference element (0-based) of a SignedInfo text, for edits of one reference. */
export function editReference(signedInfo: string, n: number, edit: (reference: string) => string): string {
  const references = [...signedInfo.matchAll(/<ds:Reference [\s\S]*?<\/ds:Reference>/g)];
  const match = references[n];
  if (!match) throw new Error(`SignedInfo has no reference ${n}`);
  return signedInfo.slice(0, match.index) + edit(match[0]) + signedInfo.slice(match.index + match[0].length);
}
