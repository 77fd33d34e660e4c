import { PARTICIPANT_SCHEME, sameParticipant } from '../participantId.js';
import { DOCUMENT_ID_SCHEME } from '../smpDocuments.js';
import { ebmsError, notServiced, type EbmsError } from './ebmsError.js';
import type { Sbdh } from './sbdh.js';
import type { NamedIssuer } from '../senderIdentity.js';
import { contentIdOfHref, hrefOfContentId, propertyValue, type UserMessage } from './userMessage.js';

/** The values the Peppol AS4 profile (2.0) fixes in every UserMessage. */
export const PEPPOL_PARTY_ID_TYPE = 'urn:fdc:peppol.eu:2017:identifiers:ap';
export const EBMS_ROLE_INITIATOR = 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator';
export const EBMS_ROLE_RESPONDER = 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/responder';
export const PEPPOL_AGREEMENT_REF = 'urn:fdc:peppol.eu:2017:agreements:tia:ap_provider';
export const PROPERTY_ORIGINAL_SENDER = 'originalSender';
export const PROPERTY_FINAL_RECIPIENT = 'finalRecipient';
export const PART_PROPERTY_MIME_TYPE = 'MimeType';
export const PART_PROPERTY_COMPRESSION_TYPE = 'CompressionType';
export const GZIP_MIME_TYPE = 'application/gzip';
/** The SBDH-wrapped business document is XML. */
export const PAYLOAD_MIME_TYPE = 'application/xml';

/**
 * A Peppol seat id: `P`, two letters (the Peppol Authority) and six digits, e.g. POP000001. An AP
 * certificate's subject CN is the seat id, and the AS4 party id is that CN.
 */
export const isPeppolSeatId = (text: string): boolean => /^P[A-Z]{2}\d{6}$/.test(text);

/** The eb:Action of a Peppol message: the document type identifier with its scheme, `busdox-docid-qns::…`. */
export const peppolAction = (documentType: { scheme: string; value: string }): string =>
  `${documentType.scheme}::${documentType.value}`;

export interface PeppolMessageAddressing {
  messageId: string;
  timestamp: string;
  conversationId: string;
  /** This AP's seat id (its certificate's CN). */
  fromParty: string;
  /** The receiving AP's seat id (the CN of the certificate its SMP entry publishes). */
  toParty: string;
  /** The Content-ID of the MIME part that carries the compressed SBDH. */
  payloadContentId: string;
}

/**
 * The UserMessage for one SBDH-wrapped business document, as the Peppol AS4 profile requires:
 * party ids of the Peppol AP type, initiator/responder roles, the ap_provider agreement, Service =
 * the process (its scheme as type), Action = the document type, originalSender/finalRecipient =
 * the SBDH's sender and receiver, one gzip-compressed XML payload.
 */
export function peppolUserMessage(sbdh: Sbdh, addressing: PeppolMessageAddressing): UserMessage {
  return {
    messageInfo: { timestamp: addressing.timestamp, messageId: addressing.messageId, refToMessageId: null },
    partyInfo: {
      from: { partyId: { type: PEPPOL_PARTY_ID_TYPE, value: addressing.fromParty }, role: EBMS_ROLE_INITIATOR },
      to: { partyId: { type: PEPPOL_PARTY_ID_TYPE, value: addressing.toParty }, role: EBMS_ROLE_RESPONDER },
    },
    collaborationInfo: {
      agreementRef: PEPPOL_AGREEMENT_REF,
      service: { type: sbdh.process.scheme, value: sbdh.process.value },
      action: peppolAction(sbdh.documentType),
      conversationId: addressing.conversationId,
    },
    messageProperties: [
      { name: PROPERTY_ORIGINAL_SENDER, type: sbdh.sender.scheme, value: sbdh.sender.value },
      { name: PROPERTY_FINAL_RECIPIENT, type: sbdh.receiver.scheme, value: sbdh.receiver.value },
    ],
    payloadInfo: [
      {
        href: hrefOfContentId(addressing.payloadContentId),
        properties: [
          { name: PART_PROPERTY_MIME_TYPE, type: null, value: PAYLOAD_MIME_TYPE },
          { name: PART_PROPERTY_COMPRESSION_TYPE, type: null, value: GZIP_MIME_TYPE },
        ],
      },
    ],
  };
}

/**
 * What a receiving AP checks in a UserMessage before it opens the payload: the Peppol profile's
 * fixed values, exactly one payload, and that this AP is the addressee (`ownSeatId`). Returns the
 * errors to answer with, none when it conforms.
 */
export function checkPeppolHeader(message: UserMessage, ownSeatId: string): EbmsError[] {
  const id = message.messageInfo.messageId;
  const problems: EbmsError[] = [];
  const inconsistent = (what: string) => problems.push(ebmsError('valueInconsistent', id, what));
  const { from, to } = message.partyInfo;
  if (from.partyId.type !== PEPPOL_PARTY_ID_TYPE || to.partyId.type !== PEPPOL_PARTY_ID_TYPE)
    inconsistent(`PartyId type must be ${PEPPOL_PARTY_ID_TYPE}`);
  if (from.role !== EBMS_ROLE_INITIATOR || to.role !== EBMS_ROLE_RESPONDER)
    inconsistent('the From role must be initiator and the To role responder');
  if (message.collaborationInfo.agreementRef !== PEPPOL_AGREEMENT_REF)
    inconsistent(`AgreementRef must be ${PEPPOL_AGREEMENT_REF}`);
  if (to.partyId.value !== ownSeatId)
    problems.push(
      notServiced(id, `the message is addressed to access point ${to.partyId.value}, this is ${ownSeatId}`),
    );
  for (const name of [PROPERTY_ORIGINAL_SENDER, PROPERTY_FINAL_RECIPIENT]) {
    if (propertyValue(message.messageProperties, name) === null)
      problems.push(ebmsError('valueNotRecognized', id, `MessageProperties must carry exactly one ${name}`));
  }
  if (message.payloadInfo.length !== 1) {
    problems.push(
      ebmsError(
        'valueInconsistent',
        id,
        `a Peppol message carries exactly one payload, this one ${message.payloadInfo.length}`,
      ),
    );
  } else {
    const part = message.payloadInfo[0]!;
    if (contentIdOfHref(part.href) === null)
      problems.push(ebmsError('externalPayloadError', id, `the payload must be a MIME part (cid:), not ${part.href}`));
    if (propertyValue(part.properties, PART_PROPERTY_COMPRESSION_TYPE) !== GZIP_MIME_TYPE) {
      problems.push(
        ebmsError(
          'valueInconsistent',
          id,
          `the payload must be compressed (${PART_PROPERTY_COMPRESSION_TYPE} ${GZIP_MIME_TYPE})`,
        ),
      );
    }
  }
  return problems;
}

