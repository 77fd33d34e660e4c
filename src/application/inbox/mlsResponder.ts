import type { Logger } from 'pino';
import type { RecordedEvent } from '../ports/eventStore.js';
import { LOGGER } from '../ports/logger.js';
import { systemActor } from '../actor.js';
import type { Projection } from '../ports/projection.js';
import type { CollectionDefinition } from '../ports/readModelStore.js';
import { SERVICE_PROVIDER, type ServiceProvider } from '../ports/serviceProvider.js';
import { inject, injectable } from '../injection.js';
import { derivedId } from '../derivedId.js';
import type { As4MessageReceived } from '../documents/as4MessageRecord.js';
import { NetworkMessages } from '../network/networkMessages.js';
import { PEPPOL_MLS } from '../../domain/peppol/peppolDocumentTypes.js';
import { mlsIssueMoment, writeMls } from '../../domain/peppol/mls/messageLevelStatus.js';
import { mlsOwed, type ReceivedOutcome } from '../../domain/peppol/mls/mlsOwed.js';
import { spidOf } from '../../domain/peppol/mls/serviceProviderId.js';

/** The network message of the MLS about a received AS4 message: one per MessageId, whatever happens. */
export const mlsMessageId = (receivedMessageId: string) => derivedId('mls', receivedMessageId);

/**
 * Corner 3: once a business document received over AS4 is processed (As4MessageReceived: delivered
 * to the inbox, taken in, or refused by its business rules), the MLS its sender's provider asked for
 * is written and sent (mlsOwed decides whether, which and to whom). The MLS is a network message
 * named by the received MessageId, so a replay of the log, a sender's retry or a second process
 * sends nothing more: never more than one per document, and none for an MLS. Its issue time is the
 * reception's, so writing it again gives the same document.
 *
 * A process manager: it follows the log like the projections do (and is not rebuilt with them).
 */
@injectable()
export class MlsResponder implements Projection {
  readonly name = 'mls-responder';
  readonly version = 1;
  readonly collections: CollectionDefinition[] = [];
  readonly handles = ['As4MessageReceived'];
  private readonly logger: Logger;

  constructor(
    @inject(SERVICE_PROVIDER) private readonly provider: ServiceProvider,
    @inject(NetworkMessages) private readonly network: Pick<NetworkMessages, 'queue'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'mls-responder' });
  }

  async handle(event: RecordedEvent): Promise<void> {
    const received = event.data as As4MessageReceived['data'];
    // Recorded before MLS was handled: nothing was asked of it then.
    if (!received.sbdh || !this.provider.mlsSend) return;
    const ours = this.provider.participant ? spidOf(this.provider.participant) : null;
    const outcome: ReceivedOutcome =
      received.kind === 'mls'
        ? { kind: 'mls' }
        : received.kind === 'refused'
          ? { kind: 'refused', issues: received.refusal?.issues ?? [] }
          : { kind: 'delivered' };
    const owed = mlsOwed(outcome, {
      mlsTo: received.sbdh.mls_to,
      mlsType: received.sbdh.mls_type,
      senderAp: received.sender_ap,
    });
    if (!owed) return;
    const country = this.provider.country;
    if (!ours || !country) {
      this.logger.error(
        { message_id: received.message_id, spid: this.provider.participant, country },
        'an MLS is owed but this provider has no SPID or country (PEPPOL_SPID, PEPPOL_SP_COUNTRY): not sent',
      );
      return;
    }
    const id = mlsMessageId(received.message_id);
    const document = writeMls({
      id,
      ...mlsIssueMoment(received.received_at),
      sender: ours,
      receiver: spidOf(owed.to)!,
      referenceId: received.sbdh.instance_id,
      code: owed.code,
      description: owed.description,
      issues: owed.issues,
    });
    await this.network.queue(
      {
        id,
        purpose: {
          kind: 'mls',
          code: owed.code,
          about_message_id: received.message_id,
          about_instance_id: received.sbdh.instance_id,
          sender_ap: received.sender_ap,
        },
        envelope: {
          sender: this.provider.participant!,
          receiver: owed.to,
          document_type: PEPPOL_MLS.documentType,
          process: PEPPOL_MLS.process,
          country_c1: country,
        },
        document,
      },
      { actor: systemActor('mls-responder'), causationId: event.id, correlationId: received.message_id },
      new Date(received.received_at),
    );
  }
}
