import type { As4AttemptEvidence } from '../../domain/document/lifecycle/documentAggregate.js';
import type { PeppolDocumentKind } from '../../domain/peppol/peppolDocumentTypes.js';
import { AS4_CLIENT, type As4Client, type As4SendResult } from '../ports/as4Sending.js';
import type { TransportOutcome } from '../ports/transport.js';
import type { Logger } from 'pino';
import { LOGGER } from '../ports/logger.js';
import { SERVICE_PROVIDER, type ServiceProvider } from '../ports/serviceProvider.js';
import { DocumentContent } from '../documents/documentContent.js';
import { inject, injectable } from '../injection.js';
import { As4EndpointResolver } from './as4EndpointResolver.js';

export interface As4Shipment {
  /** The AS4 MessageId: the same for every attempt of one delivery. */
  messageId: string;
  sender: string;
  receiver: string;
  kind: PeppolDocumentKind;
  countryC1: string;
  document: string;
  /** When the delivery was asked for (the message's timestamp in every attempt). */
  createdAt: string;
  /**
   * A business document of a participant asks the receiving provider for a Message Level Status
   * (MLS_TO: our SPID, MLS_TYPE as configured); what we send on our own account (an MLS, a report) does not.
   */
  requestMls: boolean;
}

/**
 * One attempt to send a document to another access point over Peppol AS4: the receiver resolved
 * (SML, SMP), the message sent, the answer classified, and what was sent and received stored as
 * evidence (blobs) named in the outcome. Not configured (no AS4 key): a retryable "no Peppol route".
 */
@injectable()
export class As4Delivery {
  private readonly logger: Logger;

  constructor(
    @inject(AS4_CLIENT) private readonly client: As4Client | null,
    @inject(As4EndpointResolver) private readonly resolver: As4EndpointResolver,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'put'>,
    @inject(SERVICE_PROVIDER) private readonly provider: Pick<ServiceProvider, 'participant' | 'mlsType'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'as4-delivery' });
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  async send(shipment: As4Shipment): Promise<TransportOutcome> {
    const receiver = shipment.receiver;
    if (!this.client) {
      this.logger.warn(
        { receiver, message_id: shipment.messageId },
        'no AS4 key configured: cannot send to another access point',
      );
      return { outcome: 'retryable', receiver, error: `no Peppol route to ${receiver}` };
    }
    const resolution = await this.resolver.resolve(receiver, shipment.kind);
    if (resolution.kind === 'failed') {
      this.logger.info(
        { receiver, message_id: shipment.messageId, reason: resolution.reason },
        'AS4 receiver not resolved',
      );
      return { outcome: resolution.retryable ? 'retryable' : 'permanent', receiver, error: resolution.reason };
    }
    const { endpoint } = resolution;
    const result = await this.client.send({
      messageId: shipment.messageId,
      senderParticipant: shipment.sender,
      receiverParticipant: receiver,
      kind: shipment.kind,
      countryC1: shipment.countryC1,
      document: Buffer.from(shipment.document, 'utf8'),
      createdAt: shipment.createdAt,
      endpoint: { url: endpoint.url, certificate: endpoint.certificate },
      mls:
        shipment.requestMls && this.provider.participant
          ? { to: this.provider.participant, type: this.provider.mlsType }
          : null,
    });
    const as4 = await this.evidence(shipment.messageId, endpoint.url, result);
    as4.envelope = {
      document_type: { scheme: shipment.kind.documentType.scheme, value: shipment.kind.documentType.value },
      process: { scheme: shipment.kind.process.scheme, value: shipment.kind.process.value },
      country_c1: shipment.countryC1,
    };
    this.logger.info(
      {
        receiver,
        message_id: shipment.messageId,
        endpoint: endpoint.url,
        outcome: result.outcome,
        remote_ap: as4.remote_ap?.seat_id,
      },
      'AS4 message sent',
    );
    switch (result.outcome) {
      case 'receipt':
        return { outcome: 'delivered', receiver, as4 };
      case 'error':
        return {
          outcome: result.disposition,
          receiver,
          error: `the receiving access point answered an ebMS error: ${result.errors.map((e) => e.description).join('; ')}`,
          as4,
        };
      case 'transport':
        return { outcome: result.retryable ? 'retryable' : 'permanent', receiver, error: result.reason, as4 };
    }
  }

  private async evidence(messageId: string, endpointUrl: string, result: As4SendResult): Promise<As4AttemptEvidence> {
    const put = (bytes: Buffer | string, type: string) =>
      this.content.put(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes, type);
    const sent = result.sent;
    const [messageRef, answerRef] = await Promise.all([
      sent ? put(sent.bytes, sent.contentType.split(';')[0]!) : null,
      result.outcome === 'receipt'
        ? put(result.receiptXml, 'application/xml')
        : result.outcome === 'error'
          ? put(result.signalXml, 'application/xml')
          : null,
    ]);
    const evidence: As4AttemptEvidence = {
      message_id: messageId,
      endpoint_url: endpointUrl,
      remote_ap: result.remoteAp,
      receipt:
        result.outcome === 'receipt'
          ? {
              received_at: result.receivedAt,
              message_id: result.receiptMessageId,
              verified: true,
              verification: null,
              ref: answerRef!,
            }
          : null,
      message_ref: messageRef,
      message_content_type: sent?.contentType ?? null,
    };
    if (result.outcome === 'error') {
      evidence.error_codes = result.errors.map((e) => e.code);
      evidence.signal_ref = answerRef!;
    }
    return evidence;
  }
}
