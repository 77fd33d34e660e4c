/** Namespaces and algorithm identifiers of SOAP, ebMS 3.0, WS-Security, XML Signature and XML Encryption as AS4 uses them. */
export const NS = {
  soap12: 'http://www.w3.org/2003/05/soap-envelope',
  soap11: 'http://schemas.xmlsoap.org/soap/envelope/',
  eb: 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/',
  ebbp: 'http://docs.oasis-open.org/ebxml-bp/ebbp-signals-2.0',
  wsse: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
  wsse11: 'http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd',
  wsu: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  ec: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  xenc: 'http://www.w3.org/2001/04/xmlenc#',
  xenc11: 'http://www.w3.org/2009/xmlenc11#',
  xmlns: 'http://www.w3.org/2000/xmlns/',
  sbdh: 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader',
} as const;

export const ALGORITHM = {
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  attachmentContentSignature:
    'http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform',
  attachmentCiphertext: 'http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Ciphertext-Transform',
  attachmentContentOnly: 'http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Only',
  aes128Gcm: 'http://www.w3.org/2009/xmlenc11#aes128-gcm',
  rsaOaep: 'http://www.w3.org/2009/xmlenc11#rsa-oaep',
  mgf1Sha256: 'http://www.w3.org/2009/xmlenc11#mgf1sha256',
} as const;

export const TOKEN = {
  x509v3: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3',
  base64Binary: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary',
  encryptedKey: 'http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#EncryptedKey',
} as const;

/** The prefixes this service writes (those of phase4, so both sides' messages look alike). */
export const PREFIX_DECLARATIONS = {
  S12: NS.soap12,
  eb: NS.eb,
  wsse: NS.wsse,
  wsu: NS.wsu,
  ds: NS.ds,
  ec: NS.ec,
  xenc: NS.xenc,
  xenc11: NS.xenc11,
  wsse11: NS.wsse11,
  ebbp: NS.ebbp,
} as const;
