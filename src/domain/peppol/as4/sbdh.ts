import { PARTICIPANT_SCHEME, participantKey } from '../participantId.js';
import { DOCUMENT_ID_SCHEME, PROCESS_ID_SCHEME } from '../smpDocuments.js';

/**
 * The Peppol Standard Business Document Header (Peppol Envelope Specification 2.0): who sends what
 * to whom, carried in front of the business document inside the AS4 payload.
 */

export interface ScopedId {
  scheme: string;
  value: string;
}

export interface DocumentIdentification {
  /** The business document's namespace URI, e.g. urn:oasis:names:specification:ubl:schema:xsd:Invoice-2. */
  standard: string;
  typeVersion: string;
  /** Unique per document: the sender's reference for this exchange. */
  instanceIdentifier: string;
  /** The business document's root element name, e.g. Invoice. */
  type: string;
  /** xsd:dateTime. */
  creationDateAndTime: string;
}

export type MlsType = 'ALWAYS_SEND' | 'FAILURE_ONLY';

export interface ExtraScope {
  type: string;
  instanceIdentifier: string;
  identifier: string | null;
}

export interface Sbdh {
  sender: ScopedId;
  receiver: ScopedId;
  document: DocumentIdentification;
  /** The DOCUMENTID scope: the Peppol document type identifier (scheme busdox-docid-qns unless said otherwise). */
  documentType: ScopedId;
  /** The PROCESSID scope (scheme cenbii-procid-ubl unless said otherwise). */
  process: ScopedId;
  /** COUNTRY_C1: the sender's country, ISO 3166-1 alpha-2. */
  countryC1: string;
  /** MLS_TO: where Message Level Status responses go, when not to the sender. */
  mlsTo: ScopedId | null;
  mlsType: MlsType | null;
  /** Scopes Peppol does not define, kept in order. */
  extraScopes: ExtraScope[];
}

/** What an SBDH reader found, before any rule is applied: every field as text, absent as null. */
export interface SbdhFields {
  headerVersion: string | null;
  senders: Array<{ authority: string | null; value: string }>;
  receivers: Array<{ authority: string | null; value: string }>;
  document: { [K in keyof DocumentIdentification]: string | null };
  /** null when there is no BusinessScope element. */
  scopes: Array<{ type: string | null; instanceIdentifier: string | null; identifier: string | null }> | null;
  /** The one element after the header; null when there is none (or text instead). */
  businessMessage: { namespace: string; localName: string } | null;
}

/**
 * The failures of a Peppol SBDH, named as phax/peppol-commons names them
 * (EPeppolSBDHDataError), so that the shared test vectors' expectations read across.
 */
export type SbdhErrorCode =
  | 'INVALID_SBD_XML'
  | 'MISSING_SBDH'
  | 'INVALID_HEADER_VERSION'
  | 'INVALID_SENDER_COUNT'
  | 'INVALID_SENDER_AUTHORITY'
  | 'INVALID_SENDER_VALUE'
  | 'INVALID_RECEIVER_COUNT'
  | 'INVALID_RECEIVER_AUTHORITY'
  | 'INVALID_RECEIVER_VALUE'
  | 'INVALID_STANDARD'
  | 'INVALID_TYPE_VERSION'
  | 'INVALID_TYPE'
  | 'INVALID_INSTANCE_IDENTIFIER'
  | 'BUSINESS_SCOPE_MISSING'
  | 'INVALID_SCOPE_COUNT'
  | 'MISSING_DOCUMENT_TYPE_IDENTIFIER'
  | 'INVALID_DOCUMENT_TYPE_IDENTIFIER'
  | 'MISSING_PROCESS_IDENTIFIER'
  | 'INVALID_PROCESS_IDENTIFIER'
  | 'MISSING_COUNTRY_C1'
  | 'INVALID_MLS_TYPE';

export type SbdhCheck =
  { ok: true; sbdh: Sbdh; warnings: string[] } | { ok: false; error: SbdhErrorCode; message: string };

/** The Peppol envelope wrapper elements for non-XML payloads (BinaryContent, TextContent). */
export const PEPPOL_ENVELOPE_WRAPPER_NS = 'http://peppol.eu/xsd/ticc/envelope/1.0';

