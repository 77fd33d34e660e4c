import { expect } from 'chai';
import {
  isParticipantUri,
  participantKey,
  participantUri,
  sameParticipant,
} from '../../../src/domain/peppol/participantId.js';

describe('Participant ids: the key one participant is known by, and when two are one', () => {
  it('is `<icd>:<identifier in lower case>`, the scheme prefix and surrounding white space dropped', () => {
    expect(participantKey('0088:ABC123')).to.equal('0088:abc123');
    expect(participantKey('  ISO6523-ACTORID-UPIS::0208:BE0123456749 ')).to.equal('0208:be0123456749');
    // The scheme prefix is dropped only in front.
    expect(participantKey('0208:iso6523-actorid-upis::ab')).to.equal('0208:iso6523-actorid-upis::ab');
  });

  it('is none for what is not a participant id', () => {
    for (const text of ['', 'ABC', '208:abc', 'x0208:abc', '0208:', '0208:abc def', '0208:' + 'a'.repeat(136)])
      expect(participantKey(text), text).to.equal(null);
    expect(participantKey('0208:' + 'a'.repeat(135))).to.equal('0208:' + 'a'.repeat(135));
  });

  it('makes two texts one participant only when both are participant ids with one key', () => {
    expect(sameParticipant('0088:ABC', 'iso6523-actorid-upis::0088:abc')).to.equal(true);
    expect(sameParticipant('0088:ABC', '0088:ABD')).to.equal(false);
    expect(sameParticipant('not an id', 'not an id')).to.equal(false);
    expect(sameParticipant(null, '0088:abc')).to.equal(false);
    expect(sameParticipant('0088:abc', null)).to.equal(false);
    expect(sameParticipant(null, null)).to.equal(false);
  });

  it('writes and recognizes the URI form of SMP paths', () => {
    expect(participantUri({ scheme: '0208', identifier: '0123456749' })).to.equal(
      'iso6523-actorid-upis::0208:0123456749',
    );
    expect(isParticipantUri('ISO6523-ACTORID-UPIS::0208:0123456749')).to.equal(true);
    expect(isParticipantUri('busdox-docid-qns::iso6523-actorid-upis::0208:1')).to.equal(false);
  });
});
