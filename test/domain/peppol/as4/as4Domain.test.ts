import { expect } from 'chai';
import {
  describeEbmsError,
  EBMS_ERRORS,
  ebmsError,
  notServiced,
  senderDisposition,
  type EbmsError,
} from '../../../../src/domain/peppol/as4/ebmsError.js';
import { matchReceipt } from '../../../../src/domain/peppol/as4/nonRepudiation.js';
import {
  checkIssuerIsSender,
  checkPeppolHeader,
  checkSbdhAgainstHeader,
  checkSenderIsSigner,
  checkServiced,
  isPeppolSeatId,
  peppolUserMessage,
} from '../../../../src/domain/peppol/as4/peppolProfile.js';
import type { Sbdh } from '../../../../src/domain/peppol/as4/sbdh.js';
import type { PartDigest } from '../../../../src/domain/peppol/as4/signalMessage.js';
import { contentIdOfHref } from '../../../../src/domain/peppol/as4/userMessage.js';

const sbdh: Sbdh = {
  sender: { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' },
  receiver: { scheme: 'iso6523-actorid-upis', value: '0208:0987654321' },
  document: {
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeVersion: '2.1',
    instanceIdentifier: 'i-1',
    type: 'Invoice',
    creationDateAndTime: '2026-01-01T00:00:00Z',
  },
  documentType: {
    scheme: 'busdox-docid-qns',
    value: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##x::2.1',
  },
  process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' },
  countryC1: 'BE',
  mlsTo: null,
  mlsType: null,
  extraScopes: [],
};
const message = () =>
  peppolUserMessage(sbdh, {
    messageId: 'm-1',
    timestamp: '2026-01-01T00:00:00Z',
    conversationId: 'c',
    fromParty: 'POP000001',
    toParty: 'POP000002',
    payloadContentId: 'p@x',
  });

describe('AS4 domain', () => {
  describe('ebMS errors', () => {
    it('has the 19 errors of ebMS 3.0 Core and the AS4 profile, each code once', () => {
      const codes = Object.values(EBMS_ERRORS).map((e) => e.code);
      expect(codes).to.have.length(19);
      expect(new Set(codes).size).to.equal(19);
      expect(EBMS_ERRORS.emptyMessagePartitionChannel).to.include({
        code: 'EBMS:0006',
        severity: 'warning',
        category: 'Communication',
      });
      expect(EBMS_ERRORS.decompressionFailure).to.include({
        code: 'EBMS:0303',
        severity: 'failure',
        category: 'Communication',
      });
    });

    it('tells the sender whether to retry', () => {
      const error = (errorCode: string, severity = 'failure', errorDetail: string | null = null): EbmsError => ({
        errorCode,
        severity,
        category: null,
        origin: null,
        shortDescription: null,
        refToMessageInError: null,
        description: null,
        errorDetail,
      });
      expect(senderDisposition(notServiced('m', 'no such receiver'))).to.equal('permanent');
      expect(senderDisposition(error('EBMS:0004'))).to.equal('retryable');
      expect(senderDisposition(error('EBMS:0101'))).to.equal('permanent');
      expect(senderDisposition(error('EBMS:0303'))).to.equal('permanent');
      expect(senderDisposition(error('EBMS:0005'))).to.equal('retryable');
      expect(senderDisposition(error(' EBMS:0202 '))).to.equal('retryable');
      expect(senderDisposition(error('X:1', 'warning'))).to.equal('retryable');
      expect(senderDisposition(error('X:1', 'failure'))).to.equal('permanent');
    });

    it('fills an error from the table, keeping a specific description', () => {
      expect(ebmsError('failedDecryption', 'm-9', 'wrong key')).to.deep.equal({
        errorCode: 'EBMS:0102',
        severity: 'failure',
        category: 'Processing',
        origin: 'ebMS',
        shortDescription: 'FailedDecryption',
        refToMessageInError: 'm-9',
        description: 'wrong key',
        errorDetail: null,
      });
      expect(describeEbmsError(notServiced('m', 'unknown receiver'))).to.equal(
        'EBMS:0004: Other: PEPPOL:NOT_SERVICED: unknown receiver',
      );
    });
  });

  describe('non-repudiation receipts', () => {
    const digest = (uri: string, value: string): PartDigest => ({
      uri,
      transforms: [],
      digestMethod: 'sha256',
      digestValue: value,
    });
    const sent = [digest('#a', 'AA=='), digest('cid:p', 'BB==')];

    it('match when every sent digest comes back, in any order', () => {
      expect(matchReceipt(sent, [sent[1]!, { ...sent[0]!, digestValue: 'A A==' }])).to.deep.equal({ matches: true });
    });

    it('do not match when a part is missing, differs, is added or named twice, or nothing is acknowledged', () => {
      expect(matchReceipt(sent, [sent[0]!])).to.deep.equal({
        matches: false,
        reason: 'the receipt does not acknowledge cid:p',
      });
      expect(matchReceipt(sent, [sent[0]!, digest('cid:p', 'CC==')])).to.deep.equal({
        matches: false,
        reason: "the receipt's digest of cid:p differs from what we sent",
      });
      expect(matchReceipt(sent, [...sent, digest('#z', 'ZZ==')])).to.deep.equal({
        matches: false,
        reason: 'the receipt acknowledges parts we did not send: #z',
      });
      expect(matchReceipt(sent, [...sent, sent[0]!])).to.deep.equal({
        matches: false,
        reason: 'the receipt names #a twice',
      });
      expect(matchReceipt(sent, [sent[0]!, { ...sent[1]!, digestMethod: 'sha1' }]).matches).to.equal(false);
      expect(matchReceipt(sent, [])).to.deep.equal({
        matches: false,
        reason: 'the receipt carries no non-repudiation information',
      });
    });
  });

  describe('the Peppol profile', () => {
    it('knows a seat id', () => {
      expect(['POP000001', 'PDE000576'].map(isPeppolSeatId)).to.deep.equal([true, true]);
      expect(['POP00001', 'pop000001', 'APP_1000000101', 'POP0000010'].map(isPeppolSeatId)).to.deep.equal([
        false,
        false,
        false,
        false,
      ]);
    });

    it('builds a conforming UserMessage from the SBDH, which then passes its own checks', () => {
      const m = message();
      expect(m.collaborationInfo.action).to.equal(`busdox-docid-qns::${sbdh.documentType.value}`);
      expect(m.collaborationInfo.service).to.deep.equal({ type: 'cenbii-procid-ubl', value: sbdh.process.value });
      expect(contentIdOfHref(m.payloadInfo[0]!.href)).to.equal('p@x');
      expect(checkPeppolHeader(m, 'POP000002')).to.deep.equal([]);
      expect(checkSbdhAgainstHeader(m, sbdh)).to.deep.equal([]);
    });

    it('refuses a header addressed elsewhere or off-profile', () => {
      expect(checkPeppolHeader(message(), 'POP000009').map((e) => [e.errorCode, e.errorDetail])).to.deep.equal([
        ['EBMS:0004', 'PEPPOL:NOT_SERVICED'],
      ]);
      const m = message();
      m.collaborationInfo.agreementRef = 'urn:other';
      m.payloadInfo[0]!.properties = [];
      m.messageProperties = m.messageProperties.slice(1);
      expect(checkPeppolHeader(m, 'POP000002').map((e) => e.errorCode)).to.deep.equal([
        'EBMS:0003',
        'EBMS:0001',
        'EBMS:0003',
      ]);
    });

    it('finds a header that tells another story than the SBDH (parties EBMS:0004 as phase4 answers, the rest EBMS:0003)', () => {
      const m = message();
      m.messageProperties[1]!.value = '0208:1111111111';
      m.collaborationInfo.action = 'busdox-docid-qns::urn:other';
      expect(checkSbdhAgainstHeader(m, sbdh).map((e) => [e.errorCode, e.description, e.errorDetail])).to.deep.equal([
        [
          'EBMS:0004',
          'finalRecipient 0208:1111111111 is not the SBDH receiver 0208:0987654321',
          'finalRecipient 0208:1111111111 is not the SBDH receiver 0208:0987654321',
        ],
        ['EBMS:0003', `Action is not the SBDH document type busdox-docid-qns::${sbdh.documentType.value}`, null],
      ]);
      const forged = message();
      forged.messageProperties[0]!.value = '0088:7300010000001';
      expect(checkSbdhAgainstHeader(forged, sbdh).map((e) => [e.errorCode, e.errorDetail])).to.deep.equal([
        ['EBMS:0004', 'originalSender 0088:7300010000001 is not the SBDH sender 0208:0123456749'],
      ]);
      const upper = message();
      upper.messageProperties[0]!.value = '0208:0123456749'.toUpperCase();
      expect(checkSbdhAgainstHeader(upper, sbdh)).to.deep.equal([]);
    });

    it('requires the business document to be from the SBDH sender (EBMS:0004, nothing else read)', () => {
      const from = (id: string | null) => ({ path: 'Invoice/AccountingSupplierParty/Party/EndpointID', id });
      expect(checkIssuerIsSender(message(), sbdh, from('0208:0123456749'))).to.equal(null);
      expect(checkIssuerIsSender(message(), sbdh, from('iso6523-actorid-upis::0208:0123456749'))).to.equal(null);
      expect(checkIssuerIsSender(message(), sbdh, null)).to.equal(null);
      expect(checkIssuerIsSender(message(), sbdh, from('0088:7300010000001'))).to.deep.include({
        errorCode: 'EBMS:0004',
        refToMessageInError: 'm-1',
        errorDetail:
          "the business document's issuer 0088:7300010000001 (Invoice/AccountingSupplierParty/Party/EndpointID) is not the SBDH sender 0208:0123456749",
      });
      expect(checkIssuerIsSender(message(), sbdh, from(null))?.errorDetail).to.match(
        /names no issuer \(Invoice\/AccountingSupplierParty\/Party\/EndpointID is missing\)/,
      );
    });

    it('requires the From party to be the signer', () => {
      expect(checkSenderIsSigner(message(), 'POP000001')).to.equal(null);
      expect(checkSenderIsSigner(message(), 'POP000003')).to.deep.include({
        errorCode: 'EBMS:0003',
        description: "the From PartyId POP000001 is not the signing certificate's CN POP000003",
      });
      expect(checkSenderIsSigner(message(), null)?.errorCode).to.equal('EBMS:0003');
    });

    it('answers "not serviced" for a receiver or document type this AP does not take', () => {
      expect(checkServiced(message(), sbdh, () => true)).to.equal(null);
      expect(checkServiced(message(), sbdh, (p, d) => p === '0208:0987654321' && d === 'other')).to.deep.include({
        errorCode: 'EBMS:0004',
        errorDetail: 'PEPPOL:NOT_SERVICED',
        refToMessageInError: 'm-1',
      });
    });
  });
});
