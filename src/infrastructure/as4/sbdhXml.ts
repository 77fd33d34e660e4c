import libxmljs from 'libxmljs';
import { escapeAttribute as attr, escapeText as text } from '../../domain/xml/xmlWriter.js';
import { checkSbdh, type Sbdh, type SbdhCheck, type SbdhFields } from '../../domain/peppol/as4/sbdh.js';
import { PARTICIPANT_SCHEME } from '../../domain/peppol/participantId.js';
import { namedIssuerOf, type NamedIssuer } from '../../domain/peppol/senderIdentity.js';
import { DOCUMENT_ID_SCHEME, PROCESS_ID_SCHEME } from '../../domain/peppol/smpDocuments.js';
import { DEFAULT_XML_LIMITS, type XmlLimits } from '../../domain/validation/xml/limits.js';
import { NS } from './namespaces.js';
import type { XNode } from '../../domain/xml/xmlTree.js';
import { parseUntrustedXml } from '../xml/xmlParser.js';
import { XmlInputError } from '../../domain/validation/errors.js';
import { decodeUtf8Xml, UntrustedXmlError } from './xmlDom.js';

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
  | (SbdhCheck & { ok: false })
  | {
      ok: true;
      sbdh: Sbdh;
      warnings: string[];
      businessDocument: string;
      /** Who the business document says issues it (null for a document of another kind). */
      issuer: NamedIssuer | null;
    };

/** The element children of a parsed node, optionally only those named {ns}local. */
const elements = (parent: XNode, ns?: string, local?: string): XNode[] =>
  parent.children.filter((c) => (ns === undefined || c.ns === ns) && (local === undefined || c.local === local));
const child = (parent: XNode | null, local: string): XNode | null =>
  parent ? (elements(parent, NS.sbdh, local)[0] ?? null) : null;
/** The text of an element with surrounding white space removed (SBDH values are tokens). */
const valueOf = (node: XNode | null): string | null => (node ? node.text.trim() : null);

/**
 * Reads a received payload: the SBDH's fields (checked by the Peppol rules in the domain) and the
 * business document after it, serialized on its own with the namespace declarations it uses.
 * Parsed as all untrusted XML of the service is (xml/xmlParser.ts: limits, no DOCTYPE, libxml2 as
 * the gate, then the tree): the business document is serialized by libxml2 from a copy in a
 * document of its own, which declares what the SBDH's root declared for it.
 */
export function readSbdh(payload: Buffer, limits: XmlLimits = DEFAULT_XML_LIMITS): SbdhRead {
  let parsed: ReturnType<typeof parseUntrustedXml>;
  try {
    parsed = parseUntrustedXml(decodeUtf8Xml(payload), limits);
  } catch (error) {
    if (error instanceof UntrustedXmlError || error instanceof XmlInputError)
      return { ok: false, error: 'INVALID_SBD_XML', message: (error as Error).message };
    throw error;
  }
  const root = parsed.root;
  if (root.ns !== NS.sbdh || root.local !== 'StandardBusinessDocument') {
    return {
      ok: false,
      error: 'INVALID_SBD_XML',
      message: `the payload is not a StandardBusinessDocument but {${root.ns}}${root.local}`,
    };
  }
  const header = child(root, 'StandardBusinessDocumentHeader');
  if (!header)
    return {
      ok: false,
      error: 'MISSING_SBDH',
      message: 'the StandardBusinessDocument has no StandardBusinessDocumentHeader',
    };
  const parties = (local: string) =>
    elements(header, NS.sbdh, local).map((p) => {
      const id = child(p, 'Identifier');
      return { authority: id?.attrs.Authority ?? null, value: valueOf(id) ?? '' };
    });
  const identification = child(header, 'DocumentIdentification');
  const businessScope = child(header, 'BusinessScope');
  const others = elements(root).filter((e) => e !== header);
  const fields: SbdhFields = {
    headerVersion: valueOf(child(header, 'HeaderVersion')),
    senders: parties('Sender'),
    receivers: parties('Receiver'),
    document: {
      standard: valueOf(child(identification, 'Standard')),
      typeVersion: valueOf(child(identification, 'TypeVersion')),
      instanceIdentifier: valueOf(child(identification, 'InstanceIdentifier')),
      type: valueOf(child(identification, 'Type')),
      creationDateAndTime: valueOf(child(identification, 'CreationDateAndTime')),
    },
    scopes: businessScope
      ? elements(businessScope, NS.sbdh, 'Scope').map((scope) => ({
          type: valueOf(child(scope, 'Type')),
          instanceIdentifier: valueOf(child(scope, 'InstanceIdentifier')),
          identifier: valueOf(child(scope, 'Identifier')),
        }))
      : null,
    businessMessage: others.length === 1 ? { namespace: others[0]!.ns, localName: others[0]!.local } : null,
  };
  const checked = checkSbdh(fields);
  if (!checked.ok) return checked;
  return { ...checked, businessDocument: businessDocumentOf(parsed.native), issuer: namedIssuerOf(others[0]!) };
}

/**
 * The root's one element child after the header, as a document of its own (unformatted): libxml2
 * serializes it as parsed, and the namespaces it inherits from the SBDH's root are declared on it
 * (all but the SBDH's own, which a business document does not use).
 */
function businessDocumentOf(native: libxmljs.XMLDocument): string {
  const root = native.root()!;
  const elementsOfRoot = root.childNodes().filter((node): node is libxmljs.XMLElement => node.type() === 'element');
  const element = elementsOfRoot[elementsOfRoot.length - 1]!;
  const own = new Set(element.namespaces(true).map((ns) => ns.prefix() ?? ''));
  // The root is its only ancestor. (libxmljs's namespaces() of all those in scope crashes the process.)
  const inherited = root
    .namespaces(true)
    .filter((ns) => !own.has(ns.prefix() ?? '') && ns.href() !== NS.sbdh)
    .map((ns) => ` ${ns.prefix() ? `xmlns:${ns.prefix()}` : 'xmlns'}="${attr(ns.href())}"`)
    .join('');
  const xml = element.toString(false);
  // After the element's name: `<Invoice` or `<ubl:Invoice`, then its attributes.
  const nameEnd = /^<[^\s/>]+/.exec(xml)![0].length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml.slice(0, nameEnd)}${inherited}${xml.slice(nameEnd)}`;
}
