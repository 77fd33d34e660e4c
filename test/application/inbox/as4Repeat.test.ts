import { expect } from 'chai';
import { payloadDigests, repeatOf } from '../../../src/application/inbox/as4Repeat.js';
import type { As4MessageReceived } from '../../../src/application/documents/as4MessageRecord.js';
import type { InboundAs4Message } from '../../../src/application/ports/as4Reception.js';
import type { PartDigest } from '../../../src/domain/peppol/as4/signalMessage.js';

const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const reference = (uri: string, digestValue: string): PartDigest => ({
  uri,
  transforms: [],
  digestMethod: SHA256,
  digestValue,
});
/** What a message signs: eb:Messaging, the SOAP Body (their digests change with ids and timestamps), one payload. */
const signed = (payload: string, header = 'h1') => [
  reference('#msg-1', header),
  reference('#body-1', `${header}-body`),
  reference('cid:payload-1@sender', payload),
];
const message = (references: PartDigest[], senderAp = 'POP000002') =>
  ({ senderAp, references }) as unknown as InboundAs4Message;
const first = (digests: string[] | undefined, senderAp = 'POP000002') =>
  ({ sender_ap: senderAp, payload_digests: digests }) as As4MessageReceived['data'];

describe('as4Repeat: a MessageId received again is a retry only with the same signed payloads', () => {
  it('keeps the payload digests only, with their method, sorted', () => {
    expect(payloadDigests([reference('cid:b', 'B'), ...signed('A')])).to.deep.equal([`${SHA256} A`, `${SHA256} B`]);
  });

  it('takes the same payloads in a message built anew as a retry, whatever its header digests', () => {
    const recorded = first(payloadDigests(signed('A')));
    expect(repeatOf(recorded, message(signed('A', 'h2')))).to.deep.equal({ kind: 'retry' });
  });

  it('takes other payloads, one more or one less, as another message', () => {
    const recorded = first(payloadDigests(signed('A')));
    expect(repeatOf(recorded, message(signed('B')))).to.deep.equal({ kind: 'other-content' });
    expect(repeatOf(recorded, message([...signed('A'), reference('cid:2', 'C')]))).to.deep.equal({
      kind: 'other-content',
    });
    expect(repeatOf(first([]), message(signed('A')))).to.deep.equal({ kind: 'other-content' });
  });

  it('names another sending access point first, and takes a message recorded before digests were kept as a retry', () => {
    expect(repeatOf(first(payloadDigests(signed('A')), 'POP000003'), message(signed('A')))).to.deep.equal({
      kind: 'other-sender',
    });
    expect(repeatOf(first(undefined), message(signed('B')))).to.deep.equal({ kind: 'retry' });
  });
});
