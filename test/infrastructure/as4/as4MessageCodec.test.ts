import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { PARTICIPANT_SCHEME } from '../../../src/domain/peppol/participantId.js';
import {
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  DOCUMENT_ID_SCHEME,
  INVOICE_RESPONSE_DOCUMENT_TYPE,
  INVOICE_RESPONSE_PROCESS,
  PROCESS_ID_SCHEME,
} from '../../../src/domain/peppol/smpDocuments.js';
import { ebmsError } from '../../../src/domain/peppol/as4/ebmsError.js';
import { peppolUserMessage } from '../../../src/domain/peppol/as4/peppolProfile.js';
import type { Sbdh } from '../../../src/domain/peppol/as4/sbdh.js';
import type { UserMessage } from '../../../src/domain/peppol/as4/userMessage.js';
import { writeInvoiceResponse } from '../../../src/domain/document/ubl/invoiceResponse.js';
import { MLS_DOCUMENT_TYPE, MLS_PROCESS, writeMls } from '../../../src/domain/peppol/mls/messageLevelStatus.js';
import type { OpenedAs4Message } from '../../../src/application/ports/as4Reception.js';
import { As4MessageCodecAdapter } from '../../../src/infrastructure/as4/as4MessageCodec.js';
import { DEFAULT_INBOUND_LIMITS } from '../../../src/infrastructure/as4/as4Inbound.js';
import { buildUserMessage, type BuiltMessage } from '../../../src/infrastructure/as4/as4Outbound.js';
import { buildReceipt, readSignalResponse } from '../../../src/infrastructure/as4/as4Signals.js';
import { readSbdh, writeSbdh } from '../../../src/infrastructure/as4/sbdhXml.js';
import { checkCertificate } from '../../../src/infrastructure/peppol/certificates.js';
import { asProblem, makeTestAs4Pki, type TestAs4Pki } from '../../support/as4TestKeys.js';

