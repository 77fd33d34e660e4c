import { createHash } from 'node:crypto';
import type { Event } from '../../domain/decider.js';
import type { ContentRef } from '../../domain/document/lifecycle/documentContent.js';
import type { As4EnvelopeFacts } from '../../domain/document/lifecycle/documentAggregate.js';
import type { MlsType, ScopedId } from '../../domain/peppol/as4/sbdh.js';

/**
 * One AS4 message this access point received, stored and acknowledged: the only event of the
 * stream of its MessageId. A sender's retry finds it here and gets the same receipt back.
 */
export type As4MessageReceived = Event<
  'As4MessageReceived',
  {
    message_id: string;
    /** The sending access point's seat id. */
    sender_ap: string;
    /** The receiving tenant (null: none, e.g. an Invoice Response for no document of ours). */
    tenant_id: string | null;
    /** The inbound document it became, or the outbound document an Invoice Response or an MLS was recorded on. */
    document_id: string | null;
    /**
     * document: in the receiver's inbox; invoice-response: taken in; refused: acknowledged (the AS4
     * transfer succeeded) but not delivered, its business rules fail (an MLS RE says so); mls: a
     * Message Level Status to this access point.
     */
    kind: 'document' | 'invoice-response' | 'refused' | 'mls';
    /** The message as received (bytes) and its HTTP Content-Type (the MIME boundary is in it). */
    message_ref: ContentRef;
    message_content_type: string;
    /** The signed receipt as answered. */
    receipt_ref: ContentRef;
    receipt_content_type: string;
    received_at: string;
    /**
     * What its envelope (SBDH) said: sender and receiver participants, document type, process,
     * COUNTRY_C1; for the Peppol Reporting. Absent on events recorded before it was kept.
     */
    envelope?: As4EnvelopeFacts & { sender: string; receiver: string };
    /**
     * The SBDH's InstanceIdentifier (what an MLS refers to) and what it asks of MLS (MLS_TO,
     * MLS_TYPE; null when absent). Absent on events recorded before MLS was handled.
     */
    sbdh?: { instance_id: string; mls_to: ScopedId | null; mls_type: MlsType | null };
    /** kind refused: the business rules that refused it (fatal ones), by the rule set named. */
    refusal?: { rule_set: string; issues: Array<{ rule_id: string | null; message: string; location: string | null }> };
    /**
     * The signed digests of its payloads (`<DigestMethod> <DigestValue>`, sorted): a message with
     * the same MessageId and other digests is another message. Absent on events recorded before.
     */
    payload_digests?: string[];
  }
>;

/** `as4in-<sha256 of the MessageId>`: a MessageId is the sender's text, of any length and alphabet. */
export const as4MessageStream = (messageId: string): string =>
  `as4in-${createHash('sha256').update(messageId, 'utf8').digest('hex')}`;