/**
 * The sending AP is who signed: the From PartyId must be the seat id in the subject CN of the
 * certificate that signed the message (each Peppol AP certificate carries its seat id as CN).
 */
export function checkSenderIsSigner(message: UserMessage, signerCommonName: string | null): EbmsError | null {
  const from = message.partyInfo.from.partyId.value;
  if (signerCommonName !== null && signerCommonName === from) return null;
  return ebmsError(
    'valueInconsistent',
    message.messageInfo.messageId,
    `the From PartyId ${from} is not the signing certificate's CN ${signerCommonName ?? '(none)'}`,
  );
}

/**
 * phase4's Peppol receiver (Phase4PeppolServletMessageProcessorSPI) answers a message whose
 * parties disagree (originalSender or finalRecipient not the SBDH's) with EBMS:0004 and the reason
 * as its ErrorDetail; this access point answers the same, so a sender reads one answer from both.
 */
const partiesDisagree = (messageId: string, what: string): EbmsError => ebmsError('other', messageId, what, what);

/**
 * The envelope and the header must tell one story: originalSender/finalRecipient are the SBDH's
 * sender and receiver (EBMS:0004, as phase4 answers), the Action its document type and the Service
 * its process (EBMS:0003 ValueInconsistent) (Peppol AS4 profile, "Relationship to the SBDH").
 */
export function checkSbdhAgainstHeader(message: UserMessage, sbdh: Sbdh): EbmsError[] {
  const id = message.messageInfo.messageId;
  const problems: EbmsError[] = [];
  const inconsistent = (what: string) => problems.push(ebmsError('valueInconsistent', id, what));
  const properties = message.messageProperties;
  const originalSender = propertyValue(properties, PROPERTY_ORIGINAL_SENDER);
  if (!sameParticipant(originalSender, sbdh.sender.value))
    problems.push(partiesDisagree(id, `originalSender ${originalSender} is not the SBDH sender ${sbdh.sender.value}`));
  const finalRecipient = propertyValue(properties, PROPERTY_FINAL_RECIPIENT);
  if (!sameParticipant(finalRecipient, sbdh.receiver.value))
    problems.push(
      partiesDisagree(id, `finalRecipient ${finalRecipient} is not the SBDH receiver ${sbdh.receiver.value}`),
    );
  const action = message.collaborationInfo.action;
  // The scheme prefix is optional on the wire: `busdox-docid-qns::` is the only document type scheme.
  if (
    action !== peppolAction(sbdh.documentType) &&
    !(sbdh.documentType.scheme === DOCUMENT_ID_SCHEME && action === sbdh.documentType.value)
  ) {
    inconsistent(`Action is not the SBDH document type ${peppolAction(sbdh.documentType)}`);
  }
  const service = message.collaborationInfo.service;
  if (service.value !== sbdh.process.value || (service.type !== null && service.type !== sbdh.process.scheme)) {
    inconsistent(`Service is not the SBDH process ${sbdh.process.scheme}::${sbdh.process.value}`);
  }
  return problems;
}

/**
 * The business document is from the SBDH's sender: its issuer's EndpointID (the seller's; the
 * buyer's in self-billing; an Invoice Response's SenderParty) is the SBDH sender (and so the
 * originalSender). A message whose document names another issuer, or none, is someone sending as
 * another participant: refused like the other disagreements of parties (EBMS:0004). phase4 does
 * not look into the document; receivers that do, as this one, close the gap a sender could use.
 */
export function checkIssuerIsSender(message: UserMessage, sbdh: Sbdh, issuer: NamedIssuer | null): EbmsError | null {
  if (issuer === null || sameParticipant(issuer.id, sbdh.sender.value)) return null;
  return partiesDisagree(
    message.messageInfo.messageId,
    issuer.id === null
      ? `the business document names no issuer (${issuer.path} is missing), so it is not from the SBDH sender ${sbdh.sender.value}`
      : `the business document's issuer ${issuer.id} (${issuer.path}) is not the SBDH sender ${sbdh.sender.value}`,
  );
}

/** Whether this AP's tenants take this receiver and document type; when not, the Peppol "not serviced" answer. */
export function checkServiced(
  message: UserMessage,
  sbdh: Sbdh,
  serves: (participant: string, documentType: string) => boolean,
): EbmsError | null {
  if (sbdh.receiver.scheme === PARTICIPANT_SCHEME && serves(sbdh.receiver.value, sbdh.documentType.value)) return null;
  return notServiced(
    message.messageInfo.messageId,
    `receiver ${sbdh.receiver.value} does not receive ${sbdh.documentType.value} at this access point`,
  );
}