const INVOICE = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>INV-7</cbc:ID><cac:AccountingSupplierParty><cac:Party><cbc:EndpointID schemeID="0208">0123456749</cbc:EndpointID></cac:Party></cac:AccountingSupplierParty></Invoice>`;
const SELLER = '0208:0123456749';
const BUYER = '0208:0987654321';
const SENDER = 'POP000031';
const RECEIVER = 'POP000032';
const OTHER = 'POP000033';

const invoiceSbdh = (overrides: Partial<Sbdh> = {}): Sbdh => ({
  sender: { scheme: PARTICIPANT_SCHEME, value: SELLER },
  receiver: { scheme: PARTICIPANT_SCHEME, value: BUYER },
  document: {
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeVersion: '2.1',
    instanceIdentifier: randomUUID(),
    type: 'Invoice',
    creationDateAndTime: '2026-03-01T10:00:00Z',
  },
  documentType: { scheme: DOCUMENT_ID_SCHEME, value: BIS_BILLING_INVOICE },
  process: { scheme: PROCESS_ID_SCHEME, value: BIS_BILLING_PROCESS },
  countryC1: 'BE',
  mlsTo: null,
  mlsType: null,
  extraScopes: [],
  ...overrides,
});

/** An SBDH carrying an ApplicationResponse (an Invoice Response, an MLS) from `sender` to `receiver`. */
function applicationResponseSbdh(sender: string, receiver: string, documentType: string, process: string): Sbdh {
  const sbdh = invoiceSbdh({
    sender: { scheme: PARTICIPANT_SCHEME, value: sender },
    receiver: { scheme: PARTICIPANT_SCHEME, value: receiver },
    documentType: { scheme: DOCUMENT_ID_SCHEME, value: documentType },
    process: { scheme: PROCESS_ID_SCHEME, value: process },
  });
  sbdh.document = {
    ...sbdh.document,
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
    type: 'ApplicationResponse',
  };
  return sbdh;
}

/**
 * The receiving side's codec (what `POST /as4` calls) on messages built and signed with real keys:
 * what it hands on for a message it accepts, and the ebMS error of each refusal it adds to the
 * message core's (the Peppol header, the signer as sender, the SBDH and its agreement with the
 * header, the Invoice Response).
 */
describe('AS4 codec: opening a received message for the inbox', function () {
  let pki: TestAs4Pki;
  let codec: As4MessageCodecAdapter;

  before(async function () {
    this.timeout(60_000);
    pki = await makeTestAs4Pki([SENDER, RECEIVER, OTHER]);
    codec = codecWith({});
  });
  after(async () => pki?.dispose());

  const ap = (seat: string) => pki.accessPoints[seat]!;
  const codecWith = (options: Partial<ConstructorParameters<typeof As4MessageCodecAdapter>[1]>) =>
    new As4MessageCodecAdapter(
      { seatId: RECEIVER, key: ap(RECEIVER), apCas: [pki.ca], allowPlainHttpLoopback: false },
      {
        limits: DEFAULT_INBOUND_LIMITS,
        checkSigner: async (certificate) => asProblem(checkCertificate(certificate, 'ap', [pki.ca], new Date()).error),
        ...options,
      },
    );
  const messageFor = (sbdh: Sbdh, header: { from?: string; to?: string } = {}): UserMessage =>
    peppolUserMessage(sbdh, {
      messageId: `${randomUUID()}@test`,
      timestamp: new Date().toISOString(),
      conversationId: randomUUID(),
      fromParty: header.from ?? SENDER,
      toParty: header.to ?? RECEIVER,
      payloadContentId: `payload-${randomUUID()}@test`,
    });
  const build = (
    options: { sbdh?: Sbdh; payload?: string; message?: UserMessage; signer?: string } = {},
  ): Promise<BuiltMessage> => {
    const sbdh = options.sbdh ?? invoiceSbdh();
    return buildUserMessage({
      message: options.message ?? messageFor(sbdh),
      payload: Buffer.from(options.payload ?? writeSbdh(sbdh, INVOICE), 'utf8'),
      sender: ap(options.signer ?? SENDER),
      receiver: ap(RECEIVER).certificate,
    });
  };
  const refusal = (opened: OpenedAs4Message) => {
    if (opened.ok) throw new Error('expected a refusal');
    return {
      errors: opened.errors.map((e) => [e.errorCode, e.refToMessageInError, e.description]),
      id: opened.messageId,
    };
  };

  it('hands on the message, its SBDH and document, the sending AP, its certificate and the signed references', async () => {
    const sbdh = invoiceSbdh();
    const built = await build({ sbdh });
    const opened = await codec.open(built.contentType, built.body);
    if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
    const m = opened.message;
    const certificate = ap(SENDER).certificate;
    expect(codec.seatId).to.equal(RECEIVER);
    expect(m.messageId).to.equal(built.messageId);
    expect(m.message.messageInfo.messageId).to.equal(built.messageId);
    expect(m.senderAp).to.equal(SENDER);
    expect(m.sbdh).to.deep.equal(sbdh);
    expect(m.businessDocument).to.contain('<cbc:ID>INV-7</cbc:ID>');
    expect(m.invoiceResponse).to.equal(null);
    expect(m.mls).to.equal(null);
    expect(m.references).to.deep.equal(built.references);
    expect(m.signer).to.deep.equal({
      subject: `C=BE, O=Invoicing service tests, OU=PEPPOL TEST AP, CN=${SENDER}`,
      issuer: 'C=BE, O=Invoicing service tests, CN=AS4 TEST AP CA',
      serialNumber: certificate.serialNumber,
      validFrom: new Date(certificate.validFrom).toISOString(),
      validTo: new Date(certificate.validTo).toISOString(),
    });
  });

  it('hands the payload and the sending AP to the SBDH reader it was given (the service: a worker for large ones)', async () => {
    const calls: [string, string][] = [];
    const withReader = codecWith({
      readSbdh: async (payload, senderAp) => {
        calls.push([payload.toString('utf8').slice(0, 38), senderAp]);
        return readSbdh(
          Buffer.from(writeSbdh(invoiceSbdh({ sender: { scheme: PARTICIPANT_SCHEME, value: BUYER } }), INVOICE)),
        );
      },
    });
    const built = await build();
    const opened = await withReader.open(built.contentType, built.body);
    expect(calls).to.deep.equal([['<?xml version="1.0" encoding="UTF-8"?>', SENDER]]);
    // What the reader answered is what is checked: its sender is not the header's originalSender.
    expect(refusal(opened).errors.map((e) => e[0])).to.deep.equal(['EBMS:0004']);
  });

  it('refuses what the message core refuses, with its error and the message id it read', async () => {
    const built = await build({ signer: OTHER });
    const tampered = Buffer.from(built.body.toString('latin1').replace(/(<eb:MessageId>)/, '$1x'), 'latin1');
    const opened = await codec.open(built.contentType, tampered);
    const { errors, id } = refusal(opened);
    expect(id).to.equal(`x${built.messageId}`);
    expect(errors.map((e) => e.slice(0, 2))).to.deep.equal([['EBMS:0101', `x${built.messageId}`]]);
    expect(refusal(await codec.open('text/plain', Buffer.from('x')))).to.deep.include({ id: null });
  });

  it('refuses a signal: this endpoint takes UserMessages', async () => {
    const receipt = buildReceipt('m@x', [], { own: ap(SENDER) });
    expect(refusal(await codec.open(receipt.contentType, receipt.body))).to.deep.equal({
      errors: [
        ['EBMS:0010', receipt.messageId, 'this endpoint takes UserMessages; signals are answered synchronously'],
      ],
      id: receipt.messageId,
    });
  });

  it('refuses a header for another access point (the Peppol profile): EBMS:0004 PEPPOL:NOT_SERVICED', async () => {
    const message = messageFor(invoiceSbdh(), { to: OTHER });
    const opened = await codec.open(...(await parts(build({ message }))));
    const { errors, id } = refusal(opened);
    expect(id).to.equal(message.messageInfo.messageId);
    expect(errors).to.deep.equal([
      ['EBMS:0004', id, `the message is addressed to access point ${OTHER}, this is ${RECEIVER}`],
    ]);
    expect(!opened.ok && opened.errors[0]!.errorDetail).to.equal('PEPPOL:NOT_SERVICED');
  });

  it('refuses a From party that is not the signing certificate', async () => {
    const message = messageFor(invoiceSbdh(), { from: OTHER });
    const { errors, id } = refusal(await codec.open(...(await parts(build({ message })))));
    expect(errors).to.have.length(1);
    expect(errors[0]!.slice(0, 2)).to.deep.equal(['EBMS:0003', id]);
    expect(errors[0]![2]).to.contain(OTHER).and.contain(SENDER);
  });

  it('refuses a payload that is not an SBDH, and an SBDH that disagrees with the header', async () => {
    const sbdh = invoiceSbdh();
    const notSbdh = await build({ sbdh, payload: INVOICE });
    const { errors, id } = refusal(await codec.open(notSbdh.contentType, notSbdh.body));
    expect(errors).to.deep.equal([
      [
        'EBMS:0003',
        id,
        'the SBDH is not valid: INVALID_SBD_XML: the payload is not a StandardBusinessDocument but {urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}Invoice',
      ],
    ]);
    const other = await build({
      message: messageFor(sbdh),
      payload: writeSbdh(invoiceSbdh({ receiver: sbdh.sender }), INVOICE),
    });
    const mismatch = refusal(await codec.open(other.contentType, other.body));
    expect(mismatch.errors.length).to.be.greaterThan(0);
    // Parties that disagree are EBMS:0004, as phase4 answers them.
    expect(mismatch.errors.every(([code, ref]) => code === 'EBMS:0004' && ref === mismatch.id)).to.equal(true);
  });

  it('refuses an invoice whose seller is not the SBDH sender (sender binding): EBMS:0004 naming both', async () => {
    const sbdh = invoiceSbdh({ sender: { scheme: PARTICIPANT_SCHEME, value: '0208:0555555555' } });
    const { errors, id } = refusal(await codec.open(...(await parts(build({ sbdh })))));
    expect(errors).to.deep.equal([
      [
        'EBMS:0004',
        id,
        `the business document's issuer ${SELLER} (Invoice/AccountingSupplierParty/Party/EndpointID) is not the SBDH sender 0208:0555555555`,
      ],
    ]);
  });

  it('reads a received MLS: what it says and the MLS rules it breaks', async () => {
    const sbdh = applicationResponseSbdh('0242:000031', '0242:000032', MLS_DOCUMENT_TYPE, MLS_PROCESS);
    const mls = writeMls({
      id: 'mls-1',
      issueDate: '2026-05-01',
      issueTime: '10:00:00Z',
      sender: '000031',
      receiver: '000032',
      referenceId: 'msg-1@test',
      code: 'AP',
      description: null,
      issues: [],
    });
    const opened = await codec.open(...(await parts(build({ sbdh, payload: writeSbdh(sbdh, mls) }))));
    if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
    expect(opened.message.mls?.says).to.include({ id: 'mls-1', code: 'AP', referenceId: 'msg-1@test' });
    expect(opened.message.mls?.problems).to.deep.equal([]);
  });

  describe('an Invoice Response', () => {
    const responseSbdh = () =>
      applicationResponseSbdh(BUYER, SELLER, INVOICE_RESPONSE_DOCUMENT_TYPE, INVOICE_RESPONSE_PROCESS);
    const response = writeInvoiceResponse({
      id: randomUUID(),
      issueDate: '2026-03-02',
      code: 'RE',
      reason: 'Wrong order number',
      invoice: {
        invoice_id: 'INV-7',
        invoice_date: '2026-03-01',
        document_type: 'INVOICE',
        customer_name: 'Buyer',
        vendor_name: 'Seller',
      },
      buyerPeppolId: BUYER,
      sellerPeppolId: SELLER,
    });

    it('is read: the invoice it answers, the code and the reason', async () => {
      const built = await build({ sbdh: responseSbdh(), payload: writeSbdh(responseSbdh(), response) });
      const opened = await codec.open(built.contentType, built.body);
      if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
      expect(opened.message.invoiceResponse).to.include({
        invoiceId: 'INV-7',
        code: 'RE',
        reason: 'Wrong order number',
      });
    });

    it('that cannot be read is refused (EBMS:0004), with the reason', async () => {
      const sbdh = responseSbdh();
      const unreadable = response.replace(/<cbc:ResponseCode[^>]*>RE<\/cbc:ResponseCode>/, '');
      const built = await build({ sbdh, payload: writeSbdh(sbdh, unreadable) });
      const { errors, id } = refusal(await codec.open(built.contentType, built.body));
      expect(errors).to.have.length(1);
      expect(errors[0]!.slice(0, 2)).to.deep.equal(['EBMS:0004', id]);
      expect(errors[0]![2]).to.match(/^the Invoice Response cannot be read: .+/);
    });
  });

  it('answers with a signed receipt of what it received, and a signed error, that the sender reads', async () => {
    const built = await build();
    const opened = await codec.open(built.contentType, built.body);
    if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
    const receipt = codec.receipt(opened.message);
    expect(receipt.contentType).to.equal('application/soap+xml;charset=UTF-8');
    const sent = { messageId: built.messageId, references: built.references, receiver: ap(RECEIVER).certificate };
    expect(readSignalResponse(receipt.body, sent).kind).to.equal('receipt');
    const error = codec.error([ebmsError('other', built.messageId, 'try again')], built.messageId);
    const read = readSignalResponse(error.body, sent);
    expect(read).to.deep.include({ kind: 'error' });
    expect(JSON.stringify(read)).to.contain('try again');
  });
});

async function parts(built: Promise<BuiltMessage>): Promise<[string, Buffer]> {
  const b = await built;
  return [b.contentType, b.body];
}
