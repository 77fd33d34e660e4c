import type { EbmsError } from './ebmsError.js';
import type { MessageInfo } from './userMessage.js';

/** One ds:Transform of a reference: its algorithm and, for exclusive C14N, the InclusiveNamespaces PrefixList. */
export interface ReferenceTransform {
  algorithm: string;
  inclusivePrefixes: string[] | null;
}

/**
 * One part of a message as its signature names it (a ds:Reference): which part (`#id` or `cid:`),
 * how it was digested, and the digest. A non-repudiation Receipt returns the references of the
 * message it acknowledges, so the sender can check the receiver saw exactly what was sent.
 */
export interface PartDigest {
  uri: string;
  transforms: ReferenceTransform[];
  digestMethod: string;
  /** Base64, as in ds:DigestValue. */
  digestValue: string;
}

/** eb:Receipt. Non-repudiation of receipt (ebbp:NonRepudiationInformation) is what Peppol requires. */
export interface Receipt {
  nonRepudiation: PartDigest[];
}

/** eb:SignalMessage: a Receipt or one or more Errors, for the message its MessageInfo refers to. */
export type SignalMessage =
  | { kind: 'receipt'; messageInfo: MessageInfo; receipt: Receipt }
  | { kind: 'error'; messageInfo: MessageInfo; errors: EbmsError[] };
