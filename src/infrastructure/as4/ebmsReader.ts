import type { EbmsError } from '../../domain/peppol/as4/ebmsError.js';
import type { PartDigest, SignalMessage } from '../../domain/peppol/as4/signalMessage.js';
import type { MessageInfo, Party, Property, UserMessage } from '../../domain/peppol/as4/userMessage.js';
import { As4Failure } from './as4Failure.js';
import { NS } from './namespaces.js';
import { envelopeParts, idOf, readReference } from './wsSecurityTokens.js';
import { attributeOf, childElements, firstChild, textOf } from './xmlDom.js';

/** The eb:Messaging header of a message, read into the domain's types. */
export type EbmsContent = { kind: 'user'; message: UserMessage } | { kind: 'signal'; signal: SignalMessage };

export interface ReadMessaging {
  /** The eb:Messaging element itself (its wsu:Id must be among the signed references). */
  element: Element;
  id: string | null;
  bodyId: string | null;
  soapVersion: '1.2' | '1.1';
  content: EbmsContent;
}

const invalid = (message: string) => new As4Failure('invalidHeader', message);

function required(parent: Element, local: string, where: string): Element {
  const found = childElements(parent, NS.eb, local);
  if (found.length !== 1) throw invalid(`${where} must have exactly one eb:${local}`);
  return found[0]!;
}

function requiredText(parent: Element, local: string, where: string): string {
  const value = textOf(required(parent, local, where));
  if (!value) throw invalid(`${where}/eb:${local} is empty`);
  return value;
}

const optionalText = (parent: Element, local: string): string | null =>
  textOf(firstChild(parent, NS.eb, local)) || null;

function readMessageInfo(parent: Element): MessageInfo {
  const info = required(parent, 'MessageInfo', parent.localName);
  return {
    timestamp: requiredText(info, 'Timestamp', 'MessageInfo'),
    messageId: requiredText(info, 'MessageId', 'MessageInfo'),
    refToMessageId: optionalText(info, 'RefToMessageId'),
  };
}

const readProperties = (parent: Element | null): Property[] =>
  parent
    ? childElements(parent, NS.eb, 'Property').map((p) => ({
        name: attributeOf(p, 'name') ?? '',
        type: attributeOf(p, 'type'),
        // An element's text is a string (textOf is null only without an element).
        value: textOf(p)!,
      }))
    : [];

function readParty(partyInfo: Element, local: 'From' | 'To'): Party {
  const party = required(partyInfo, local, 'PartyInfo');
  // ebMS allows several PartyIds; Peppol uses one, and two would leave "who" ambiguous.
  const ids = childElements(party, NS.eb, 'PartyId');
  if (ids.length !== 1) throw invalid(`${local} must have exactly one PartyId`);
  const value = textOf(ids[0]!);
  if (!value) throw invalid(`${local}/PartyId is empty`);
  return { partyId: { type: attributeOf(ids[0]!, 'type'), value }, role: requiredText(party, 'Role', local) };
}

function readUserMessage(element: Element): UserMessage {
  const partyInfo = required(element, 'PartyInfo', 'UserMessage');
  const collaboration = required(element, 'CollaborationInfo', 'UserMessage');
  const service = required(collaboration, 'Service', 'CollaborationInfo');
  const serviceValue = textOf(service);
  if (!serviceValue) throw invalid('CollaborationInfo/Service is empty');
  const payloadInfo = firstChild(element, NS.eb, 'PayloadInfo');
  return {
    messageInfo: readMessageInfo(element),
    partyInfo: { from: readParty(partyInfo, 'From'), to: readParty(partyInfo, 'To') },
    collaborationInfo: {
      agreementRef: optionalText(collaboration, 'AgreementRef'),
      service: { type: attributeOf(service, 'type'), value: serviceValue },
      action: requiredText(collaboration, 'Action', 'CollaborationInfo'),
      conversationId: requiredText(collaboration, 'ConversationId', 'CollaborationInfo'),
    },
    messageProperties: readProperties(firstChild(element, NS.eb, 'MessageProperties')),
    payloadInfo: (payloadInfo ? childElements(payloadInfo, NS.eb, 'PartInfo') : []).map((p) => ({
      href: attributeOf(p, 'href') ?? '',
      properties: readProperties(firstChild(p, NS.eb, 'PartProperties')),
    })),
  };
}

function readError(e: Element): EbmsError {
  const errorCode = attributeOf(e, 'errorCode');
  const severity = attributeOf(e, 'severity');
  if (!errorCode || !severity) throw invalid('eb:Error must have errorCode and severity');
  return {
    errorCode,
    severity,
    category: attributeOf(e, 'category'),
    origin: attributeOf(e, 'origin'),
    shortDescription: attributeOf(e, 'shortDescription'),
    refToMessageInError: attributeOf(e, 'refToMessageInError'),
    description: optionalText(e, 'Description'),
    errorDetail: optionalText(e, 'ErrorDetail'),
  };
}

function readSignal(element: Element): SignalMessage {
  const messageInfo = readMessageInfo(element);
  const receipts = childElements(element, NS.eb, 'Receipt');
  const errors = childElements(element, NS.eb, 'Error');
  if (receipts.length + (errors.length > 0 ? 1 : 0) !== 1)
    throw invalid('a SignalMessage must carry one Receipt or Errors');
  if (errors.length > 0) return { kind: 'error', messageInfo, errors: errors.map(readError) };
  const nrr = firstChild(receipts[0]!, NS.ebbp, 'NonRepudiationInformation');
  const nonRepudiation: PartDigest[] = nrr
    ? childElements(nrr, NS.ebbp, 'MessagePartNRInformation').flatMap((part) =>
        childElements(part, NS.ds, 'Reference').map(readReference),
      )
    : [];
  return { kind: 'receipt', messageInfo, receipt: { nonRepudiation } };
}

/**
 * Reads the one eb:Messaging header of a SOAP envelope: exactly one UserMessage or one
 * SignalMessage (the Peppol profile bundles nothing). What does not fit is EBMS:0009 InvalidHeader.
 */
export function readMessaging(doc: Document): ReadMessaging {
  let parts: ReturnType<typeof envelopeParts>;
  try {
    parts = envelopeParts(doc);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  if (!parts.header) throw invalid('the SOAP envelope has no Header');
  if (!parts.body) throw invalid('the SOAP envelope has no Body');
  const headers = childElements(parts.header, NS.eb, 'Messaging');
  if (headers.length !== 1)
    throw invalid(
      headers.length === 0
        ? 'the message has no eb:Messaging header'
        : 'the message has more than one eb:Messaging header',
    );
  const element = headers[0]!;
  const users = childElements(element, NS.eb, 'UserMessage');
  const signals = childElements(element, NS.eb, 'SignalMessage');
  if (users.length + signals.length !== 1)
    throw invalid('eb:Messaging must carry exactly one UserMessage or SignalMessage');
  const content: EbmsContent =
    users.length === 1
      ? { kind: 'user', message: readUserMessage(users[0]!) }
      : { kind: 'signal', signal: readSignal(signals[0]!) };
  return {
    element,
    id: idOf(element),
    bodyId: idOf(parts.body),
    soapVersion: parts.soapNs === NS.soap12 ? '1.2' : '1.1',
    content,
  };
}
