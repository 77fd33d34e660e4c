import { expect } from 'chai';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

// Issue 17: the exemption reason (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10) is a legal statement
// of the seller's. The service writes the one the caller gave, exactly, and refuses (422, naming the
// field) a document that gives none: no "Exempt from VAT" or standard VATEX code is made up.

type Body = Record<string, unknown> & { vatex?: string; vatex_note?: string };
type Detail = { loc: Array<string | number>; msg: string; type: string };

const CATEGORIES: Array<{ code: string; rule: string }> = [
  { code: 'E', rule: 'BR-E-10' },
  { code: 'AE', rule: 'BR-AE-10' },
  { code: 'K', rule: 'BR-IC-10' },
  { code: 'G', rule: 'BR-G-10' },
  { code: 'O', rule: 'BR-O-10' },
];

/** A realistic document whose only VAT category is `code` (the fixture states its reason). */
const fixtureOf = (code: string): Body => {
  const found = realisticDocuments().find(
    (f) =>
      f.body.tax_code === code &&
      (f.body.items as Array<{ tax_code?: string }>).every((i) => i.tax_code === undefined || i.tax_code === code),
  );
  if (!found) throw new Error(`no fixture of category ${code}`);
  return structuredClone(found.body) as Body;
};

const exemptionOf = (ubl: string): { codes: string[]; texts: string[] } => ({
  codes: [...ubl.matchAll(/<cbc:TaxExemptionReasonCode>([^<]*)</g)].map((m) => m[1]!),
  texts: [...ubl.matchAll(/<cbc:TaxExemptionReason>([^<]*)</g)].map((m) => m[1]!),
});
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('Exemption reasons: only the ones the caller states (real app, real PostgreSQL)', function () {
  let t: TestService;
  let tenant: { id: string; key: string };

  before(async () => {
    t = await startTestService();
    const org = await createOrganization(t);
    tenant = await createTenant(t, org.adminKey);
  });
  after(async () => t?.stop());

  for (const { code, rule } of CATEGORIES) {
    describe(`category ${code}`, () => {
      it(`creates a document with the stated reason, and its UBL carries exactly that reason and no other`, async () => {
        const body = fixtureOf(code);
        body.vatex_note = `Stated by the seller for ${code} & nobody else`;
        const created = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(body);
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        const ubl = await t.http
          .get(`/api/documents/${created.body.id}/ubl?format=xml`)
          .set(bearer(tenant.key))
          .buffer(true)
          .parse((res, done) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString('utf8')));
            res.on('end', () => done(null, text));
          });
        expect(ubl.status).to.equal(200);
        const xml = ubl.body as string;
        expect(exemptionOf(xml)).to.deep.equal({
          codes: body.vatex ? [body.vatex] : [],
          texts: [xmlText(body.vatex_note)],
        });
        expect(xml).not.to.contain('Exempt from VAT');
      });

      it(`validates a document with only a vatex code: valid, the UBL states that code and no text`, async () => {
        const body = fixtureOf(code);
        delete body.vatex_note;
        body.vatex = { E: 'VATEX-EU-132-1I', AE: 'VATEX-EU-AE', K: 'VATEX-EU-IC', G: 'VATEX-EU-G', O: 'VATEX-EU-O' }[
          code
        ];
        const res = await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(body);
        expect(res.status).to.equal(200);
        expect(res.body.issues, JSON.stringify(res.body.issues)).to.deep.equal([]);
        expect(res.body.is_valid).to.equal(true);
        expect(exemptionOf(res.body.ubl_document as string)).to.deep.equal({ codes: [body.vatex], texts: [] });
      });

      it(`refuses (422) a document with neither vatex nor vatex_note, naming vatex (${rule}), and records nothing`, async () => {
        const body = fixtureOf(code);
        delete body.vatex;
        delete body.vatex_note;
        const before = await t.service.eventStore.headPosition();
        const res = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(body);
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        const detail = res.body.detail as Detail[];
        // One entry for the category, naming the field; the rule engine's own report of the rule is not repeated.
        expect(detail.filter((d) => d.type === rule).map((d) => d.loc)).to.deep.equal([['body', 'vatex']]);
        const entry = detail.find((d) => d.type === rule)!;
        expect(entry.msg).to.contain(`[${rule}]`).and.to.contain('vatex').and.to.contain(`VAT category ${code}`);
        expect(await t.service.eventStore.headPosition()).to.equal(before);
      });

      it(`validation of the same document is not valid: one issue at vatex (${rule}) and no UBL`, async () => {
        const body = fixtureOf(code);
        delete body.vatex;
        delete body.vatex_note;
        const res = await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(body);
        expect(res.status).to.equal(200);
        expect(res.body.is_valid).to.equal(false);
        const issues = res.body.issues as Array<{ rule_id: string | null; location: string | null }>;
        expect(issues.filter((i) => i.rule_id === rule).map((i) => i.location)).to.deep.equal(['vatex']);
        expect(res.body.ubl_document ?? null).to.equal(null);
      });
    });
  }

  it('refuses (422) a document with two exempt categories, naming the line whose category has no reason of its own', async () => {
    const body = fixtureOf('E');
    const items = body.items as Array<Record<string, unknown>>;
    items.push({ ...items[0]!, description: 'Goods shipped to another member state', tax_code: 'K' });
    const res = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    const detail = res.body.detail as Detail[];
    expect(detail.filter((d) => d.type === 'BR-IC-10').map((d) => d.loc)).to.deep.equal([
      ['body', 'items', items.length - 1, 'tax_code'],
    ]);
    expect(detail.some((d) => d.type === 'BR-E-10')).to.equal(false);
  });

  it('refuses (422) an allowance or charge without a reason, naming its reason field; none is written as "Discount" or "Charge"', async () => {
    const body = fixtureOf('E');
    body.allowances = [{ amount: 10, tax_code: 'E', tax_rate: '0.00' }];
    (body.items as Array<Record<string, unknown>>)[0]!.charges = [{ amount: 5 }];
    const before = await t.service.eventStore.headPosition();
    const res = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    const detail = res.body.detail as Detail[];
    expect(detail.map((d) => [d.loc, d.type])).to.deep.equal([
      [['body', 'allowances', 0, 'reason'], 'BR-33'],
      [['body', 'items', 0, 'charges', 0, 'reason'], 'BR-44'],
    ]);
    expect(await t.service.eventStore.headPosition()).to.equal(before);

    const validated = await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(body);
    expect(validated.body.is_valid).to.equal(false);
    const locations = (validated.body.issues as Array<{ location: string | null; rule_id: string | null }>).map((i) => [
      i.location,
      i.rule_id,
    ]);
    expect(locations).to.deep.include.members([
      ['allowances[0].reason', 'BR-33'],
      ['items[0].charges[0].reason', 'BR-44'],
    ]);
    // Neither the reason rules nor their BR-CO twins are repeated by the rule engine.
    expect(locations.filter(([, rule]) => /^BR-(33|44|CO-21|CO-24)$/.test(rule ?? ''))).to.have.length(2);
  });
});
