import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ebmsError, notServiced } from '../../../src/domain/peppol/as4/ebmsError.js';
import { peppolUserMessage } from '../../../src/domain/peppol/as4/peppolProfile.js';
import type { Sbdh } from '../../../src/domain/peppol/as4/sbdh.js';
import { BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../../src/domain/peppol/smpDocuments.js';
import { buildUserMessage } from '../../../src/infrastructure/as4/as4Outbound.js';
import { buildErrorSignal, buildReceipt } from '../../../src/infrastructure/as4/as4Signals.js';
import { readMultipartRelated } from '../../../src/infrastructure/as4/mimeMultipart.js';
import { makeTestAs4Pki, type TestAs4Pki } from '../../support/as4TestKeys.js';
import { as4SchemaErrors } from '../../support/as4Schemas.js';
import { captureSoap, phase4Dir, requireVectors } from '../../support/peppolVectors.js';

const sbdh: Sbdh = {
  sender: { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' },
  receiver: { scheme: 'iso6523-actorid-upis', value: '0208:0987654321' },
  document: {
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeVersion: '2.1',
    instanceIdentifier: 'x-1',
    type: 'Invoice',
    creationDateAndTime: '2026-03-01T10:00:00Z',
  },
  documentType: { scheme: 'busdox-docid-qns', value: BIS_BILLING_INVOICE },
  process: { scheme: 'cenbii-procid-ubl', value: BIS_BILLING_PROCESS },
  countryC1: 'BE',
  mlsTo: null,
  mlsType: null,
  extraScopes: [],
};

describe('AS4 envelopes we write validate against the SOAP 1.2 and ebMS 3.0 schemas', function () {
  let pki: TestAs4Pki;
  before(async function () {
    requireVectors(this, path.join(phase4Dir(), 'schemas', 'ebms-header-3_0-200704.xsd'));
    pki = await makeTestAs4Pki(['POP000001', 'POP000002']);
  });
  after(async () => pki?.dispose());

  const userMessageSoap = async () => {
    const message = peppolUserMessage(sbdh, {
      messageId: `${randomUUID()}@test`,
      timestamp: '2026-03-01T10:00:00.000Z',
      conversationId: 'c-1',
      fromParty: 'POP000001',
      toParty: 'POP000002',
      payloadContentId: 'payload@test',
    });
    const built = await buildUserMessage({
      message,
      payload: Buffer.from('<a/>'),
      sender: pki.accessPoints.POP000001!,
      receiver: pki.accessPoints.POP000002!.certificate,
    });
    return { built, soap: readMultipartRelated(built.contentType, built.body).root.body.toString('utf8') };
  };

  it('the schema set is strict enough to refuse what it must (the phase4 examples that lack MessageInfo or carry a bad timestamp)', () => {
    const read = (rel: string) =>
      fs.readFileSync(path.join(phase4Dir(), rel), 'utf8').replace(/^[\s\S]*?(?=<\?xml)/, '');
    expect(as4SchemaErrors(read('soap12test/test-2023-03-15.xml'))).to.deep.equal([]);
    expect(as4SchemaErrors(captureSoap('verify/helger.as4in').toString('utf8'))).to.deep.equal([]);
    // The SOAP 1.1 examples break the ebMS rules inside a SOAP 1.1 envelope; the ebMS part is what fails.
    expect(as4SchemaErrors(read('soap11test/MessageInfoMissing.xml')).join('\n')).to.match(/MessageInfo/);
    expect(as4SchemaErrors(read('soap11test/MessageInfoImaginaryTimestamp.xml')).join('\n')).to.match(/dateTime/);
  });

  it('our UserMessage envelope (signed and encrypted)', async () => {
    const { soap } = await userMessageSoap();
    expect(as4SchemaErrors(soap)).to.deep.equal([]);
  });

  it('our non-repudiation Receipt', async () => {
    const { built } = await userMessageSoap();
    const receipt = buildReceipt(built.messageId, built.references, { own: pki.accessPoints.POP000002! });
    const soap = receipt.body.toString('utf8');
    expect(soap).to.contain('<ebbp:NonRepudiationInformation');
    expect(as4SchemaErrors(soap)).to.deep.equal([]);
    // The receipt's content is checked too (ebbp and ds are declared, so lax validation applies them).
    const nrr = soap.slice(soap.indexOf('<eb:Receipt>'));
    const broken = soap.replace(nrr, nrr.replace(/<ds:DigestValue>[^<]*<\/ds:DigestValue>/, ''));
    expect(as4SchemaErrors(broken).join('\n')).to.match(/DigestValue/);
  });

  it('our Error signal, with and without a message to refer to', () => {
    const own = { own: pki.accessPoints.POP000002! };
    const errors = [
      notServiced('m-1@test', 'receiver unknown & <gone>'),
      ebmsError('decompressionFailure', 'm-1@test'),
    ];
    expect(as4SchemaErrors(buildErrorSignal(errors, 'm-1@test', own).body.toString('utf8'))).to.deep.equal([]);
    expect(
      as4SchemaErrors(buildErrorSignal([ebmsError('invalidHeader', null, 'not XML')], null, own).body.toString('utf8')),
    ).to.deep.equal([]);
  });

  it('a UserMessage without the required ConversationId is refused by the same schema set', async () => {
    const { soap } = await userMessageSoap();
    expect(as4SchemaErrors(soap.replace(/<eb:ConversationId>[^<]*<\/eb:ConversationId>/, '')).join('\n')).to.match(
      /ConversationId|MessageProperties/,
    );
  });
});
