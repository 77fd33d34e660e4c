import { expect } from 'chai';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const fixtures = realisticDocuments();
const invoice = () => structuredClone(fixtures[0]!.body) as Record<string, unknown>;
const EXT = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';

describe('Hostile XML and hostile keys over HTTP (real app, real PostgreSQL)', function () {
  let t: TestService;
  let tenant: { id: string; key: string };
  let ubl: string;
  const post = (path: string, body: string | Buffer) =>
    t.http.post(path).set(bearer(tenant.key)).set('Content-Type', 'application/xml').send(body);
  const withExtension = (inner: string) =>
    ubl.replace(
      '>\n  <cbc:CustomizationID',
      `>\n  <ext:UBLExtensions xmlns:ext="${EXT}"><ext:UBLExtension><ext:ExtensionContent><y>${inner}</y></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>\n  <cbc:CustomizationID`,
    );

  before(async () => {
    t = await startTestService();
    tenant = await createTenant(t, (await createOrganization(t)).adminKey);
    ubl = (await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(invoice())).body.ubl_document as string;
  });
  after(async () => t?.stop());

  it('refuses XML beyond a limit with 422, naming the limit, on both UBL routes and records nothing', async () => {
    const before = await t.service.eventStore.headPosition();
    const cases: Array<[string, string]> = [
      ['maxElements', withExtension('<x/>'.repeat(1_000_000))],
      [
        'maxAttributesPerElement',
        withExtension(`<x ${Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`),
      ],
      ['maxDepth', withExtension('<x>'.repeat(100_000) + '</x>'.repeat(100_000))],
      ['maxTextLength', withExtension('x'.repeat(10_000_001))],
    ];
    for (const [limit, body] of cases) {
      for (const path of ['/api/validate/ubl', '/api/documents/ubl']) {
        const res = await post(path, body);
        expect(res.status, `${path} ${limit}`).to.equal(422);
        expect(res.body.detail).to.have.length(1);
        expect(res.body.detail[0]).to.include({ type: 'limit_exceeded' });
        expect(res.body.detail[0].loc).to.deep.equal(['body']);
        expect(res.body.detail[0].msg).to.include(`limit ${limit} =`);
      }
    }
    expect(await t.service.eventStore.headPosition()).to.equal(before);
  });

  it('answers invalid UTF-8 with 422 and the byte offset', async () => {
    const good = Buffer.from(ubl);
    const at = good.indexOf('<cbc:ID>') + 8;
    const bad = Buffer.concat([good.subarray(0, at), Buffer.from([0xc3, 0x28]), good.subarray(at)]);
    for (const path of ['/api/validate/ubl', '/api/documents/ubl']) {
      const res = await post(path, bad);
      expect(res.status, path).to.equal(422);
      expect(res.body.detail).to.deep.equal([
        { loc: ['body'], msg: `Invalid UTF-8 byte sequence at byte ${at}`, type: 'encoding_error' },
      ]);
    }
  });

  it('takes UTF-16 (raw body without charset, and multipart) as the same document, stored as UTF-8 text', async () => {
    const declared = ubl.replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const le = Buffer.from(`\ufeff${declared}`, 'utf16le');
    const be = Buffer.from(Buffer.from(declared, 'utf16le')).swap16();
    const reference = (await post('/api/validate/ubl', ubl)).body;
    for (const bytes of [le, be]) {
      const validated = (await post('/api/validate/ubl', bytes)).body;
      expect(validated.is_valid).to.equal(reference.is_valid);
      expect(validated.issues).to.deep.equal(reference.issues);
      const multipart = await t.http.post('/api/validate/ubl').set(bearer(tenant.key)).attach('file', bytes, 'in.xml');
      expect(multipart.body.issues).to.deep.equal(reference.issues);
      const created = await post('/api/documents/ubl', bytes);
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const stored = await t.http.get(`/api/documents/${created.body.id}/ubl?format=xml`).set(bearer(tenant.key));
      expect(stored.text).to.equal(ubl);
    }
  });

  it('answers characters XML 1.0 cannot carry with 400 (malformed XML), never 500', async () => {
    for (const bad of ['&#0;', '&#xD800;', '\u0000']) {
      for (const path of ['/api/validate/ubl', '/api/documents/ubl']) {
        const res = await post(path, withExtension(bad));
        expect(res.status, `${path} ${JSON.stringify(bad)}`).to.equal(400);
        expect(String(res.body.detail)).to.match(/malformed XML/);
      }
    }
  });

  it('answers 413 for a document over maxBytes that the upload limit let through: UTF-16 counts as its UTF-8 size', async () => {
    // 7.2 M CJK characters: 14.4 MB in UTF-16 (under the 20 MiB upload limit), 21.6 MB in UTF-8.
    const text = withExtension('東'.repeat(7_200_000)).replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const res = await post('/api/validate/ubl', Buffer.from(`\ufeff${text}`, 'utf16le'));
    expect(res.status).to.equal(413);
    expect(String(res.body.detail)).to.include('limit maxBytes = 20971520');
  });

  const HOSTILE = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

  it('never answers 500 for prototype names as any string field of a JSON document', async () => {
    const base = invoice();
    const paths: Array<Array<string | number>> = [];
    const walk = (v: unknown, p: Array<string | number>) => {
      if (typeof v === 'string') paths.push(p);
      else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
    };
    walk(base, []);
    for (const value of HOSTILE) {
      for (const p of paths) {
        const doc = structuredClone(base);
        let o = doc as Record<string | number, unknown>;
        for (const k of p.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
        o[p.at(-1)!] = value;
        for (const route of ['/api/validate/json', '/api/documents']) {
          const res = await t.http.post(route).set(bearer(tenant.key)).send(doc);
          expect(res.status, `${route} ${p.join('.')}=${value}`).to.be.oneOf([200, 422]);
        }
      }
    }
  });

  it('never answers 500 for prototype names as codes, attributes and prefixes in UBL', async () => {
    for (const value of HOSTILE) {
      const variants = [
        ubl.replace(/<cbc:IdentificationCode>[^<]*</g, `<cbc:IdentificationCode>${value}<`),
        ubl.replace(/unitCode="[^"]*"/g, `unitCode="${value}"`),
        ubl.replace(/currencyID="[^"]*"/g, `currencyID="${value}"`),
        ubl.replace(/<cbc:DocumentCurrencyCode>[^<]*</, `<cbc:DocumentCurrencyCode>${value}<`),
        ubl.replace(/<cbc:ID>S</g, `<cbc:ID>${value}<`),
        ubl.replace(/<cbc:InvoiceTypeCode>[^<]*</, `<cbc:InvoiceTypeCode>${value}<`),
        ubl.replace(/<cbc:PaymentMeansCode>[^<]*</g, `<cbc:PaymentMeansCode>${value}<`),
        ubl.replace(/schemeID="[^"]*"/g, `schemeID="${value}"`),
        withExtension(`<x ${value}="1" xmlns:${value}="${value}"><${value}:y/></x>`),
      ];
      for (const body of variants) {
        for (const path of ['/api/validate/ubl', '/api/documents/ubl']) {
          const res = await post(path, body);
          expect(res.status, `${path} ${value}`).to.be.oneOf([200, 422]);
        }
      }
    }
  });
});
