import { expect } from 'chai';
import { As4Failure } from '../../../src/infrastructure/as4/as4Failure.js';
import { readMessaging } from '../../../src/infrastructure/as4/ebmsReader.js';
import { NS } from '../../../src/infrastructure/as4/namespaces.js';
import { parseUntrustedXmlDom } from '../../../src/infrastructure/as4/xmlDom.js';

// The eb:Messaging reader on hand-made envelopes: each refusal names what is wrong (EBMS:0009), and
// what is optional reads as absent. Every test parses its own envelope (the mutation run credits
// each test with the code it reaches).

const MESSAGE_INFO =
  '<eb:MessageInfo><eb:Timestamp>2026-11-29T01:00:00Z</eb:Timestamp><eb:MessageId>m-1</eb:MessageId></eb:MessageInfo>';
const PARTY_INFO =
  '<eb:PartyInfo><eb:From><eb:PartyId type="urn:t">POP000001</eb:PartyId><eb:Role>r-from</eb:Role></eb:From>' +
  '<eb:To><eb:PartyId>POP000002</eb:PartyId><eb:Role>r-to</eb:Role></eb:To></eb:PartyInfo>';
const COLLABORATION =
  '<eb:CollaborationInfo><eb:Service type="cenbii-procid-ubl">urn:process</eb:Service>' +
  '<eb:Action>urn:doc</eb:Action><eb:ConversationId>c-1</eb:ConversationId></eb:CollaborationInfo>';

const envelope = (messaging: string, { soap = NS.soap12 as string, body = '<S:Body wsu:Id="body-1"/>' } = {}) =>
  `<S:Envelope xmlns:S="${soap}" xmlns:eb="${NS.eb}" xmlns:ebbp="${NS.ebbp}" xmlns:ds="${NS.ds}" xmlns:wsu="${NS.wsu}">` +
  `<S:Header>${messaging}</S:Header>${body}</S:Envelope>`;
const messaging = (content: string) => `<eb:Messaging wsu:Id="eb-1">${content}</eb:Messaging>`;
const userMessage = (inner: string) => envelope(messaging(`<eb:UserMessage>${inner}</eb:UserMessage>`));
const signal = (inner: string) => envelope(messaging(`<eb:SignalMessage>${MESSAGE_INFO}${inner}</eb:SignalMessage>`));

