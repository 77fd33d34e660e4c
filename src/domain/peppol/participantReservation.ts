import { assertNever, type Decider, type Event } from '../decider.js';
import { conflict } from '../errors.js';

/**
 * One Peppol participant id can be registered by one tenant of this instance only: the id is
 * reserved in a stream of its own (as tenant names are), because appending to one stream is the
 * only atomic check the event store gives across tenants.
 */
export type ParticipantReserved = Event<
  'PeppolParticipantReserved',
  { participant_key: string; peppol_id: string; tenant_id: string; reserved_at: string }
>;
export type ParticipantReleased = Event<
  'PeppolParticipantReleased',
  { participant_key: string; peppol_id: string; tenant_id: string; released_at: string }
>;
export type ParticipantReservationEvent = ParticipantReserved | ParticipantReleased;

export type ParticipantReservationCommand =
  | {
      type: 'ReserveParticipant';
      data: {
        participant_key: string;
        peppol_id: string;
        tenant_id: string;
        /**
         * A holder the caller found no longer registered with this id (its registration failed
         * half-way, or the tenant was deleted): its reservation may be taken over. Any other
         * holder is a conflict.
         */
        stale_holder: string | null;
        now: string;
      };
    }
  | { type: 'ReleaseParticipant'; data: { tenant_id: string; now: string } };

export type ParticipantReservationState =
  | { status: 'free' }
  | { status: 'held'; participant_key: string; peppol_id: string; tenant_id: string; reserved_at: string };

export const participantReservationStream = (participantKey: string) => `peppolparticipant-${participantKey}`;

export const participantReservationDecider: Decider<
  ParticipantReservationState,
  ParticipantReservationCommand,
  ParticipantReservationEvent
> = {
  initialState: () => ({ status: 'free' }),

  decide(command, state) {
    switch (command.type) {
      case 'ReserveParticipant': {
        const { now, stale_holder, ...data } = command.data;
        if (state.status === 'held') {
          if (state.tenant_id === data.tenant_id) return [];
          if (state.tenant_id !== stale_holder) {
            throw conflict(
              `Peppol participant ${state.peppol_id} is already registered by another tenant of this service`,
            );
          }
        }
        return [{ type: 'PeppolParticipantReserved', data: { ...data, reserved_at: now } }];
      }
      case 'ReleaseParticipant':
        // Only the holder releases: a late release by a former holder must not free a new one's id.
        if (state.status !== 'held' || state.tenant_id !== command.data.tenant_id) return [];
        return [
          {
            type: 'PeppolParticipantReleased',
            data: {
              participant_key: state.participant_key,
              peppol_id: state.peppol_id,
              tenant_id: state.tenant_id,
              released_at: command.data.now,
            },
          },
        ];
      default:
        return assertNever(command);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'PeppolParticipantReserved':
        return { status: 'held', ...event.data };
      case 'PeppolParticipantReleased':
        return { status: 'free' };
      default:
        return assertNever(event);
    }
  },
};
