import type { EbmsError } from '../../domain/peppol/as4/ebmsError.js';
import type { Receipt } from '../../domain/peppol/as4/signalMessage.js';
import type { MessageInfo, Property, UserMessage } from '../../domain/peppol/as4/userMessage.js';
import { escapeAttribute as attr, escapeText as text } from '../../domain/xml/xmlWriter.js';
import { NS } from './namespaces.js';
import { referenceXml } from './wsSecurityTokens.js';

/**
 * Writes the ebMS 3.0 header (eb:Messaging) and the SOAP 1.2 envelope around it, as text in the
 * schema's element order. Every value from a message or a caller is escaped; names are literals.
 */

const optionalAttr = (name: string, value: string | null) => (value === null ? '' : ` ${name}="${attr(value)}"`);

function messageInfoXml(info: MessageInfo): string {
  return (
    `<eb:MessageInfo><eb:Timestamp>${text(info.timestamp)}</eb:Timestamp><eb:MessageId>${text(info.messageId)}</eb:MessageId>` +
    (info.refToMessageId === null ? '' : `<eb:RefToMessageId>${text(info.refToMessageId)}</eb:RefToMessageId>`) +
    '</eb:MessageInfo>'
  );
}

const propertyXml = (p: Property) =>
  `<eb:Property name="${attr(p.name)}"${optionalAttr('type', p.type)}>${text(p.value)}</eb:Property>`;

export function userMessageXml(m: UserMessage): string {
  const party = (tag: 'From' | 'To', p: UserMessage['partyInfo']['from']) =>
    `<eb:${tag}><eb:PartyId${optionalAttr('type', p.partyId.type)}>${text(p.partyId.value)}</eb:PartyId><eb:Role>${text(p.role)}</eb:Role></eb:${tag}>`;
  const c = m.collaborationInfo;
  return (
    '<eb:UserMessage>' +
    messageInfoXml(m.messageInfo) +
    `<eb:PartyInfo>${party('From', m.partyInfo.from)}${party('To', m.partyInfo.to)}</eb:PartyInfo>` +
    '<eb:CollaborationInfo>' +
    (c.agreementRef === null ? '' : `<eb:AgreementRef>${text(c.agreementRef)}</eb:AgreementRef>`) +
    `<eb:Service${optionalAttr('type', c.service.type)}>${text(c.service.value)}</eb:Service>` +
    `<eb:Action>${text(c.action)}</eb:Action><eb:ConversationId>${text(c.conversationId)}</eb:ConversationId>` +
    '</eb:CollaborationInfo>' +
    (m.messageProperties.length === 0
      ? ''
      : `<eb:MessageProperties>${m.messageProperties.map(propertyXml).join('')}</eb:MessageProperties>`) +
    (m.payloadInfo.length === 0
      ? ''
      : `<eb:PayloadInfo>${m.payloadInfo
          .map(
            (p) =>
              `<eb:PartInfo href="${attr(p.href)}">${p.properties.length === 0 ? '' : `<eb:PartProperties>${p.properties.map(propertyXml).join('')}</eb:PartProperties>`}</eb:PartInfo>`,
          )
          .join('')}</eb:PayloadInfo>`) +
    '</eb:UserMessage>'
  );
}

/** A Receipt signal; with NRR it returns the references of the message it acknowledges. */
export function receiptSignalXml(info: MessageInfo, receipt: Receipt): string {
  const nrr = receipt.nonRepudiation
    .map((r) => `<ebbp:MessagePartNRInformation>${referenceXml(r)}</ebbp:MessagePartNRInformation>`)
    .join('');
  return (
    `<eb:SignalMessage>${messageInfoXml(info)}<eb:Receipt>` +
    `<ebbp:NonRepudiationInformation xmlns:ebbp="${NS.ebbp}" xmlns:ds="${NS.ds}">${nrr}</ebbp:NonRepudiationInformation>` +
    '</eb:Receipt></eb:SignalMessage>'
  );
}

export function errorSignalXml(info: MessageInfo, errors: readonly EbmsError[]): string {
  const one = (e: EbmsError) =>
    `<eb:Error${optionalAttr('category', e.category)}${optionalAttr('refToMessageInError', e.refToMessageInError)} errorCode="${attr(e.errorCode)}"` +
    `${optionalAttr('origin', e.origin)} severity="${attr(e.severity)}"${optionalAttr('shortDescription', e.shortDescription)}>` +
    (e.description === null ? '' : `<eb:Description xml:lang="en">${text(e.description)}</eb:Description>`) +
    (e.errorDetail === null ? '' : `<eb:ErrorDetail>${text(e.errorDetail)}</eb:ErrorDetail>`) +
    '</eb:Error>';
  return `<eb:SignalMessage>${messageInfoXml(info)}${errors.map(one).join('')}</eb:SignalMessage>`;
}

/**
 * The SOAP 1.2 envelope: an empty wsse:Security header to sign into, eb:Messaging with `content`
 * (mustUnderstand, as the AS4 profile requires), and an empty Body; both carry the wsu:Ids the
 * signature references.
 */
export function envelopeXml(content: string, ids: { messaging: string; body: string }): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><S12:Envelope xmlns:S12="${NS.soap12}"><S12:Header>` +
    `<wsse:Security xmlns:wsse="${NS.wsse}" xmlns:wsu="${NS.wsu}" S12:mustUnderstand="true"></wsse:Security>` +
    `<eb:Messaging xmlns:eb="${NS.eb}" xmlns:wsu="${NS.wsu}" S12:mustUnderstand="true" wsu:Id="${attr(ids.messaging)}">${content}</eb:Messaging>` +
    `</S12:Header><S12:Body xmlns:wsu="${NS.wsu}" wsu:Id="${attr(ids.body)}"/></S12:Envelope>`
  );
}
