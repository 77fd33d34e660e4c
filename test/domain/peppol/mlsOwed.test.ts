import { expect } from 'chai';
import {
  MLS_MAX_ISSUES,
  mlsOwed,
  type MlsRequest,
  type ReceivedOutcome,
} from '../../../src/domain/peppol/mls/mlsOwed.js';
import {
  acceptableMlsTo,
  isSpid,
  spidOf,
  spidParticipantOfSeat,
} from '../../../src/domain/peppol/mls/serviceProviderId.js';
import {
  isMlsTree,
  isPositiveMls,
  mlsIssueMoment,
  MLS_DOCUMENT_TYPE,
  type MlsIssue,
  readMls,
  writeMls,
} from '../../../src/domain/peppol/mls/messageLevelStatus.js';
import { parseUntrustedXml } from '../../../src/infrastructure/xml/xmlParser.js';
import { readMlsText } from '../../../src/infrastructure/xml/mlsText.js';

const UPIS = 'iso6523-actorid-upis';
const request = (over: Partial<MlsRequest> = {}): MlsRequest => ({
  mlsTo: null,
  mlsType: null,
  senderAp: 'POP000123',
  ...over,
});
const refused = (
  issues: Array<{ rule_id: string | null; message: string; location: string | null }>,
): ReceivedOutcome => ({
  kind: 'refused',
  issues,
});
/** An RE from SPID 000001 to 000002 about message `r`. */
const rejection = (issues: MlsIssue[]) =>
  writeMls({
    id: 'x',
    issueDate: '2026-03-01',
    issueTime: '10:00:00Z',
    sender: '000001',
    receiver: '000002',
    referenceId: 'r',
    code: 'RE',
    description: 'no',
    issues,
  });
const AR = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const tree = (body: string, root = 'ApplicationResponse', ns = AR) =>
  parseUntrustedXml(`<${root} xmlns="${ns}" xmlns:cbc="${CBC}" xmlns:cac="${CAC}">${body}</${root}>`).root;

describe('Service provider ids (SPIS) for MLS', () => {
  it("names a seat's SPID participant: the six digits of a P??###### seat id, any case, trimmed", () => {
    expect(spidParticipantOfSeat('POP000123')).to.equal('0242:000123');
    expect(spidParticipantOfSeat(' pde654321 ')).to.equal('0242:654321');
    for (const notASeat of ['', 'OP000123', 'POP00012', 'POP0001234', 'XPOP000123', 'POP000123X', 'P0P000123'])
      expect(spidParticipantOfSeat(notASeat), notASeat).to.equal(null);
  });

  it('reads the SPID of a 0242 participant only, trimmed, and only when it is a SPID', () => {
    expect(spidOf('0242:000123')).to.equal('000123');
    expect(spidOf('0242: 000123-UNIT.SUB-1 ')).to.equal('000123-UNIT.SUB-1');
    expect(spidOf('000123')).to.equal(null);
    expect(spidOf('0208:000123')).to.equal(null);
    expect(spidOf('x0242:000123')).to.equal(null);
    expect(spidOf('0242:12345')).to.equal(null);
    expect(spidOf('0242:abcdef')).to.equal(null);
  });

  it('knows a SPID by the specification pattern: six digits, then a unit of 3 to 12 and a sub-unit of 3 to 24', () => {
    for (const spid of [
      '000123',
      '000123-abc',
      '000123-ABC_DEF12345',
      '000123-ABC.x-y._~z',
      '000123-ABC.123456789012345678901234',
    ])
      expect(isSpid(spid), spid).to.equal(true);
    for (const not of [
      '00012',
      '0001234',
      ' 000123',
      '000123 ',
      '000123-AB',
      '000123-ABCDEFGHIJKLM',
      '000123-ABC.de',
      '000123-ABC.1234567890123456789012345',
      '000123.ABC',
      'x000123',
    ])
      expect(isSpid(not), not).to.equal(false);
  });

  it("accepts an MLS_TO only in the Peppol scheme, naming a SPID of the sender's own seat", () => {
    expect(acceptableMlsTo({ scheme: UPIS, value: '0242:000123' }, 'POP000123')).to.equal(true);
    expect(acceptableMlsTo({ scheme: UPIS, value: '0242:000123-UNIT' }, 'POP000123')).to.equal(true);
    expect(acceptableMlsTo({ scheme: 'other', value: '0242:000123' }, 'POP000123')).to.equal(false);
    expect(acceptableMlsTo({ scheme: UPIS, value: '0242:000999' }, 'POP000123')).to.equal(false);
    expect(acceptableMlsTo({ scheme: UPIS, value: '0208:000123' }, 'POP000123')).to.equal(false);
    expect(acceptableMlsTo({ scheme: UPIS, value: '0242:000123' }, 'not a seat')).to.equal(false);
  });
});