const fail = (error: SbdhErrorCode, message: string): SbdhCheck => ({ ok: false, error, message });
const blank = (s: string | null | undefined): boolean => s === null || s === undefined || s.trim() === '';
// xsd:dateTime: the lexical form, with or without fraction and zone.
const DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const UBL_NS = 'urn:oasis:names:specification:ubl:schema:xsd:';
// Peppol Policy for use of identifiers: document type values up to 500, process values up to 200 characters.
const MAX_DOCUMENT_TYPE = 500;
const MAX_PROCESS = 200;

function party(list: SbdhFields['senders'], role: 'SENDER' | 'RECEIVER'): SbdhCheck | ScopedId {
  const [count, authority, value] =
    role === 'SENDER'
      ? (['INVALID_SENDER_COUNT', 'INVALID_SENDER_AUTHORITY', 'INVALID_SENDER_VALUE'] as const)
      : (['INVALID_RECEIVER_COUNT', 'INVALID_RECEIVER_AUTHORITY', 'INVALID_RECEIVER_VALUE'] as const);
  const name = role === 'SENDER' ? 'Sender' : 'Receiver';
  if (list.length === 0) return fail('INVALID_SBD_XML', `the SBDH has no ${name}`);
  if (list.length > 1) return fail(count, `the SBDH has ${list.length} ${name} elements, Peppol allows one`);
  const only = list[0]!;
  if (only.authority?.trim() !== PARTICIPANT_SCHEME)
    return fail(
      authority,
      `${name}/Identifier/@Authority must be ${PARTICIPANT_SCHEME}, got "${only.authority ?? ''}"`,
    );
  if (!participantKey(only.value))
    return fail(value, `${name}/Identifier "${only.value}" is not a Peppol participant id (<icd>:<identifier>)`);
  return { scheme: PARTICIPANT_SCHEME, value: only.value.trim() };
}

const isCheck = (x: SbdhCheck | ScopedId): x is SbdhCheck => 'ok' in x;

/**
 * Applies the Peppol Envelope Specification's rules to what a reader found. The first broken rule
 * is reported; an MLS_TO that is not a participant id is only a warning (as in peppol-commons since
 * 12.3.9), because the MLS specification came after many senders had written it loosely.
 */
