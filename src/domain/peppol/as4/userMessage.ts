/**
 * The ebMS 3.0 UserMessage, one type per element of the header (OASIS ebMS 3.0 Core, 5.2.2), as
 * plain data. Optional attributes the schema allows to be absent are null rather than missing, so
 * that a reader and a writer agree on one shape.
 */

/** eb:MessageInfo: the same element heads a UserMessage and a SignalMessage. */
export interface MessageInfo {
  /** xsd:dateTime, UTC. */
  timestamp: string;
  messageId: string;
  refToMessageId: string | null;
}

export interface PartyId {
  /** The `type` attribute; Peppol uses PEPPOL_PARTY_ID_TYPE and the seat id as the value. */
  type: string | null;
  value: string;
}

/** eb:From or eb:To. */
export interface Party {
  partyId: PartyId;
  role: string;
}

export interface PartyInfo {
  from: Party;
  to: Party;
}

export interface Service {
  type: string | null;
  value: string;
}

export interface CollaborationInfo {
  agreementRef: string | null;
  service: Service;
  action: string;
  conversationId: string;
}

/** eb:Property, in MessageProperties and in a PartInfo's PartProperties. */
export interface Property {
  name: string;
  type: string | null;
  value: string;
}

/** eb:PartInfo: one payload, by `cid:` reference to a MIME part. */
export interface PartInfo {
  href: string;
  properties: Property[];
}

export interface UserMessage {
  messageInfo: MessageInfo;
  partyInfo: PartyInfo;
  collaborationInfo: CollaborationInfo;
  messageProperties: Property[];
  payloadInfo: PartInfo[];
}

/** The value of the one property called `name`, or null when there is none or more than one. */
export function propertyValue(properties: readonly Property[], name: string): string | null {
  const found = properties.filter((p) => p.name === name);
  return found.length === 1 ? found[0]!.value : null;
}

/** `cid:abc@x` → `abc@x` (RFC 2392 URLs are percent-encoded); null for any other reference. */
export function contentIdOfHref(href: string): string | null {
  if (!/^cid:/i.test(href)) return null;
  try {
    const id = decodeURIComponent(href.slice(4));
    return id === '' ? null : id;
  } catch {
    return null;
  }
}

/** The `cid:` URL of a Content-ID, as PartInfo/@href and a signature reference name it. */
export const hrefOfContentId = (contentId: string): string => `cid:${contentId}`;