describe('The MLS a received document is owed (mlsOwed)', () => {
  const bv = { rule_id: 'BR-03', message: 'An Invoice shall have an issue date', location: '/Invoice/cbc:IssueDate' };

  it('none for an MLS, whatever was asked', () => {
    expect(mlsOwed({ kind: 'mls' }, request({ mlsType: 'ALWAYS_SEND' }))).to.equal(null);
  });

  it('an AP for a delivered document only when ALWAYS_SEND was asked (absent is FAILURE_ONLY)', () => {
    expect(mlsOwed({ kind: 'delivered' }, request({ mlsType: 'ALWAYS_SEND' }))).to.deep.equal({
      to: '0242:000123',
      code: 'AP',
      description: null,
      issues: [],
    });
    expect(mlsOwed({ kind: 'delivered' }, request({ mlsType: 'FAILURE_ONLY' }))).to.equal(null);
    expect(mlsOwed({ kind: 'delivered' }, request())).to.equal(null);
  });

  it('goes to MLS_TO when it names the sender, else to the SPID of the sender seat; none when neither can be named', () => {
    const asked = request({ mlsType: 'ALWAYS_SEND', mlsTo: { scheme: UPIS, value: '0242:000123-MLS' } });
    expect(mlsOwed({ kind: 'delivered' }, asked)!.to).to.equal('0242:000123-MLS');
    const thirdParty = request({ mlsType: 'ALWAYS_SEND', mlsTo: { scheme: UPIS, value: '0242:000999' } });
    expect(mlsOwed({ kind: 'delivered' }, thirdParty)!.to).to.equal('0242:000123');
    expect(mlsOwed(refused([bv]), request({ senderAp: 'unknown' }))).to.equal(null);
    expect(
      mlsOwed(refused([bv]), request({ senderAp: 'unknown', mlsTo: { scheme: UPIS, value: '0242:000123' } })),
    ).to.equal(null);
  });

  it('an RE for a refused document, one BV issue per fatal rule, with its rule id and location (NA when none)', () => {
    const owed = mlsOwed(refused([bv, { rule_id: null, message: 'not well-formed', location: null }]), request());
    expect(owed).to.deep.equal({
      to: '0242:000123',
      code: 'RE',
      description: 'The document was not delivered: it fails 2 business rules',
      issues: [
        {
          location: '/Invoice/cbc:IssueDate',
          description: '[BR-03] An Invoice shall have an issue date',
          reason: 'BV',
        },
        { location: 'NA', description: 'not well-formed', reason: 'BV' },
      ],
    });
    expect(mlsOwed(refused([bv]), request())!.description).to.equal(
      'The document was not delivered: it fails 1 business rule',
    );
  });

  it(`lists at most ${MLS_MAX_ISSUES} issues and says how many more there were`, () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ ...bv, message: `m${i}` }));
    const exactly = mlsOwed(refused(many(MLS_MAX_ISSUES)), request())!;
    expect(exactly.issues).to.have.length(MLS_MAX_ISSUES);
    expect(exactly.issues.at(-1)!.description).to.equal(`[BR-03] m${MLS_MAX_ISSUES - 1}`);
    const over = mlsOwed(refused(many(MLS_MAX_ISSUES + 3)), request())!;
    expect(over.issues).to.have.length(MLS_MAX_ISSUES + 1);
    expect(over.issues.at(-1)).to.deep.equal({
      location: 'NA',
      description: '3 more business rule failures',
      reason: 'BV',
    });
    expect(over.description).to.equal(`The document was not delivered: it fails ${MLS_MAX_ISSUES + 3} business rules`);
  });
});

