import { randomUUID } from 'node:crypto';
import {
  EVENT_STORE,
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type StreamAppend,
} from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import { DELIVERY_STARTER, type DeliveryStarter } from './deliveryStarter.js';
import {
  backOff,
  handleCommand,
  loadState,
  loadStream,
  MAX_CONFLICT_RETRIES,
  type StreamSnapshot,
} from '../commandHandler.js';
import { sentNumberDecider, type SentNumberState } from '../../domain/document/lifecycle/sentNumberReservation.js';
import { sentNumberStream } from './sentNumberStream.js';
import type { DocumentState } from '../../domain/document/invoice/documentModel.js';
import { presentRecord } from '../documents/documentCommands.js';
import { effectOf } from '../idempotentEffect.js';
import {
  documentDecider,
  documentStream,
  type DocumentAggregateState,
  type DocumentRecord,
  type TransportKind,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { fatalRuleSummary } from '../../domain/document/rules/documentCheck.js';
import { derivePeppolId, formatPeppolId, parsePeppolId } from '../../domain/document/invoice/peppolId.js';
import type { Tenant } from '../../domain/tenant/tenant.js';
import { isSelfBilling } from '../../domain/document/invoice/documentModel.js';
import { sameParticipant } from '../../domain/peppol/participantId.js';
import {
  issuerIdOf,
  issuerLoc,
  issuingPartyOf,
  ownIdMatching,
  ownParticipantIds,
  sendBlockOf,
} from '../../domain/peppol/senderIdentity.js';
import { invalid, invalidState, notFound } from '../../domain/errors.js';
import { ERASED } from '../../domain/personalData/personalFields.js';
import { EMAIL_ADDRESS_RULE, isEmailAddress } from '../../domain/emailAddress.js';
import { sameUbl, type DocumentHeader, type UblRef } from '../../domain/document/lifecycle/documentContent.js';
import { DocumentContent, type DocumentWithContent } from '../documents/documentContent.js';
import { STORED_UBL_RULES, type StoredUblRules } from '../ports/storedUblRules.js';
import { registeredByAnotherTenant } from '../accounts/participantHolder.js';

/** The send call's optional query: identifiers that override the document's, and the client's `email`. */
export interface SendOptions {
  sender_peppol_scheme?: string;
  sender_peppol_id?: string;
  receiver_peppol_scheme?: string;
  receiver_peppol_id?: string;
  email?: string;
}

export interface Route {
  transport: TransportKind;
  sender_peppol_id: string | null;
  receiver_peppol_id: string | null;
  email: string | null;
}

/** Message ids are per delivery (not per attempt): a retry of a delivered message is recognisable. */
export const messageIdOf = (deliveryId: string) => `${deliveryId}@e-invoicing.peppol`;

/**
 * An override is a scheme and an identifier; either alone is incomplete. The scheme is an ICD
 * code (`0208` with id `0123456749`), or the Peppol identifier scheme `iso6523-actorid-upis`
 * with the id in `<icd>:<value>` form.
 */
function overridden(scheme: string | undefined, id: string | undefined, role: 'sender' | 'receiver'): string | null {
  if (scheme === undefined && id === undefined) return null;
  if (scheme === undefined || id === undefined) {
    throw invalid(`Give both ${role}_peppol_scheme and ${role}_peppol_id, or neither`, [
      'query',
      `${role}_peppol_${scheme === undefined ? 'scheme' : 'id'}`,
    ]);
  }
  const icd = scheme.trim();
  const value = id.trim();
  let candidate: string;
  if (/^iso6523-actorid-upis$/i.test(icd)) candidate = value;
  else if (/^\d{4}$/.test(icd)) candidate = value.startsWith(`${icd}:`) ? value : `${icd}:${value}`;
  else
    throw invalid(
      `Unknown Peppol identifier scheme ${JSON.stringify(icd)}: give an ICD code such as 0208, or iso6523-actorid-upis`,
      ['query', `${role}_peppol_scheme`],
    );
  const parsed = parsePeppolId(candidate);
  if (!parsed.ok) throw invalid(`Invalid ${role} Peppol identifier: ${parsed.message}`, ['query', `${role}_peppol_id`]);
  return formatPeppolId(parsed.value);
}

const documentParty = (peppolId: string | null, taxId: string | null, companyId: string | null): string | null => {
  if (peppolId) {
    const parsed = parsePeppolId(peppolId);
    if (parsed.ok) return formatPeppolId(parsed.value);
  }
  const derived = derivePeppolId(taxId, companyId);
  return derived ? formatPeppolId(derived) : null;
};

/**
 * Where a document goes and how. It goes as its issuer (senderOf), also in test mode. Test mode
 * mails the UBL to the tenant's test address (or the client's `email`); otherwise it goes over
 * Peppol to the receiver the document (or the override) names: the buyer, or the seller of a
 * self-billed document, whose buyer issues it. A document that cannot be routed is refused here,
 * before anything is recorded.
 */
export function routeOf(tenant: Tenant, document: Pick<DocumentRecord, 'header'>, options: SendOptions): Route {
  const d = document.header;
  const selfBilled = isSelfBilling(d.document_type);
  const receiver =
    overridden(options.receiver_peppol_scheme, options.receiver_peppol_id, 'receiver') ??
    (selfBilled
      ? documentParty(d.vendor_peppol_id, d.vendor_tax_id, d.vendor_company_id)
      : documentParty(d.customer_peppol_id, d.customer_tax_id, d.customer_company_id));
  const sender = senderOf(tenant, d, overridden(options.sender_peppol_scheme, options.sender_peppol_id, 'sender'));
  if (tenant.test_mode) {
    // An address erased with the tenant's personal data is no address.
    const email = options.email ?? (tenant.test_mode_email === ERASED ? null : tenant.test_mode_email);
    if (!email)
      throw invalid(
        'Test mode is on but no e-mail address is configured for it: ask the operator to set one, or pass email',
        ['query', 'email'],
      );
    // The account's address may have been set before addresses were checked: it is checked here too.
    if (!isEmailAddress(email)) {
      throw invalid(
        options.email === undefined
          ? `The test-mode address configured for this account is not ${EMAIL_ADDRESS_RULE}: ask the operator to set another one, or pass email`
          : `email must be ${EMAIL_ADDRESS_RULE}`,
        ['query', 'email'],
      );
    }
    return { transport: 'email', sender_peppol_id: sender, receiver_peppol_id: receiver, email };
  }
  if (options.email !== undefined) {
    throw invalid('E-mail delivery is only available in test mode; this account sends over Peppol', ['query', 'email']);
  }
  if (!receiver) {
    const party = selfBilled ? 'vendor' : 'customer';
    throw invalid(
      `The document names no receiver Peppol identifier: set ${party}_peppol_id (or a ${party} tax id it can be derived from), or pass receiver_peppol_scheme and receiver_peppol_id`,
      ['query', 'receiver_peppol_id'],
    );
  }
  return { transport: 'peppol', sender_peppol_id: sender, receiver_peppol_id: receiver, email: null };
}

/**
 * A tenant sends as itself: a document goes only when its issuer's electronic address (the
 * seller's; the buyer's when self-billed) is one of the tenant's own participant ids, and it goes
 * as that id (the SBDH sender and originalSender are the issuer, as receivers check). An override
 * may only repeat it: the tenant's own, and the document's issuer. Receivers (and their Invoice
 * Responses) take the sender at its word, so nothing else may go out.
 */
function senderOf(tenant: Tenant, document: DocumentHeader, override: string | null): string {
  const own = ownParticipantIds(tenant);
  if (override !== null && !ownIdMatching(own, override)) {
    throw invalid(
      `${override} is not a Peppol identifier of this account, so it cannot send as it (${own.length > 0 ? `it may send as: ${own.join(', ')}` : 'it holds none: its administrator must give it one'})`,
      ['query', 'sender_peppol_id'],
    );
  }
  const block = sendBlockOf(own, document);
  if (block) throw invalid(block.message, block.loc);
  const issuer = issuerIdOf(document)!;
  if (override !== null && !sameParticipant(override, issuer)) {
    throw invalid(
      `The document is issued by ${issuer}, ${issuingPartyOf(document.document_type).role}, and goes as its issuer: sender_peppol_id ${override} is not it`,
      ['query', 'sender_peppol_id'],
    );
  }
  return issuer;
}

/**
 * Documents created from JSON or UBL passed validation to exist at all; a draft read from a PDF
 * keeps what was found even when it does not validate, so it is checked again before it leaves.
 */
function requireValidUbl(ubl: string, rules: StoredUblRules): void {
  const fatal = rules.check(ubl).filter((issue) => issue.flag === 'fatal');
  if (fatal.length === 0) return;
  throw invalid(
    `The document does not pass validation and cannot be sent; complete it first: ${fatalRuleSummary(fatal)}${fatal.length > 5 ? ` (and ${fatal.length - 5} more)` : ''}`,
    ['document', 'ubl'],
  );
}

/** `POST /api/documents/{id}/send`: DRAFT or FAILED → TRANSIT; the delivery process manager takes it from there. */
@injectable()
export class SendDocument {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    /** The documents' payloads: the UBL a PDF draft is checked by, the content the answer shows. */
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'ubl' | 'withContent' | 'erasedSince'>,
    /** Starts the delivery's first attempt (the delivery process manager), from the document as the send left it. */
    @inject(DELIVERY_STARTER) private readonly delivery: DeliveryStarter,
    /** A PDF draft's stored UBL is checked again before it leaves (requireValidUbl). */
    @inject(STORED_UBL_RULES) private readonly ublRules: StoredUblRules,
  ) {}

  /**
   * `tenant` is the caller's, as authentication just read it from its stream.
   *
   * The send and the reservation of the document's number for its receiver
   * (sentNumberReservation.ts) are appended together, in order (EventStore.appendInOrder: one
   * commit in PostgreSQL), the send only if the reservation is made: a number sent before to the
   * same receiver by a document that did not fail is a 409 naming it. A number is almost always
   * new, so its stream is assumed absent; only when the append says otherwise is it read, and its
   * holder with it. Losing a race for either stream means deciding again on what won.
   */
  async send(
    tenant: Tenant,
    documentId: string,
    options: SendOptions,
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    const deliveryId = randomUUID();
    const eventMetadata = { ...metadata, tenantId: tenant.id };
    const stream = documentStream(documentId);
    let reservation: StreamSnapshot<SentNumberState> | null = null;
    let holder = null as { id: string; state: DocumentState | null } | null;
    // A lost race reads the document again; its UBL is checked again only if it changed meanwhile.
    let checkedUbl: UblRef | null = null;
    for (let attempt = 1; ; attempt++) {
      const loaded = await loadStream(this.store, documentDecider, stream);
      // A retry of a send this request's Idempotency-Key made already: that send's result.
      const sent = effectOf(documentDecider, loaded.events, eventMetadata);
      if (sent) return this.content.withContent(presentRecord(sent));
      const document = loaded.state;
      if (document.status !== 'present' || document.tenant_id !== tenant.id) throw notFound('Document not found');
      // Its UBL was sealed with a key that is destroyed: there is nothing left to send.
      if (attempt === 1 && (await this.content.erasedSince(document)))
        throw invalidState(
          "The document's content was erased with the tenant's personal data: it can no longer be sent",
        );
      if (document.source === 'pdf' && (checkedUbl === null || !sameUbl(document.ubl_ref, checkedUbl))) {
        requireValidUbl(await this.content.ubl(document.ubl_ref), this.ublRules);
        checkedUbl = document.ubl_ref;
      }
      const route = routeOf(tenant, document, options);
      if (attempt === 1 && route.sender_peppol_id !== null)
        await this.refuseParticipantOfAnother(route.sender_peppol_id, tenant, document.header);
      const now = new Date().toISOString();
      const sendEvents = documentDecider.decide(
        { type: 'RequestSend', data: { ...route, delivery_id: deliveryId, message_id: messageIdOf(deliveryId), now } },
        document,
      );
      if (sendEvents.length === 0) return this.content.withContent(presentRecord(document));

      const appends: StreamAppend[] = [];
      const number = document.header.invoice_id;
      const receiver = route.receiver_peppol_id ?? route.email;
      const numberStream =
        number && receiver ? sentNumberStream(tenant.id, document.header.document_type, number, receiver) : null;
      if (numberStream) {
        const held = reservation?.state ?? sentNumberDecider.initialState();
        const current = held.status === 'held' && held.document_id !== documentId ? held.document_id : null;
        if (current !== null && current !== holder?.id) {
          const state: DocumentAggregateState = await loadState(this.store, documentDecider, documentStream(current));
          holder = { id: current, state: state.status === 'present' ? state.state : null };
        }
        const reserved = sentNumberDecider.decide(
          {
            type: 'ReserveSentNumber',
            data: {
              tenant_id: tenant.id,
              number: number!,
              receiver: receiver!,
              document_id: documentId,
              holder_state: current ? holder!.state : null,
              now,
            },
          },
          held,
        );
        if (reserved.length > 0) {
          appends.push({
            streamName: numberStream,
            events: reserved.map((e) => ({ type: e.type, data: e.data, metadata: eventMetadata })),
            expectedRevision: reservation?.revision ?? 'no_stream',
          });
        }
      }
      appends.push({
        streamName: stream,
        events: sendEvents.map((e) => ({ type: e.type, data: e.data, metadata: eventMetadata })),
        expectedRevision: loaded.revision ?? 'no_stream',
      });

      try {
        const results = await this.store.appendInOrder(appends);
        const after = sendEvents.reduce(documentDecider.evolve, document);
        this.delivery.startNow(
          { document_id: documentId, delivery_id: deliveryId },
          { state: after, revision: results[results.length - 1]!.nextExpectedRevision },
        );
        return this.content.withContent(presentRecord(after));
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_CONFLICT_RETRIES) throw error;
        // The number's stream is not as assumed: read it (and, above, its holder). The document's
        // stream changed: another writer won, so back off, and read it again at the top (the
        // number may be this document's now).
        if (numberStream && error.streamName === numberStream)
          reservation = await loadStream(this.store, sentNumberDecider, numberStream);
        else {
          reservation = null;
          await backOff(attempt);
        }
      }
    }
  }

  /**
   * `POST /api/documents/{id}/cancel`: a delivery waiting for a retry stops; the document is
   * FAILED with the reason "cancelled" (and may be sent again). Another tenant's is not found.
   */
  /** A participant registered here by another tenant is that tenant's, whoever listed it before. */
  private async refuseParticipantOfAnother(sender: string, tenant: Tenant, header: DocumentHeader): Promise<void> {
    // The tenant's own registration is its own reservation: nothing to look up.
    if (sameParticipant(tenant.peppol_registration?.peppol_id ?? null, sender)) return;
    if (await registeredByAnotherTenant(this.store, sender, tenant.id))
      throw invalid(
        `${sender} is registered on Peppol on this service by another tenant: only that tenant sends as it`,
        issuerLoc(issuingPartyOf(header.document_type)),
      );
  }

  async cancel(tenantId: string, documentId: string, metadata: EventMetadata): Promise<DocumentWithContent> {
    const result = await handleCommand(
      this.store,
      documentDecider,
      documentStream(documentId),
      (state) => {
        if (state.status !== 'present' || state.tenant_id !== tenantId) throw notFound('Document not found');
        return { type: 'CancelDelivery' as const, data: { now: new Date().toISOString() } };
      },
      { ...metadata, tenantId },
    );
    return this.content.withContent(presentRecord(result.state));
  }
}
