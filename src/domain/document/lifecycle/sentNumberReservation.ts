import { assertNever, type Decider, type Event } from '../../decider.js';
import { conflict } from '../../errors.js';
import type { DocumentState } from '../invoice/documentModel.js';

/**
 * A tenant sends a document number to a receiver once: a second invoice INV-7 to the same buyer
 * is a duplicate the buyer would have to catch (and might pay twice). The number is reserved per
 * tenant, document type and receiver in a stream of its own, because appending to one stream is
 * the only atomic check the event store gives across documents. The holder's own state says
 * whether the reservation still stands: a FAILED or deleted holder frees the number, and so does
 * a holder that never left DRAFT once its send had time to be recorded.
 */
export type SentNumberReserved = Event<
  'SentNumberReserved',
  { tenant_id: string; number: string; receiver: string; document_id: string; reserved_at: string }
>;

export type SentNumberCommand = {
  type: 'ReserveSentNumber';
  data: {
    tenant_id: string;
    number: string;
    receiver: string;
    document_id: string;
    /** The current holder as it is now (read by the caller): its state, or null when it is gone. */
    holder_state: DocumentState | null;
    now: string;
  };
};

export type SentNumberState =
  { status: 'free' } | { status: 'held'; document_id: string; receiver: string; number: string; reserved_at: string };

/** How long a holder still in DRAFT keeps the number: its send is being recorded meanwhile. */
const SEND_IN_PROGRESS_MS = 30_000;

/** What names the stream of one (tenant, type, number, receiver); numbers and receivers compare without case or surrounding space. */
export const sentNumberKey = (tenantId: string, documentType: string, number: string, receiver: string): string =>
  JSON.stringify([tenantId, documentType, number.trim().toLowerCase(), receiver.trim().toLowerCase()]);

/** The stream, from the SHA-256 (hex) of its key: the caller hashes (application/delivery/sentNumberStream.ts), so the domain needs no crypto library. */
export const sentNumberStreamOf = (keySha256Hex: string): string => `sentnumber-${keySha256Hex.slice(0, 40)}`;

export const sentNumberDecider: Decider<SentNumberState, SentNumberCommand, SentNumberReserved> = {
  initialState: () => ({ status: 'free' }),

  decide(command, state) {
    switch (command.type) {
      case 'ReserveSentNumber': {
        const { holder_state, now, ...data } = command.data;
        if (state.status === 'held') {
          if (state.document_id === data.document_id) return [];
          const sentOrSending = holder_state === 'TRANSIT' || holder_state === 'SENT';
          const stillSending =
            holder_state === 'DRAFT' && Date.parse(now) - Date.parse(state.reserved_at) < SEND_IN_PROGRESS_MS;
          if (sentOrSending || stillSending) {
            throw conflict(
              `Document number ${state.number} was already sent to ${state.receiver} by document ${state.document_id}; send a new number, or delete or let that document fail first`,
            );
          }
        }
        return [{ type: 'SentNumberReserved', data: { ...data, reserved_at: now } }];
      }
      default:
        return assertNever(command.type);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'SentNumberReserved':
        return { status: 'held', ...event.data };
      default:
        return assertNever(event.type);
    }
  },
};
