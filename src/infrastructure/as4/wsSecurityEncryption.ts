import {
  constants,
  createCipheriv,
  createDecipheriv,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  type X509Certificate,
} from 'node:crypto';
import { contentIdOfHref } from '../../domain/peppol/as4/userMessage.js';
import { escapeAttribute } from '../../domain/xml/xmlWriter.js';
import { As4Failure } from './as4Failure.js';
import { ALGORITHM, NS, TOKEN } from './namespaces.js';
import type { AttachmentContent, SigningKey } from './wsSecuritySignature.js';
import {
  binarySecurityTokenXml,
  certificateOfKeyInfo,
  elementById,
  securityHeader,
  tokenReferenceXml,
} from './wsSecurityTokens.js';
import { attributeOf, childElements, firstChild, textOf } from './xmlDom.js';

/**
 * Attachment encryption as the Peppol AS4 profile requires: each attachment's content encrypted
 * with AES-128-GCM under one fresh key, that key wrapped with RSA-OAEP (SHA-256 digest, MGF1 with
 * SHA-256) for the receiver's certificate; the header carries the receiver's certificate as a
 * BinarySecurityToken, one xenc:EncryptedKey and an xenc:EncryptedData per attachment
 * (Attachment-Content-Only: the MIME headers stay readable, the content becomes IV ‖ ciphertext ‖ tag).
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 16;

const oaep = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' } as const;

export interface EncryptedAttachments {
  /** Security header content to put before the signature (the receiver token, EncryptedKey, EncryptedData). */
  headerXml: string;
  /** The attachments as they go on the wire, by Content-ID. */
  ciphertexts: Map<string, Buffer>;
}

export function encryptAttachments(
  attachments: readonly AttachmentContent[],
  receiver: X509Certificate,
  newId: () => string,
): EncryptedAttachments {
  const key = randomBytes(KEY_BYTES);
  // Node's OAEP uses the OAEP digest for MGF1 too: SHA-256 and MGF1-SHA-256, as xenc11#mgf1sha256 states.
  const wrapped = publicEncrypt({ key: receiver.publicKey, ...oaep }, key);
  const tokenId = `X509-${newId()}`;
  const keyId = `EK-${newId()}`;
  const ciphertexts = new Map<string, Buffer>();
  const dataIds: string[] = [];
  const encryptedData: string[] = [];
  for (const attachment of attachments) {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-128-gcm', key, iv);
    const body = Buffer.concat([iv, cipher.update(attachment.bytes), cipher.final(), cipher.getAuthTag()]);
    ciphertexts.set(attachment.contentId, body);
    const dataId = `ED-${newId()}`;
    dataIds.push(dataId);
    encryptedData.push(
      `<xenc:EncryptedData xmlns:xenc="${NS.xenc}" Id="${dataId}" MimeType="${escapeAttribute(attachment.mimeType)}" Type="${ALGORITHM.attachmentContentOnly}">` +
        `<xenc:EncryptionMethod Algorithm="${ALGORITHM.aes128Gcm}"/>` +
        `<ds:KeyInfo xmlns:ds="${NS.ds}"><wsse:SecurityTokenReference xmlns:wsse11="${NS.wsse11}" wsse11:TokenType="${TOKEN.encryptedKey}"><wsse:Reference URI="#${keyId}"/></wsse:SecurityTokenReference></ds:KeyInfo>` +
        `<xenc:CipherData><xenc:CipherReference URI="cid:${escapeAttribute(attachment.contentId)}"><xenc:Transforms>` +
        `<ds:Transform xmlns:ds="${NS.ds}" Algorithm="${ALGORITHM.attachmentCiphertext}"/></xenc:Transforms></xenc:CipherReference></xenc:CipherData></xenc:EncryptedData>`,
    );
  }
  const encryptedKey =
    `<xenc:EncryptedKey xmlns:xenc="${NS.xenc}" Id="${keyId}">` +
    `<xenc:EncryptionMethod Algorithm="${ALGORITHM.rsaOaep}"><ds:DigestMethod xmlns:ds="${NS.ds}" Algorithm="${ALGORITHM.sha256}"/>` +
    `<xenc11:MGF xmlns:xenc11="${NS.xenc11}" Algorithm="${ALGORITHM.mgf1Sha256}"/></xenc:EncryptionMethod>` +
    `<ds:KeyInfo xmlns:ds="${NS.ds}">${tokenReferenceXml(tokenId)}</ds:KeyInfo>` +
    `<xenc:CipherData><xenc:CipherValue>${wrapped.toString('base64')}</xenc:CipherValue></xenc:CipherData>` +
    `<xenc:ReferenceList>${dataIds.map((id) => `<xenc:DataReference URI="#${id}"/>`).join('')}</xenc:ReferenceList></xenc:EncryptedKey>`;
  return { headerXml: binarySecurityTokenXml(tokenId, receiver) + encryptedKey + encryptedData.join(''), ciphertexts };
}

const failed = (message: string) => new As4Failure('failedDecryption', message);
const policy = (message: string) => new As4Failure('policyNoncompliance', message);