export function checkSbdh(fields: SbdhFields): SbdhCheck {
  const warnings: string[] = [];
  if (fields.headerVersion?.trim() !== '1.0')
    return fail('INVALID_HEADER_VERSION', `HeaderVersion must be 1.0, got "${fields.headerVersion ?? ''}"`);
  const sender = party(fields.senders, 'SENDER');
  if (isCheck(sender)) return sender;
  const receiver = party(fields.receivers, 'RECEIVER');
  if (isCheck(receiver)) return receiver;

  const d = fields.document;
  for (const [key, value] of Object.entries(d))
    if (value === null) return fail('INVALID_SBD_XML', `DocumentIdentification/${key} is missing`);
  if (!DATE_TIME.test(d.creationDateAndTime!.trim()))
    return fail('INVALID_SBD_XML', `CreationDateAndTime "${d.creationDateAndTime}" is not an xsd:dateTime`);
  const business = fields.businessMessage;
  if (!business) return fail('INVALID_SBD_XML', 'the SBDH is followed by no business document element');
  // A wrapped binary or text payload (Peppol envelope BinaryContent/TextContent) says nothing about Standard or Type.
  const wrapped = business.namespace === PEPPOL_ENVELOPE_WRAPPER_NS;
  if (!wrapped && d.standard!.trim() !== business.namespace) {
    return fail(
      'INVALID_STANDARD',
      `Standard "${d.standard}" is not the business document's namespace ${business.namespace}`,
    );
  }
  if (blank(d.typeVersion) || (d.standard!.trim().startsWith(UBL_NS) && !/^\d+\.\d+$/.test(d.typeVersion!.trim()))) {
    return fail('INVALID_TYPE_VERSION', `TypeVersion "${d.typeVersion}" is not a version of ${d.standard}`);
  }
  if (!wrapped && d.type!.trim() !== business.localName)
    return fail('INVALID_TYPE', `Type "${d.type}" is not the business document's element ${business.localName}`);
  if (blank(d.instanceIdentifier)) return fail('INVALID_INSTANCE_IDENTIFIER', 'InstanceIdentifier is empty');

  if (fields.scopes === null) return fail('BUSINESS_SCOPE_MISSING', 'the SBDH has no BusinessScope');
  for (const s of fields.scopes) {
    if (s.type === null || s.instanceIdentifier === null)
      return fail('INVALID_SBD_XML', 'a Scope lacks its Type or InstanceIdentifier');
  }
  if (fields.scopes.length < 3)
    return fail(
      'INVALID_SCOPE_COUNT',
      `BusinessScope has ${fields.scopes.length} scopes, Peppol requires at least DOCUMENTID, PROCESSID and COUNTRY_C1`,
    );
  const scope = (type: string) => fields.scopes!.find((s) => s.type!.trim() === type) ?? null;

  const documentScope = scope('DOCUMENTID');
  if (!documentScope) return fail('MISSING_DOCUMENT_TYPE_IDENTIFIER', 'BusinessScope has no DOCUMENTID scope');
  const documentType = {
    scheme: documentScope.identifier?.trim() || DOCUMENT_ID_SCHEME,
    value: documentScope.instanceIdentifier!.trim(),
  };
  if (documentType.value === '' || documentType.value.length > MAX_DOCUMENT_TYPE)
    return fail(
      'INVALID_DOCUMENT_TYPE_IDENTIFIER',
      `DOCUMENTID "${documentType.value}" is not a document type identifier`,
    );
  const processScope = scope('PROCESSID');
  if (!processScope) return fail('MISSING_PROCESS_IDENTIFIER', 'BusinessScope has no PROCESSID scope');
  const process = {
    scheme: processScope.identifier?.trim() || PROCESS_ID_SCHEME,
    value: processScope.instanceIdentifier!.trim(),
  };
  if (process.value === '' || process.value.length > MAX_PROCESS)
    return fail('INVALID_PROCESS_IDENTIFIER', `PROCESSID "${process.value}" is not a process identifier`);
  const countryScope = scope('COUNTRY_C1');
  if (!countryScope || !/^[A-Z]{2}$/.test(countryScope.instanceIdentifier!.trim()))
    return fail('MISSING_COUNTRY_C1', 'BusinessScope has no COUNTRY_C1 scope with a two-letter country code');

  let mlsTo: ScopedId | null = null;
  const mlsToScope = scope('MLS_TO');
  if (mlsToScope) {
    mlsTo = { scheme: mlsToScope.identifier?.trim() || '', value: mlsToScope.instanceIdentifier!.trim() };
    if (mlsTo.scheme !== PARTICIPANT_SCHEME || !participantKey(mlsTo.value))
      warnings.push(`MLS_TO "${mlsTo.value}" (scheme "${mlsTo.scheme}") is not a Peppol participant id`);
  }
  let mlsType: MlsType | null = null;
  const mlsTypeScope = scope('MLS_TYPE');
  if (mlsTypeScope) {
    const value = mlsTypeScope.instanceIdentifier!.trim();
    if (value !== 'ALWAYS_SEND' && value !== 'FAILURE_ONLY')
      return fail('INVALID_MLS_TYPE', `MLS_TYPE must be ALWAYS_SEND or FAILURE_ONLY, got "${value}"`);
    mlsType = value;
  }
  const known = new Set(['DOCUMENTID', 'PROCESSID', 'COUNTRY_C1', 'MLS_TO', 'MLS_TYPE']);
  const extraScopes = fields.scopes
    .filter((s) => !known.has(s.type!.trim()))
    .map((s) => ({
      type: s.type!.trim(),
      instanceIdentifier: s.instanceIdentifier!.trim(),
      identifier: s.identifier?.trim() || null,
    }));
  return {
    ok: true,
    warnings,
    sbdh: {
      sender,
      receiver,
      document: {
        standard: d.standard!.trim(),
        typeVersion: d.typeVersion!.trim(),
        instanceIdentifier: d.instanceIdentifier!.trim(),
        type: d.type!.trim(),
        creationDateAndTime: d.creationDateAndTime!.trim(),
      },
      documentType,
      process,
      countryC1: countryScope.instanceIdentifier!.trim(),
      mlsTo,
      mlsType,
      extraScopes,
    },
  };
}
