import { deciderSpec } from '../../support/deciderSpec.js';
import {
  participantReservationDecider,
  type ParticipantReservationEvent,
} from '../../../src/domain/peppol/participantReservation.js';

const spec = deciderSpec(participantReservationDecider);
const now = '2026-02-01T00:00:00.000Z';
const reserve = (tenant_id: string, stale_holder: string | null = null) =>
  ({
    type: 'ReserveParticipant',
    data: { participant_key: '0208:0123456749', peppol_id: '0208:0123456749', tenant_id, stale_holder, now },
  }) as const;
const reservedBy = (tenant_id: string): ParticipantReservationEvent => ({
  type: 'PeppolParticipantReserved',
  data: { participant_key: '0208:0123456749', peppol_id: '0208:0123456749', tenant_id, reserved_at: now },
});

describe('Peppol participant reservation decider', () => {
  it('reserves a free id, and reserving it again for the same tenant records nothing', () => {
    spec
      .given([])
      .when(reserve('a'))
      .then([reservedBy('a')]);
    spec
      .given([reservedBy('a')])
      .when(reserve('a'))
      .thenNothingHappens();
  });

  it("refuses another tenant's id with 409 unless the caller found that holder stale", () => {
    spec
      .given([reservedBy('a')])
      .when(reserve('b'))
      .thenRefuses('conflict', /another tenant/);
    spec
      .given([reservedBy('a')])
      .when(reserve('b', 'c'))
      .thenRefuses('conflict');
    spec
      .given([reservedBy('a')])
      .when(reserve('b', 'a'))
      .then([reservedBy('b')]);
  });

  it('is released only by its holder, and can then be reserved by anyone', () => {
    const released: ParticipantReservationEvent = {
      type: 'PeppolParticipantReleased',
      data: { participant_key: '0208:0123456749', peppol_id: '0208:0123456749', tenant_id: 'a', released_at: now },
    };
    spec
      .given([reservedBy('a')])
      .when({ type: 'ReleaseParticipant', data: { tenant_id: 'b', now } })
      .thenNothingHappens();
    spec
      .given([reservedBy('a')])
      .when({ type: 'ReleaseParticipant', data: { tenant_id: 'a', now } })
      .then([released]);
    spec
      .given([reservedBy('a'), released])
      .when(reserve('b'))
      .then([reservedBy('b')]);
    spec
      .given([])
      .when({ type: 'ReleaseParticipant', data: { tenant_id: 'a', now } })
      .thenNothingHappens();
  });
});
