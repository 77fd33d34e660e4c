import { XMLSerializer } from '@xmldom/xmldom';
import { escapeAttribute as attr, escapeText as text } from '../../domain/xml/xmlWriter.js';
import { checkSbdh, type Sbdh, type SbdhCheck, type SbdhFields } from '../../domain/peppol/as4/sbdh.js';
import { PARTICIPANT_SCHEME } from '../../domain/peppol/participantId.js';
import { DOCUMENT_ID_SCHEME, PROCESS_ID_SCHEME } from '../../domain/peppol/smpDocuments.js';
import { DEFAULT_XML_LIMITS, type XmlLimits } from '../../domain/validation/xml/limits.js';
import { NS } from './namespaces.js';
import {
  attributeOf,
  childElements,
  decodeUtf8Xml,
  firstChild,
  parseUntrustedXmlDom,
  textOf,
  UntrustedXmlError,
} from './xmlDom.js';

/**
 * Writes the Peppol SBDH around a business document, fields in the order of the Peppol Envelope
 * Specification 2.0 (and of its examples): HeaderVersion, Sender, Receiver, DocumentIdentification
 * (Standard, TypeVersion, InstanceIdentifier, Type, CreationDateAndTime), BusinessScope (DOCUMENTID,
 * PROCESSID, COUNTRY_C1, then MLS_TO, MLS_TYPE and any others). The SBDH elements carry the `sh`
 * prefix so that its namespace cannot become the business document's default.
 * A scope's Identifier (the identifier scheme) is written only where it is not the default.
 */
export function writeSbdh(sbdh: Sbdh, businessDocumentXml: string): string {
  const scope = (type: string, value: string, identifier: string | null) =>
    `      <sh:Scope>\n        <sh:Type>${text(type)}</sh:Type>\n        <sh:InstanceIdentifier>${text(value)}</sh:InstanceIdentifier>\n` +
    (identifier === null ? '' : `        <sh:Identifier>${text(identifier)}</sh:Identifier>\n`) +
    '      </sh:Scope>\n';
  const party = (tag: string, id: Sbdh['sender']) =>
    `    <sh:${tag}>\n      <sh:Identifier Authority="${attr(id.scheme)}">${text(id.value)}</sh:Identifier>\n    </sh:${tag}>\n`;
  const d = sbdh.document;
  const scopes =
    scope(
      'DOCUMENTID',
      sbdh.documentType.value,
      sbdh.documentType.scheme === DOCUMENT_ID_SCHEME ? null : sbdh.documentType.scheme,
    ) +
    scope('PROCESSID', sbdh.process.value, sbdh.process.scheme === PROCESS_ID_SCHEME ? null : sbdh.process.scheme) +
    scope('COUNTRY_C1', sbdh.countryC1, null) +
    (sbdh.mlsTo ? scope('MLS_TO', sbdh.mlsTo.value, sbdh.mlsTo.scheme || PARTICIPANT_SCHEME) : '') +
    (sbdh.mlsType ? scope('MLS_TYPE', sbdh.mlsType, null) : '') +
    sbdh.extraScopes.map((s) => scope(s.type, s.instanceIdentifier, s.identifier)).join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<sh:StandardBusinessDocument xmlns:sh="${NS.sbdh}">\n  <sh:StandardBusinessDocumentHeader>\n` +
    '    <sh:HeaderVersion>1.0</sh:HeaderVersion>\n' +
    party('Sender', sbdh.sender) +
    party('Receiver', sbdh.receiver) +
    '    <sh:DocumentIdentification>\n' +
    `      <sh:Standard>${text(d.standard)}</sh:Standard>\n      <sh:TypeVersion>${text(d.typeVersion)}</sh:TypeVersion>\n` +
    `      <sh:InstanceIdentifier>${text(d.instanceIdentifier)}</sh:InstanceIdentifier>\n      <sh:Type>${text(d.type)}</sh:Type>\n` +
    `      <sh:CreationDateAndTime>${text(d.creationDateAndTime)}</sh:CreationDateAndTime>\n    </sh:DocumentIdentification>\n` +
    `    <sh:BusinessScope>\n${scopes}    </sh:BusinessScope>\n  </sh:StandardBusinessDocumentHeader>\n` +
    `${withoutDeclaration(businessDocumentXml)}\n</sh:StandardBusinessDocument>\n`
  );
}

/** The business document without its BOM and XML declaration, to be embedded. */
const withoutDeclaration = (xml: string): string =>
  xml
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^?]*\?>\s*/, '')
    .trimEnd();

export type SbdhRead =
  (SbdhCheck & { ok: false }) | { ok: true; sbdh: Sbdh; warnings: string[]; businessDocument: string };

/**
 * Reads a received payload: the SBDH's fields (checked by the Peppol rules in the domain) and the
 * business document after it, serialized on its own with the namespace declarations it uses.
 */
export function readSbdh(payload: Buffer, limits: XmlLimits = DEFAULT_XML_LIMITS): SbdhRead {
  let doc: Document;
  try {
    doc = parseUntrustedXmlDom(decodeUtf8Xml(payload), limits);
  } catch (error) {
    if (error instanceof UntrustedXmlError) return { ok: false, error: 'INVALID_SBD_XML', message: error.message };
    throw error;
  }
  const root = doc.documentElement!;
  if (root.namespaceURI !== NS.sbdh || root.localName !== 'StandardBusinessDocument') {
    return {
      ok: false,
      error: 'INVALID_SBD_XML',
      message: `the payload is not a StandardBusinessDocument but {${root.namespaceURI ?? ''}}${root.localName}`,
    };
  }
  const header = firstChild(root, NS.sbdh, 'StandardBusinessDocumentHeader');
  if (!header)
    return {
      ok: false,
      error: 'MISSING_SBDH',
      message: 'the StandardBusinessDocument has no StandardBusinessDocumentHeader',
    };
  const sh = (parent: Element, local: string) => firstChild(parent, NS.sbdh, local);
  const shText = (parent: Element | null, local: string) => (parent ? textOf(sh(parent, local)) : null);
  const parties = (local: string) =>
    childElements(header, NS.sbdh, local).map((p) => {
      const id = sh(p, 'Identifier');
      return { authority: id ? attributeOf(id, 'Authority') : null, value: textOf(id) ?? '' };
    });
  const identification = sh(header, 'DocumentIdentification');
  const businessScope = sh(header, 'BusinessScope');
  const others = childElements(root).filter((e) => e !== header);
  const fields: SbdhFields = {
    headerVersion: shText(header, 'HeaderVersion'),
    senders: parties('Sender'),
    receivers: parties('Receiver'),
    document: {
      standard: shText(identification, 'Standard'),
      typeVersion: shText(identification, 'TypeVersion'),
      instanceIdentifier: shText(identification, 'InstanceIdentifier'),
      type: shText(identification, 'Type'),
      creationDateAndTime: shText(identification, 'CreationDateAndTime'),
    },
    scopes: businessScope
      ? childElements(businessScope, NS.sbdh, 'Scope').map((s) => ({
          type: textOf(sh(s, 'Type')),
          instanceIdentifier: textOf(sh(s, 'InstanceIdentifier')),
          identifier: textOf(sh(s, 'Identifier')),
        }))
      : null,
    businessMessage:
      others.length === 1 ? { namespace: others[0]!.namespaceURI ?? '', localName: others[0]!.localName } : null,
  };
  const checked = checkSbdh(fields);
  if (!checked.ok) return checked;
  return {
    ...checked,
    businessDocument: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(others[0]!)}`,
  };
}