describe('MLS documents: the document type, the issue moment, what a tree is and says', () => {
  it('is an ApplicationResponse of the MLS customization, UBL 2.1', () => {
    expect(MLS_DOCUMENT_TYPE).to.equal(`${AR}::ApplicationResponse##urn:peppol:edec:mls:1.0::2.1`);
  });

  it('is issued at a UTC date and time with its zone', () => {
    expect(mlsIssueMoment('2026-03-01T23:30:05.123+02:00')).to.deep.equal({
      issueDate: '2026-03-01',
      issueTime: '21:30:05Z',
    });
  });

  it('is positive unless RE', () => {
    expect(['AP', 'AB', 'RE'].map((c) => isPositiveMls(c as 'AP'))).to.deep.equal([true, true, false]);
  });

  it('is an MLS tree only as an ApplicationResponse in its namespace naming the MLS customization', () => {
    const customization = '<cbc:CustomizationID> urn:peppol:edec:mls:1.0 </cbc:CustomizationID>';
    expect(isMlsTree(tree(customization))).to.equal(true);
    expect(
      isMlsTree(tree('<cbc:CustomizationID>urn:fdc:peppol.eu:poacc:trns:invoice_response:3</cbc:CustomizationID>')),
    ).to.equal(false);
    expect(isMlsTree(tree(''))).to.equal(false);
    expect(isMlsTree(tree(customization, 'ApplicationResponse', 'urn:other'))).to.equal(false);
    expect(isMlsTree(tree(customization, 'Invoice'))).to.equal(false);
  });

  it('reads absent and empty values as null, and a participant with its scheme', () => {
    const read = readMls(
      tree(
        '<cbc:ID>  </cbc:ID><cac:SenderParty><cbc:EndpointID schemeID=" 0242 ">000001</cbc:EndpointID></cac:SenderParty>' +
          '<cac:ReceiverParty><cbc:EndpointID>000002</cbc:EndpointID></cac:ReceiverParty>' +
          '<cac:DocumentResponse><cac:LineResponse><cac:LineReference/></cac:LineResponse></cac:DocumentResponse>',
      ),
    );
    expect(read).to.deep.equal({
      id: null,
      code: null,
      description: null,
      referenceId: null,
      sender: '0242:000001',
      receiver: ':000002',
      issues: [{ location: null, description: null, reason: null }],
    });
  });

  it('reads no issues where there is no DocumentResponse', () => {
    expect(readMls(tree('<cbc:ID>x</cbc:ID>'))).to.deep.include({ id: 'x', code: null, issues: [] });
  });

  it('writes NA for an issue without a location', () => {
    const xml = rejection([{ location: '', description: 'd', reason: 'BV' }]);
    expect(readMls(parseUntrustedXml(xml).root).issues).to.deep.equal([
      { location: 'NA', description: 'd', reason: 'BV' },
    ]);
  });
});

describe('A received MLS text (readMlsText)', () => {
  it('says what the MLS says and the rules it breaks, as rule: message', () => {
    const xml = rejection([]);
    const { says, problems } = readMlsText(xml);
    expect(says).to.deep.include({ id: 'x', code: 'RE', referenceId: 'r', sender: '0242:000001' });
    expect(problems).to.deep.equal([
      'SCH-MLS-23: A negative MLS MUST contain at least one Issue',
      'SCH-MLS-24: A negative MLS MUST contain at least one Issue with a failure',
    ]);
  });

  it('says nothing of a text that cannot be parsed, and why', () => {
    const { says, problems } = readMlsText('<ApplicationResponse');
    expect(says).to.deep.equal({
      id: null,
      code: null,
      description: null,
      referenceId: null,
      sender: null,
      receiver: null,
      issues: [],
    });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^the MLS cannot be read: \S/);
  });
});
