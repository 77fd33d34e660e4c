// Rule sets by date: a document is checked by the release in force on the day it is validated, the
// answer names that set, and `rule_set` checks it by another release ahead of its day. The day the
// service sees is moved across 2026-08-24, when Peppol BIS 3.0.21 (EN 16931 UBL 1.3.16) replaced
// 3.0.19 (1.3.14.1); BR-CO-25 (an invoice with an amount due needs a due date or payment terms) is
// one of the rules the new release removed.
import { expect } from 'chai';
import {
  bearer,
  createOrganization,
  createTenant,
  publicClient,
  startTestService,
  type TestService,
} from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const withoutDueDate = () => {
  const body = structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;
  delete body.due_date;
  delete body.payment_term;
  return body;
};

type Issue = { rule_id: string | null; flag: string; location: string | null };
const fatalRules = (issues: Issue[]) => issues.filter((i) => i.flag === 'fatal').map((i) => i.rule_id ?? i.location);

describe('Rule sets in force by date (real app, real PostgreSQL)', function () {
  const clock = {
    day: '2026-08-23',
    today() {
      return this.day;
    },
  };
  let t: TestService;
  let key: string;

  before(async () => {
    t = await startTestService({}, undefined, { ruleSetClock: clock });
    const org = await createOrganization(t);
    key = (await createTenant(t, org.adminKey)).key;
  });
  after(async () => t?.stop());
  beforeEach(() => {
    clock.day = '2026-08-23';
  });

  it('checks by 3.0.19 until 2026-08-23 and by 3.0.21 from 2026-08-24, and says which', async () => {
    const before = await t.http.post('/api/validate/json').set(bearer(key)).send(withoutDueDate());
    expect(before.status).to.equal(200);
    expect(before.body).to.include({ is_valid: false, rule_set: 'peppol-bis-3.0.19' });
    expect(JSON.stringify(before.body.issues)).to.include('due_date');

    clock.day = '2026-08-24';
    const after = await t.http.post('/api/validate/json').set(bearer(key)).send(withoutDueDate());
    expect(after.status).to.equal(200);
    expect(after.body, JSON.stringify(after.body.issues)).to.include({ is_valid: true, rule_set: 'peppol-bis-3.0.21' });
  });

  it('checks uploaded UBL by the set in force: BR-CO-25 before the day, not from it', async () => {
    clock.day = '2026-08-24';
    const ubl = (await t.http.post('/api/validate/json').set(bearer(key)).send(withoutDueDate())).body.ubl_document;
    expect(ubl).to.be.a('string').and.not.include('DueDate');

    clock.day = '2026-08-23';
    const old = await t.http
      .post('/api/validate/ubl')
      .set(bearer(key))
      .set('Content-Type', 'application/xml')
      .send(ubl);
    expect(old.status).to.equal(200);
    expect(old.body.rule_set).to.equal('peppol-bis-3.0.19');
    expect(fatalRules(old.body.issues)).to.deep.equal(['BR-CO-25']);

    clock.day = '2026-08-24';
    const current = await t.http
      .post('/api/validate/ubl')
      .set(bearer(key))
      .set('Content-Type', 'application/xml')
      .send(ubl);
    expect(current.body).to.include({ is_valid: true, rule_set: 'peppol-bis-3.0.21' });
  });

  it('creates a document by the set in force: refused on 2026-08-23, created on 2026-08-24', async () => {
    const refused = await t.http.post('/api/documents').set(bearer(key)).send(withoutDueDate());
    expect(refused.status).to.equal(422);
    clock.day = '2026-08-24';
    const created = await t.http.post('/api/documents').set(bearer(key)).send(withoutDueDate());
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ state: 'DRAFT', due_date: null, payment_term: null });
  });

  it('validating a stored document again records the set it was validated by, for its history', async () => {
    clock.day = '2026-08-24';
    const created = await t.http.post('/api/documents').set(bearer(key)).send(withoutDueDate());
    expect(created.status).to.equal(200);
    const now = await t.http.post(`/api/documents/${created.body.id}/validate`).set(bearer(key));
    expect(now.body).to.include({ is_valid: true, rule_set: 'peppol-bis-3.0.21' });
    clock.day = '2026-08-23';
    const before = await t.http.post(`/api/documents/${created.body.id}/validate`).set(bearer(key));
    expect(before.body).to.include({ is_valid: false, rule_set: 'peppol-bis-3.0.19' });
    const history = await t.http.get(`/api/documents/${created.body.id}/history`).set(bearer(key));
    const validations = history.body.events
      .filter((e: { type: string }) => e.type === 'DocumentValidated')
      .map((e: { data: { is_valid: boolean; rule_set: string } }) => [e.data.is_valid, e.data.rule_set]);
    expect(validations).to.deep.equal([
      [true, 'peppol-bis-3.0.21'],
      [false, 'peppol-bis-3.0.19'],
    ]);
  });

  it('checks by a named release ahead of its day (rule_set, by id or by version), with the public client', async () => {
    const byId = await t.http
      .post('/api/validate/json?rule_set=peppol-bis-3.0.21')
      .set(bearer(key))
      .send(withoutDueDate());
    expect(byId.body).to.include({ is_valid: true, rule_set: 'peppol-bis-3.0.21' });
    const byVersion = await t.http.post('/api/validate/json?rule_set=3.0.21').set(bearer(key)).send(withoutDueDate());
    expect(byVersion.body.rule_set).to.equal('peppol-bis-3.0.21');

    clock.day = '2026-08-24';
    const { client, close } = await publicClient(t, key);
    try {
      // The client has no parameter for it (the spec is silent); its request options carry the query.
      const previous = (await client.validate.validateJson(withoutDueDate() as never, {
        query: { rule_set: 'peppol-bis-3.0.19' },
      })) as unknown as { is_valid: boolean; rule_set: string };
      expect(previous).to.include({ is_valid: false, rule_set: 'peppol-bis-3.0.19' });
      const current = (await client.validate.validateJson(withoutDueDate() as never)) as unknown as {
        rule_set: string;
      };
      expect(current.rule_set).to.equal('peppol-bis-3.0.21');
    } finally {
      await close();
    }
  });

  it('refuses a rule set it does not know with a 422 naming the parameter, for JSON and UBL', async () => {
    for (const path of ['/api/validate/json', '/api/validate/ubl']) {
      const res = await t.http
        .post(`${path}?rule_set=peppol-bis-9.9.9`)
        .set(bearer(key))
        .set('Content-Type', path.endsWith('json') ? 'application/json' : 'application/xml')
        .send(path.endsWith('json') ? JSON.stringify(withoutDueDate()) : '<Invoice/>');
      expect(res.status, path).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['query', 'rule_set']);
      expect(res.body.detail[0].msg).to.include('peppol-bis-3.0.21');
    }
  });

  it('lists the rule sets with their days and the one in force', async () => {
    const listed = await t.http.get('/api/validate/rule-sets').set(bearer(key));
    expect(listed.status).to.equal(200);
    expect(listed.body).to.include({ today: '2026-08-23', in_force: 'peppol-bis-3.0.19' });
    expect(
      listed.body.rule_sets.map((s: { id: string; valid_from: string | null }) => [s.id, s.valid_from]),
    ).to.deep.equal([
      ['peppol-bis-3.0.19', null],
      ['peppol-bis-3.0.21', '2026-08-24'],
    ]);
    clock.day = '2026-08-24';
    expect((await t.http.get('/api/validate/rule-sets').set(bearer(key))).body.in_force).to.equal('peppol-bis-3.0.21');
  });
});