const read = (xml: string) => readMessaging(parseUntrustedXmlDom(xml));
/** The message `xml`'s refusal, which must be InvalidHeader. */
const refusal = (xml: string): string => {
  try {
    read(xml);
  } catch (error) {
    expect(error).to.be.instanceOf(As4Failure);
    expect((error as As4Failure).ebms).to.equal('invalidHeader');
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('ebMS header reader (eb:Messaging)', () => {
  it('reads a UserMessage whole: absent optional parts read as null or empty, a property or part without a name or href as ""', () => {
    const xml = userMessage(
      MESSAGE_INFO +
        PARTY_INFO +
        COLLABORATION +
        '<eb:MessageProperties><eb:Property type="t">no name</eb:Property><eb:Property name="p">v</eb:Property></eb:MessageProperties>' +
        '<eb:PayloadInfo><eb:PartInfo><eb:PartProperties><eb:Property name="MimeType">application/xml</eb:Property></eb:PartProperties></eb:PartInfo>' +
        '<eb:PartInfo href="cid:b"/></eb:PayloadInfo>',
    );
    const messagingRead = read(xml);
    expect(messagingRead.soapVersion).to.equal('1.2');
    expect(messagingRead.id).to.equal('eb-1');
    expect(messagingRead.bodyId).to.equal('body-1');
    expect(messagingRead.content).to.deep.equal({
      kind: 'user',
      message: {
        messageInfo: { timestamp: '2026-11-29T01:00:00Z', messageId: 'm-1', refToMessageId: null },
        partyInfo: {
          from: { partyId: { type: 'urn:t', value: 'POP000001' }, role: 'r-from' },
          to: { partyId: { type: null, value: 'POP000002' }, role: 'r-to' },
        },
        collaborationInfo: {
          agreementRef: null,
          service: { type: 'cenbii-procid-ubl', value: 'urn:process' },
          action: 'urn:doc',
          conversationId: 'c-1',
        },
        messageProperties: [
          { name: '', type: 't', value: 'no name' },
          { name: 'p', type: null, value: 'v' },
        ],
        payloadInfo: [
          { href: '', properties: [{ name: 'MimeType', type: null, value: 'application/xml' }] },
          { href: 'cid:b', properties: [] },
        ],
      },
    });
  });

  it('reads a UserMessage without properties or payload info as empty lists, and a SOAP 1.1 envelope as 1.1', () => {
    const xml = envelope(messaging(`<eb:UserMessage>${MESSAGE_INFO}${PARTY_INFO}${COLLABORATION}</eb:UserMessage>`), {
      soap: NS.soap11,
    });
    const messagingRead = read(xml);
    expect(messagingRead.soapVersion).to.equal('1.1');
    if (messagingRead.content.kind !== 'user') throw new Error('expected a UserMessage');
    expect(messagingRead.content.message.messageProperties).to.deep.equal([]);
    expect(messagingRead.content.message.payloadInfo).to.deep.equal([]);
  });

  it('refuses a UserMessage whose parts are missing, doubled or empty, naming the part', () => {
    const cases: Array<[string, string]> = [
      [
        userMessage(MESSAGE_INFO.replace('2026-11-29T01:00:00Z', '  ') + PARTY_INFO + COLLABORATION),
        'MessageInfo/eb:Timestamp is empty',
      ],
      [
        userMessage(MESSAGE_INFO.replace('<eb:MessageId>m-1</eb:MessageId>', '') + PARTY_INFO + COLLABORATION),
        'MessageInfo must have exactly one eb:MessageId',
      ],
      [userMessage(PARTY_INFO + COLLABORATION), 'UserMessage must have exactly one eb:MessageInfo'],
      [userMessage(MESSAGE_INFO + COLLABORATION), 'UserMessage must have exactly one eb:PartyInfo'],
      [userMessage(MESSAGE_INFO + PARTY_INFO), 'UserMessage must have exactly one eb:CollaborationInfo'],
      [
        userMessage(MESSAGE_INFO + PARTY_INFO.replace(/<eb:From>.*<\/eb:From>/, '') + COLLABORATION),
        'PartyInfo must have exactly one eb:From',
      ],
      [
        userMessage(
          MESSAGE_INFO +
            PARTY_INFO.replace('<eb:PartyId>POP000002', '<eb:PartyId>x</eb:PartyId><eb:PartyId>POP000002') +
            COLLABORATION,
        ),
        'To must have exactly one PartyId',
      ],
      [userMessage(MESSAGE_INFO + PARTY_INFO.replace('POP000002', ' ') + COLLABORATION), 'To/PartyId is empty'],
      [
        userMessage(MESSAGE_INFO + PARTY_INFO.replace('<eb:Role>r-to</eb:Role>', '') + COLLABORATION),
        'To must have exactly one eb:Role',
      ],
      [
        userMessage(MESSAGE_INFO + PARTY_INFO + COLLABORATION.replace(/<eb:Service .*<\/eb:Service>/, '')),
        'CollaborationInfo must have exactly one eb:Service',
      ],
      [
        userMessage(MESSAGE_INFO + PARTY_INFO + COLLABORATION.replace('urn:process', '')),
        'CollaborationInfo/Service is empty',
      ],
      [
        userMessage(MESSAGE_INFO + PARTY_INFO + COLLABORATION.replace('<eb:Action>urn:doc</eb:Action>', '')),
        'CollaborationInfo must have exactly one eb:Action',
      ],
      [
        userMessage(MESSAGE_INFO + PARTY_INFO + COLLABORATION.replace('c-1', '')),
        'CollaborationInfo/eb:ConversationId is empty',
      ],
    ];
    expect(cases.map(([xml]) => refusal(xml))).to.deep.equal(cases.map(([, message]) => message));
  });

  it('reads an error signal with its attributes, and a receipt without non-repudiation information as no digests', () => {
    const errors = read(
      signal(
        '<eb:Error errorCode="EBMS:0004" severity="failure" category="Content" origin="ebMS" shortDescription="Other" refToMessageInError="m-0">' +
          '<eb:Description>why</eb:Description></eb:Error>',
      ),
    );
    expect(errors.content).to.deep.equal({
      kind: 'signal',
      signal: {
        kind: 'error',
        messageInfo: { timestamp: '2026-11-29T01:00:00Z', messageId: 'm-1', refToMessageId: null },
        errors: [
          {
            errorCode: 'EBMS:0004',
            severity: 'failure',
            category: 'Content',
            origin: 'ebMS',
            shortDescription: 'Other',
            refToMessageInError: 'm-0',
            description: 'why',
            errorDetail: null,
          },
        ],
      },
    });
    const receipt = read(signal('<eb:Receipt><other/></eb:Receipt>'));
    if (receipt.content.kind !== 'signal' || receipt.content.signal.kind !== 'receipt')
      throw new Error('expected a receipt');
    expect(receipt.content.signal.receipt.nonRepudiation).to.deep.equal([]);
  });

  it('refuses an error without its code or its severity, and a signal with both or neither of a receipt and errors', () => {
    expect(refusal(signal('<eb:Error severity="failure"/>'))).to.equal('eb:Error must have errorCode and severity');
    expect(refusal(signal('<eb:Error errorCode="EBMS:0004"/>'))).to.equal('eb:Error must have errorCode and severity');
    expect(refusal(signal('<eb:Receipt/><eb:Error errorCode="EBMS:0004" severity="failure"/>'))).to.equal(
      'a SignalMessage must carry one Receipt or Errors',
    );
    expect(refusal(signal(''))).to.equal('a SignalMessage must carry one Receipt or Errors');
  });

  it('refuses an envelope without Header or Body, without or with two eb:Messaging, or not SOAP', () => {
    const user = messaging(`<eb:UserMessage>${MESSAGE_INFO}${PARTY_INFO}${COLLABORATION}</eb:UserMessage>`);
    expect(refusal(envelope(user).replace(/<S:Header>.*<\/S:Header>/, ''))).to.equal('the SOAP envelope has no Header');
    expect(refusal(envelope(user, { body: '' }))).to.equal('the SOAP envelope has no Body');
    expect(refusal(envelope(''))).to.equal('the message has no eb:Messaging header');
    expect(refusal(envelope(user + user))).to.equal('the message has more than one eb:Messaging header');
    expect(refusal(envelope(messaging('')))).to.equal(
      'eb:Messaging must carry exactly one UserMessage or SignalMessage',
    );
    expect(refusal(`<Envelope xmlns="urn:not-soap"><Header/><Body/></Envelope>`)).to.equal(
      'the root element is not a SOAP Envelope: {urn:not-soap}Envelope',
    );
    expect(refusal(`<S:Letter xmlns:S="${NS.soap12}"><S:Header/><S:Body/></S:Letter>`)).to.equal(
      `the root element is not a SOAP Envelope: {${NS.soap12}}Letter`,
    );
  });
});