function algorithmOf(parent: Element, ns: string, local: string): string | null {
  const element = firstChild(parent, ns, local);
  return element ? attributeOf(element, 'Algorithm') : null;
}

/**
 * Decrypts the encrypted attachments of a received message with this AP's key. Returns the
 * plaintext of every attachment it decrypted, with the media type EncryptedData gives it; an
 * unencrypted message gives an empty map (whether that is acceptable is the caller's policy).
 * Algorithms other than the profile's are a policy failure (EBMS:0103); a key for another
 * certificate, or ciphertext that does not authenticate, is a decryption failure (EBMS:0102).
 */
export function decryptAttachments(
  doc: Document,
  wire: ReadonlyMap<string, Buffer>,
  own: SigningKey,
): Map<string, AttachmentContent> {
  const security = securityHeader(doc);
  const keys = childElements(security, NS.xenc, 'EncryptedKey');
  const plaintexts = new Map<string, AttachmentContent>();
  if (keys.length === 0) return plaintexts;
  if (keys.length > 1) throw policy('the message has more than one EncryptedKey');
  const encryptedKey = keys[0]!;
  const method = firstChild(encryptedKey, NS.xenc, 'EncryptionMethod');
  if (!method || attributeOf(method, 'Algorithm') !== ALGORITHM.rsaOaep)
    throw policy(
      `key transport ${method ? attributeOf(method, 'Algorithm') : 'missing'} (Peppol requires ${ALGORITHM.rsaOaep})`,
    );
  if (
    algorithmOf(method, NS.ds, 'DigestMethod') !== ALGORITHM.sha256 ||
    algorithmOf(method, NS.xenc11, 'MGF') !== ALGORITHM.mgf1Sha256
  ) {
    throw policy('key transport must use RSA-OAEP with SHA-256 and MGF1-SHA-256');
  }
  let recipient: X509Certificate;
  try {
    recipient = certificateOfKeyInfo(doc, firstChild(encryptedKey, NS.ds, 'KeyInfo'));
  } catch (error) {
    throw failed(`the EncryptedKey does not name its certificate: ${(error as Error).message}`);
  }
  if (!recipient.raw.equals(own.certificate.raw))
    throw failed(`the key is encrypted for ${recipient.subject.replace(/\n/g, ', ')}, not for this access point`);
  const cipherValue = textOf(
    firstChild(firstChild(encryptedKey, NS.xenc, 'CipherData') ?? encryptedKey, NS.xenc, 'CipherValue'),
  );
  let key: Buffer;
  try {
    key = privateDecrypt(
      { key: own.privateKey, ...oaep },
      Buffer.from((cipherValue ?? '').replace(/\s+/g, ''), 'base64'),
    );
  } catch {
    throw failed('the wrapped key does not decrypt with this access point key');
  }
  if (key.length !== KEY_BYTES) throw policy(`the content key has ${key.length * 8} bits; AES-128-GCM takes 128`);

  const list = firstChild(encryptedKey, NS.xenc, 'ReferenceList');
  const dataReferences = list ? childElements(list, NS.xenc, 'DataReference') : [];
  if (dataReferences.length === 0) throw policy('the EncryptedKey has no ReferenceList');
  for (const reference of dataReferences) {
    const uri = attributeOf(reference, 'URI') ?? '';
    if (!uri.startsWith('#')) throw policy(`DataReference ${uri} is not a same-document reference`);
    let data: Element;
    try {
      data = elementById(doc, uri.slice(1));
    } catch (error) {
      throw failed((error as Error).message);
    }
    if (data.namespaceURI !== NS.xenc || data.localName !== 'EncryptedData')
      throw policy(`${uri} is not an EncryptedData`);
    if (attributeOf(data, 'Type') !== ALGORITHM.attachmentContentOnly)
      throw policy(`EncryptedData ${uri} is not Attachment-Content-Only`);
    if (algorithmOf(data, NS.xenc, 'EncryptionMethod') !== ALGORITHM.aes128Gcm)
      throw policy(`EncryptedData ${uri} is not AES-128-GCM`);
    const cipherReference = firstChild(firstChild(data, NS.xenc, 'CipherData') ?? data, NS.xenc, 'CipherReference');
    const contentId = cipherReference ? contentIdOfHref(attributeOf(cipherReference, 'URI') ?? '') : null;
    if (contentId === null) throw policy(`EncryptedData ${uri} does not reference an attachment`);
    const body = wire.get(contentId);
    if (!body) throw failed(`the encrypted attachment cid:${contentId} is not in the message`);
    if (plaintexts.has(contentId)) throw policy(`attachment cid:${contentId} is encrypted twice`);
    if (body.length < IV_BYTES + TAG_BYTES) throw failed(`attachment cid:${contentId} is too short for AES-GCM`);
    try {
      const decipher = createDecipheriv('aes-128-gcm', key, body.subarray(0, IV_BYTES));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const bytes = Buffer.concat([
        decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]);
      plaintexts.set(contentId, {
        contentId,
        mimeType: attributeOf(data, 'MimeType') ?? 'application/octet-stream',
        bytes,
      });
    } catch {
      throw failed(`attachment cid:${contentId} does not decrypt (altered, or another key)`);
    }
  }
  return plaintexts;
}
