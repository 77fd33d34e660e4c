import type { As4EvidenceCheck } from '../../application/evidence/verifyBundle.js';
import { readMessaging } from './ebmsReader.js';
import { readMultipartRelated } from './mimeMultipart.js';
import { decodeUtf8Xml, parseUntrustedXmlDom } from './xmlDom.js';
import { verifySignature } from './wsSecuritySignature.js';

/**
 * Checks an AS4 exchange kept as evidence, offline: the receipt's WS-Security signature holds (by
 * the certificate it carries); the message's own signature over its SignedInfo holds and its
 * digests over the SOAP parts are those of the parts (the payload is encrypted for the receiver, so
 * its digest is vouched for by the sender's signature, not recomputed); and the receipt's
 * non-repudiation digests are exactly those the message's signature made. The receipt then proves
 * that the receiving access point acknowledged these very bytes.
 */
export const checkAs4Evidence: As4EvidenceCheck = (message, contentType, receipt) => {
  const problems: ReturnType<As4EvidenceCheck> = [];
  let nonRepudiation: Array<{ uri: string; digestValue: string }>;
  try {
    const doc = parseUntrustedXmlDom(decodeUtf8Xml(receipt));
    const signature = verifySignature(doc);
    if (!signature.valid)
      problems.push({ part: 'as4_receipt', detail: `its signature does not hold: ${signature.reason}` });
    const messaging = readMessaging(doc);
    if (messaging.content.kind !== 'signal' || messaging.content.signal.kind !== 'receipt')
      return [...problems, { part: 'as4_receipt', detail: 'it is not an AS4 receipt' }];
    nonRepudiation = messaging.content.signal.receipt.nonRepudiation;
  } catch (error) {
    return [{ part: 'as4_receipt', detail: `unreadable: ${(error as Error).message}` }];
  }
  let signed: Array<{ uri: string; digestValue: string }>;
  try {
    const parts = readMultipartRelated(contentType, message);
    const signature = verifySignature(parseUntrustedXmlDom(decodeUtf8Xml(parts.root.body)));
    if (signature.signedInfoValid !== true)
      problems.push({ part: 'as4_message', detail: "the sender's signature over it does not hold" });
    const wrong = signature.references.find((r) => r.reference.uri.startsWith('#') && r.status !== 'ok');
    if (wrong) problems.push({ part: 'as4_message', detail: `its signed part ${wrong.reference.uri} was changed` });
    signed = signature.references.map((r) => r.reference);
  } catch (error) {
    return [...problems, { part: 'as4_message', detail: `unreadable: ${(error as Error).message}` }];
  }
  const acknowledged = new Map(nonRepudiation.map((r) => [r.uri, r.digestValue]));
  const differs =
    signed.length !== nonRepudiation.length || signed.some((r) => acknowledged.get(r.uri) !== r.digestValue);
  if (differs)
    problems.push({ part: 'as4_receipt', detail: "its digests are not those of the message's signed parts" });
  return problems;
};
