import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import EInvoice, { toFile } from 'e-invoice-api';
import { PDFDocument } from 'pdf-lib';
import { handleCommand } from '../../src/application/commandHandler.js';
import { DocumentContent } from '../../src/application/documents/documentContent.js';
import { documentDecider, documentStream } from '../../src/domain/document/lifecycle/documentAggregate.js';
import { checkDocument } from '../../src/domain/document/rules/documentCheck.js';
import { decodeDocumentInput } from '../../src/http/codecs/documentCodec.js';
import { toDocumentJson } from '../../src/domain/document/invoice/documentJson.js';
import { DEFAULT_PDF_READER_LIMITS, PdfContentReader } from '../../src/infrastructure/pdf/pdfContentReader.js';
import { rowsOfPages } from '../../src/domain/document/pdf-text/textLayout.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { embeddedFileBomb } from '../support/pdfBombs.js';
import { binary, letterPdf, pdfFixture, stripEmbeddedFiles } from '../support/pdfFiles.js';
import {
  bearer,
  createOrganization,
  createTenant,
  publicClient,
  startTestService,
  type TestService,
} from '../support/service.js';

const fixtures = realisticDocuments();
const reader = new PdfContentReader();
const UPLOAD_LIMIT = 2 * 1024 * 1024;

interface Item {
  description: string;
  quantity: string;
  unit: string | null;
  unit_price: string;
  amount: string;
  tax_rate: string | null;
}

const items = (body: { items: Item[] }) =>
  body.items.map((i) => [i.description, i.quantity, i.unit, i.unit_price, i.amount, i.tax_rate]);

describe('PDF both ways (real app, real PostgreSQL)', function () {
  this.timeout(300_000);
  let t: TestService;
  let tenant: { id: string; key: string };
  let other: { id: string; key: string };

  before(async () => {
    t = await startTestService({ uploadBodyLimit: UPLOAD_LIMIT });
    const org = await createOrganization(t);
    tenant = await createTenant(t, org.adminKey);
    other = await createTenant(t, org.adminKey);
  });
  after(async () => t?.stop());

  const upload = (pdf: Buffer, name = 'invoice.pdf', query = '') =>
    t.http
      .post(`/api/documents/pdf${query}`)
      .set(bearer(tenant.key))
      .attach('file', pdf, { filename: name, contentType: 'application/pdf' });
  const download = (path: string, key = tenant.key) => t.http.get(path).set(bearer(key)).buffer(true).parse(binary);

  describe('construct_pdf on POST /api/documents', () => {
    it('attaches the rendering, embeds it in the UBL (mime code and file name), and the UBL still validates', async () => {
      const created = await t.http
        .post('/api/documents/?construct_pdf=true')
        .set(bearer(tenant.key))
        .send(fixtures[0]!.body);
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const pdfAttachment = created.body.attachments.find(
        (a: { file_type: string }) => a.file_type === 'application/pdf',
      );
      expect(pdfAttachment).to.include({ file_name: 'ACME-2025-0001.pdf' });
      const xml = (await t.http.get(`/api/documents/${created.body.id}/ubl?format=xml`).set(bearer(tenant.key))).text;
      expect(xml).to.include(`<cbc:ID>${pdfAttachment.id}</cbc:ID>`);
      expect(xml).to.match(
        /<cbc:EmbeddedDocumentBinaryObject mimeCode="application\/pdf" filename="ACME-2025-0001\.pdf">JVBERi0/,
      );
      const validation = await t.http.post(`/api/documents/${created.body.id}/validate`).set(bearer(tenant.key));
      expect(validation.body.is_valid, JSON.stringify(validation.body.issues)).to.equal(true);

      const pdf = (await download(`/api/documents/${created.body.id}/attachments/${pdfAttachment.id}?download=true`))
        .body as Buffer;
      expect(pdf.length).to.equal(pdfAttachment.file_size);
      const content = await reader.read(pdf);
      // The PDF carries the UBL as it was before the PDF was attached (a document cannot contain itself).
      expect(content.embeddedFiles.map((f) => [f.fileName, f.mimeType])).to.deep.equal([
        ['ACME-2025-0001.xml', 'application/xml'],
      ]);
      expect(content.embeddedFiles[0]!.content.toString()).to.equal(checkDocument(decodeOk(fixtures[0]!.body)).ubl);
      const text = rowsOfPages(content.pages)
        .map((r) => r.text)
        .join('\n');
      expect(text).to.include('INVOICE');
      expect(text).to.include('Number ACME-2025-0001');
      expect(text).to.include('Amount due EUR 3,384.98');
    });

    it('renders nothing and records nothing for a document that does not validate', async () => {
      const before = await t.service.eventStore.headPosition();
      const body = structuredClone(fixtures[0]!.body) as { items: Array<Record<string, unknown>> };
      body.items[0]!.amount = 1;
      const res = await t.http.post('/api/documents/?construct_pdf=true').set(bearer(tenant.key)).send(body);
      expect(res.status).to.equal(422);
      expect(await t.service.eventStore.headPosition()).to.equal(before);
      expect(
        (await t.http.post('/api/documents/?construct_pdf=maybe').set(bearer(tenant.key)).send(fixtures[0]!.body))
          .status,
      ).to.equal(422);
    });
  });

  describe('round trip: every realistic document rendered with construct_pdf, then uploaded', () => {
    for (const fixture of fixtures) {
      it(`${fixture.name}: the upload gives back the same document, with success true`, async () => {
        const created = await t.http
          .post('/api/documents/?construct_pdf=true')
          .set(bearer(tenant.key))
          .send(fixture.body);
        expect(created.status, JSON.stringify(created.body).slice(0, 500)).to.equal(200);
        const id = created.body.id as string;
        const xml = (await t.http.get(`/api/documents/${id}/ubl?format=xml`).set(bearer(tenant.key))).text;
        // The rendering is the last attachment (a fixture may bring a PDF of its own).
        const rendering = created.body.attachments.find(
          (a: { file_name: string }) => a.file_name === `${String(fixture.body.invoice_id)}.pdf`,
        );
        const pdf = (await download(`/api/documents/${id}/attachments/${rendering.id}?download=true`)).body as Buffer;

        const res = await upload(pdf, rendering.file_name);
        expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(200);
        expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
        expect(res.body.extraction).to.include({
          method: 'embedded_ubl',
          embedded_file: `${fixture.body.invoice_id}.xml`,
        });
        expect(res.body.state).to.equal('DRAFT');
        // Equivalent: the same UBL, but for the id of the PDF attachment (a new attachment of the new draft).
        const uploadedPdf = res.body.attachments.find(
          (a: { file_type: string; file_name: string }) => a.file_name === rendering.file_name,
        );
        expect(res.body.ubl_document).to.equal(
          xml.replace(`<cbc:ID>${rendering.id}</cbc:ID>`, `<cbc:ID>${uploadedPdf.id}</cbc:ID>`),
        );
        for (const k of [
          'document_type',
          'invoice_id',
          'invoice_date',
          'due_date',
          'currency',
          'vendor_name',
          'customer_name',
          'subtotal',
          'total_tax',
          'invoice_total',
          'amount_due',
          'purchase_order',
          'note',
          'payment_term',
        ]) {
          expect(res.body[k], k).to.deep.equal(created.body[k]);
        }
        // Outside the scope of VAT (category O) a UBL carries no VAT numbers (BR-O-02..04): they are not in the e-invoice.
        for (const k of ['vendor_tax_id', 'customer_tax_id'])
          expect(res.body[k], k).to.equal(created.body.tax_code === 'O' ? null : created.body[k]);
        expect(res.body.items.map((i: Item) => i.amount)).to.deep.equal(created.body.items.map((i: Item) => i.amount));
        const stored = await t.http.get(`/api/documents/${res.body.id}`).set(bearer(tenant.key));
        expect(stored.body.state).to.equal('DRAFT');
      });
    }
  });

  describe('reading our renderings from their text alone (embedded file stripped)', () => {
    for (const name of [
      'BE invoice with document allowance and charge',
      'FR credit note multi-rate in EUR',
      'BE export to the United States in USD (G)',
      'BE 500-line wholesale invoice',
    ]) {
      it(`${name}: the key fields, the lines and the totals come back, and the document validates`, async () => {
        const fixture = fixtures.find((f) => f.name === name)!;
        const created = await t.http
          .post('/api/documents/?construct_pdf=true')
          .set(bearer(tenant.key))
          .send(fixture.body);
        const rendering = created.body.attachments.find(
          (a: { file_type: string }) => a.file_type === 'application/pdf',
        );
        const pdf = await stripEmbeddedFiles(
          (await download(`/api/documents/${created.body.id}/attachments/${rendering.id}?download=true`))
            .body as Buffer,
        );
        expect((await reader.read(pdf)).embeddedFiles).to.deep.equal([]);
        const res = await upload(pdf);
        expect(res.body.extraction.method).to.equal('text');
        expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
        for (const k of [
          'document_type',
          'invoice_id',
          'invoice_date',
          'due_date',
          'currency',
          'vendor_name',
          'vendor_tax_id',
          'customer_name',
          'customer_tax_id',
          'customer_peppol_id',
          'subtotal',
          'total_tax',
          'invoice_total',
          'amount_due',
          'purchase_order',
          'note',
        ]) {
          expect(res.body[k], k).to.deep.equal(created.body[k]);
        }
        expect(items(res.body)).to.deep.equal(items(created.body));
        expect(res.body.payment_details.map((p: { iban: string }) => p.iban)).to.deep.equal(
          created.body.payment_details.map((p: { iban: string }) => p.iban),
        );
        expect(res.body.allowances.map((a: { amount: string }) => a.amount)).to.deep.equal(
          created.body.allowances.map((a: { amount: string }) => a.amount),
        );
        expect(res.body.charges.map((a: { amount: string }) => a.amount)).to.deep.equal(
          created.body.charges.map((a: { amount: string }) => a.amount),
        );
      });
    }
  });

  describe('GET /api/documents/{id}/pdf', () => {
    it('renders a stored document on demand, with its UBL embedded; another tenant gets 404', async () => {
      const created = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(fixtures[1]!.body);
      const res = await download(`/api/documents/${created.body.id}/pdf`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/pdf/);
      expect(res.headers['content-disposition']).to.equal('inline; filename="LDP-7781.pdf"');
      const content = await reader.read(res.body as Buffer);
      const xml = (await t.http.get(`/api/documents/${created.body.id}/ubl?format=xml`).set(bearer(tenant.key))).text;
      expect(content.embeddedFiles.map((f) => f.content.toString())).to.deep.equal([xml]);
      expect(
        rowsOfPages(content.pages)
          .map((r) => r.text)
          .join('\n'),
      ).to.include('Librairie du Parc SRL');
      expect((await download(`/api/documents/${created.body.id}/pdf`, other.key)).status).to.equal(404);
      expect((await download(`/api/documents/${randomUUID()}/pdf`)).status).to.equal(404);
    });

    it('returns the rendering attached at creation (construct_pdf) byte for byte: the PDF inside the UBL the receiver gets', async () => {
      const created = await t.http
        .post('/api/documents/?construct_pdf=true')
        .set(bearer(tenant.key))
        .send(fixtures[1]!.body);
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const xml = (await t.http.get(`/api/documents/${created.body.id}/ubl?format=xml`).set(bearer(tenant.key))).text;
      const embedded =
        /<cbc:EmbeddedDocumentBinaryObject mimeCode="application\/pdf" filename="LDP-7781\.pdf">([^<]+)</.exec(
          xml,
        )![1]!;
      const res = await download(`/api/documents/${created.body.id}/pdf`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-disposition']).to.equal('inline; filename="LDP-7781.pdf"');
      expect((res.body as Buffer).equals(Buffer.from(embedded, 'base64'))).to.equal(true);
    });

    it('renders a received (inbound) document the same way', async () => {
      const received = decodeOk(fixtures[22]!.body);
      const check = checkDocument(received);
      const id = randomUUID();
      const payloads = t.service.resolve<DocumentContent>(DocumentContent);
      const document = toDocumentJson({ ...check.document, state: 'RECEIVED', direction: 'INBOUND' });
      await handleCommand(
        t.service.eventStore,
        documentDecider,
        documentStream(id),
        {
          type: 'ReceiveDocument',
          data: {
            document_id: id,
            tenant_id: tenant.id,
            ...(await payloads.storeDocument(document)),
            ubl_ref: await payloads.storeUbl(check.ubl),
            file_name: 'received.xml',
            now: new Date().toISOString(),
            message_id: randomUUID(),
            receiver_peppol_id: '0208:0123456749',
            sender: { peppol_id: '0208:0987654321', tenant_id: null, document_id: null },
          },
        },
        { tenantId: tenant.id, actor: { kind: 'unknown' } },
      );
      const res = await download(`/api/documents/${id}/pdf`);
      expect(res.status).to.equal(200);
      const content = await reader.read(res.body as Buffer);
      expect(content.embeddedFiles[0]!.content.toString()).to.equal(check.ubl);
      const text = rowsOfPages(content.pages)
        .map((r) => r.text)
        .join('\n');
      expect(text).to.include(String(fixtures[22]!.body.vendor_name));
      expect(text).to.include(`Number ${String(fixtures[22]!.body.invoice_id)}`);
    });
  });

  describe('PDFs not made by us', () => {
    it('reads the text of a PDF whose embedded XML is not an invoice, and says why that file was not used', async () => {
      const pdf = await PDFDocument.load(await pdfFixture('lo-en-invoice.pdf'));
      await pdf.attach(Buffer.from('<?xml version="1.0"?><Notes><Note>Delivered on time</Note></Notes>'), 'notes.xml', {
        mimeType: 'application/xml',
      });
      const res = await upload(Buffer.from(await pdf.save()));
      expect(res.status).to.equal(200);
      expect(res.body.extraction.method).to.equal('text');
      expect(res.body.extraction.warnings.join('\n')).to.include(
        'notes.xml: not a UBL or CII invoice (root element Notes)',
      );
    });

    it('Factur-X EN 16931 (German seller, factur-x.xml): read exactly from the CII', async () => {
      const res = await upload(await pdfFixture('facturx-en16931-de.pdf'));
      expect(res.body.extraction).to.include({ method: 'embedded_cii', embedded_file: 'factur-x.xml' });
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        invoice_id: 'RE-2025-00817',
        invoice_date: '2025-04-02',
        due_date: '2025-05-02',
        purchase_order: 'PO-5521',
        payment_term: '30 Tage netto',
        vendor_name: 'Bergmann Werkzeuge GmbH',
        vendor_tax_id: 'DE136695976',
        customer_name: 'Acme Solutions BV',
        customer_tax_id: 'BE0403013026',
        subtotal: '1050.80',
        total_tax: '187.68',
        invoice_total: '1238.48',
        amount_due: '1238.48',
      });
      expect(items(res.body)).to.deep.equal([
        ['Drehmomentschlüssel 40-200 Nm', '4', 'C62', '189', '756.00', '19.00'],
        ['Bitsatz 32-teilig', '10', 'C62', '24.5', '245.00', '19.00'],
        ['Fachbuch Zerspanungstechnik', '2', 'C62', '49.9', '99.80', '7.00'],
      ]);
      expect(res.body.allowances.map((a: { reason: string; amount: string }) => [a.reason, a.amount])).to.deep.equal([
        ['Treuerabatt', '50.00'],
      ]);
      expect(res.body.payment_details[0]).to.include({
        iban: 'DE89370400440532013000',
        swift: 'COBADEFFXXX',
        payment_reference: 'RE-2025-00817',
      });
      expect(res.body.ubl_document).to.include('<cbc:ID>RE-2025-00817</cbc:ID>');
    });

    it('Factur-X BASIC credit note (French seller): type, credited invoice and reason', async () => {
      const res = await upload(await pdfFixture('facturx-basic-credit-note-fr.pdf'));
      expect(res.body.extraction.method).to.equal('embedded_cii');
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        document_type: 'CREDIT_NOTE',
        invoice_id: 'AV-2025-0042',
        purchase_order: 'FA-2025-0388',
        note: 'Retour de marchandise défectueuse',
        vendor_tax_id: 'FR44732829320',
        vendor_company_id: '73282932000017',
        customer_tax_id: 'BE0712345630',
        subtotal: '88.50',
        total_tax: '15.02',
        invoice_total: '103.52',
      });
      expect(res.body.tax_details.map((x: { rate: string; amount: string }) => [x.rate, x.amount])).to.deep.equal([
        ['20.00', '14.00'],
        ['5.50', '1.02'],
      ]);
      expect(res.body.ubl_document).to.include('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    });

    it('ZUGFeRD 2 (zugferd-invoice.xml), Dutch reverse charge: category, exemption reason, units', async () => {
      const res = await upload(await pdfFixture('zugferd-reverse-charge-nl.pdf'));
      expect(res.body.extraction).to.include({ method: 'embedded_cii', embedded_file: 'zugferd-invoice.xml' });
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        tax_code: 'AE',
        vatex: 'VATEX-EU-AE',
        vatex_note: 'BTW verlegd',
        total_tax: '0.00',
        invoice_total: '5890.00',
        vendor_company_id: '32145678',
      });
      expect(res.body.items.map((i: Item) => [i.unit, i.amount])).to.deep.equal([
        ['C62', '4850.00'],
        ['HUR', '1040.00'],
      ]);
    });

    it('Factur-X MINIMUM (no lines): a draft with what was found; success false and the issues say what is missing', async () => {
      const res = await upload(await pdfFixture('facturx-minimum.pdf'));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        success: false,
        ubl_document: null,
        invoice_id: 'MIN-2025-7',
        vendor_tax_id: 'DE136695976',
        subtotal: '200.00',
        total_tax: '42.00',
        invoice_total: '242.00',
      });
      expect(res.body.items).to.deep.equal([]);
      // An embedded e-invoice is held to the EN 16931 rules: no line (BR-16), no VAT breakdown (BR-CO-18).
      // (Its lack of a due date or terms, BR-CO-25, is no rule since CEN 1.3.16.)
      expect(res.body.issues.map((i: { rule_id: string }) => i.rule_id)).to.include.members(['BR-16', 'BR-CO-18']);
      const draft = await t.http.get(`/api/documents/${res.body.id}`).set(bearer(tenant.key));
      expect(draft.body).to.include({ state: 'DRAFT', invoice_id: 'MIN-2025-7' });
      // Such a draft cannot leave until it is complete: sending it is refused and changes nothing.
      const send = await t.http
        .post(`/api/documents/${res.body.id}/send?receiver_peppol_scheme=0208&receiver_peppol_id=0451234595`)
        .set(bearer(tenant.key));
      expect(send.status).to.equal(422);
      expect(send.body.detail[0].loc).to.deep.equal(['document', 'ubl']);
      expect(send.body.detail[0].msg).to.contain('BR-16');
      expect((await t.http.get(`/api/documents/${res.body.id}`).set(bearer(tenant.key))).body.state).to.equal('DRAFT');
    });

    it('a PDF carrying a UBL from another producer (price per 10 units, line discount, invoice period)', async () => {
      const res = await upload(await pdfFixture('embedded-ubl-lu.pdf'));
      expect(res.body.extraction).to.include({ method: 'embedded_ubl', embedded_file: 'LU-2025-019.xml' });
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        invoice_id: 'LU-2025-019',
        vendor_tax_id: 'LU15027442',
        service_start_date: '2025-03-01',
        service_end_date: '2025-03-31',
        invoice_total: '1380.60',
      });
      expect(items(res.body)).to.deep.equal([
        ['Managed hosting, March 2025', '1', 'MON', '1000', '900.00', '17.00'],
        ['Backup storage (per 10 GB)', '40', 'C62', '7', '280.00', '17.00'],
      ]);
    });

    it('LibreOffice, English, "From"/"Bill to" blocks: every field from the text, checked IBAN and structured reference', async () => {
      const res = await upload(await pdfFixture('lo-en-invoice.pdf'));
      expect(res.body.extraction.method).to.equal('text');
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        invoice_id: '2025-1043',
        invoice_date: '2025-03-14',
        due_date: '2025-04-13',
        purchase_order: 'PO-88123',
        currency: 'EUR',
        vendor_name: 'Acme Solutions BV',
        vendor_tax_id: 'BE0403013026',
        vendor_email: 'billing@acme.be',
        vendor_address: 'Rue de la Loi 16\n1000 Brussels\nBelgium',
        customer_name: 'Brouwerij De Zwaan NV',
        customer_tax_id: 'BE0451234595',
        subtotal: '1234.70',
        total_tax: '259.29',
        invoice_total: '1493.99',
        amount_due: '1493.99',
      });
      expect(items(res.body)).to.deep.equal([
        // No unit is printed: none is invented (the UBL then says C62, one).
        ['Strategy workshop (full day)', '1', null, '950', '950.00', '21.00'],
        ['Follow-up calls', '3', null, '85', '255.00', '21.00'],
        ['Printed workbooks', '6', null, '4.95', '29.70', '21.00'],
      ]);
      expect(res.body.payment_details[0]).to.include({
        iban: 'BE68539007547034',
        swift: 'GEBABEBB',
        payment_reference: '+++020/2024/68165+++',
      });
    });

    it('LibreOffice, Dutch, decimal commas, units, per-rate VAT lines', async () => {
      const res = await upload(await pdfFixture('lo-nl-factuur.pdf'));
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        invoice_id: 'F2025/0312',
        invoice_date: '2025-03-14',
        due_date: '2025-04-13',
        payment_term: 'binnen 30 dagen',
        vendor_name: 'Van Dijk Installatietechniek B.V.',
        vendor_tax_id: 'NL004495445B01',
        vendor_company_id: '32145678',
        customer_name: 'Tulip Trading B.V.',
        customer_tax_id: 'NL123456782B01',
        subtotal: '550.00',
        total_tax: '97.50',
        invoice_total: '647.50',
      });
      expect(items(res.body)).to.deep.equal([
        ['Onderhoud cv-ketel', '2', 'HUR', '75', '150.00', '21.00'],
        ['Thermostaat Zigbee', '1', 'C62', '250', '250.00', '21.00'],
        ['Isolatiemateriaal (woning > 2 jaar)', '10', 'MTK', '15', '150.00', '9.00'],
      ]);
      expect(
        res.body.tax_details.map((x: { rate: string; taxable_amount: string; amount: string }) => [
          x.rate,
          x.taxable_amount,
          x.amount,
        ]),
      ).to.deep.equal([
        ['21.00', '400.00', '84.00'],
        ['9.00', '150.00', '13.50'],
      ]);
      expect(res.body.payment_details[0]).to.include({
        iban: 'NL91ABNA0417164300',
        swift: 'ABNANL2A',
        payment_reference: 'F2025/0312',
      });
    });

    it('LibreOffice, French, month names, spaces grouping thousands, a heading over two lines', async () => {
      const res = await upload(await pdfFixture('lo-fr-facture.pdf'));
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        invoice_id: 'FA-2025-0388',
        invoice_date: '2025-03-14',
        due_date: '2025-04-13',
        vendor_name: 'Atelier Dubois SARL',
        vendor_tax_id: 'FR44732829320',
        customer_name: 'Librairie du Parc SRL',
        customer_tax_id: 'BE0712345630',
        subtotal: '1645.50',
        total_tax: '329.10',
        invoice_total: '1974.60',
      });
      expect(items(res.body)).to.deep.equal([
        ["Reliure d'art, cuir pleine peau", '3', null, '420', '1260.00', '20.00'],
        ["Restauration d'ouvrage ancien", '1', null, '385.5', '385.50', '20.00'],
      ]);
      expect(res.body.payment_details[0]).to.include({ iban: 'FR1420041010050500013M02606', swift: 'PSSTFRPPPAR' });
    });

    it('LibreOffice, German, letterhead without a heading, service period, "zzgl. MwSt."', async () => {
      const res = await upload(await pdfFixture('lo-de-rechnung.pdf'));
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        invoice_id: '2025-4711',
        invoice_date: '2025-03-14',
        due_date: '2025-04-13',
        service_start_date: '2025-03-01',
        service_end_date: '2025-03-31',
        vendor_name: 'Bergmann Werkzeuge GmbH',
        vendor_tax_id: 'DE136695976',
        customer_name: 'Acme Solutions BV',
        customer_tax_id: 'BE0403013026',
        subtotal: '3050.00',
        total_tax: '579.50',
        invoice_total: '3629.50',
      });
      expect(items(res.body)).to.deep.equal([
        ['Wartung CNC-Fräse', '6', 'HUR', '95', '570.00', '19.00'],
        ['Ersatzteil Spindellager', '2', 'C62', '1240', '2480.00', '19.00'],
      ]);
      expect(res.body.payment_details[0]).to.include({
        iban: 'DE89370400440532013000',
        payment_reference: '2025-4711',
      });
    });

    it('LibreOffice, 45 lines over two pages, reverse charge without a VAT column', async () => {
      const res = await upload(await pdfFixture('lo-en-long-reverse-charge.pdf'));
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body.items).to.have.length(45);
      expect(res.body.items[44]).to.include({
        description: 'Renovation work package 45',
        quantity: '5',
        amount: '970.00',
        tax_rate: '0.00',
      });
      expect(res.body).to.include({
        tax_code: 'AE',
        subtotal: '16110.00',
        total_tax: '0.00',
        customer_tax_id: 'NL004495445B01',
      });
      expect(res.body.vatex_note).to.match(/^Reverse charge/);
    });

    it('LibreOffice, plain monospaced text credit note: columns made of spaces', async () => {
      const res = await upload(await pdfFixture('lo-txt-credit-note.pdf'));
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({
        document_type: 'CREDIT_NOTE',
        invoice_id: 'AV-2025-0051',
        invoice_date: '2025-04-18',
        purchase_order: 'FA-2025-0388',
        vendor_name: 'Atelier Dubois SARL',
        customer_name: 'Librairie du Parc SRL',
        subtotal: '120.00',
        total_tax: '24.00',
        invoice_total: '144.00',
      });
      expect(res.body.extraction.warnings).to.include('No currency is printed; EUR is assumed');
    });

    it('an encrypted PDF that opens without a password (editing restricted) is read', async () => {
      const res = await upload(await pdfFixture('encrypted-no-password-nl.pdf'));
      expect(res.body.success, JSON.stringify(res.body.issues)).to.equal(true);
      expect(res.body).to.include({ invoice_id: 'F2025/0312', invoice_total: '647.50' });
    });

    it('the hints tell the seller from the buyer on a layout without headings', async () => {
      const pdf = await pdfFixture('lo-en-letterhead.pdf');
      const asSeller = await upload(pdf, 'nc.pdf', '?vendor_tax_id=BE0451234595');
      expect(asSeller.body.success, JSON.stringify(asSeller.body.issues)).to.equal(true);
      expect(asSeller.body).to.include({
        vendor_name: 'Northsea Consulting BV',
        vendor_tax_id: 'BE0451234595',
        customer_name: 'Tulip Trading B.V.',
        customer_tax_id: 'NL123456782B01',
      });
      const swapped = await upload(pdf, 'nc.pdf', '?customer_tax_id=BE0451234595');
      expect(swapped.body).to.include({ vendor_name: 'Tulip Trading B.V.', customer_name: 'Northsea Consulting BV' });
      // The Peppol form of a Belgian number is accepted as a hint too.
      const peppolForm = await upload(pdf, 'nc.pdf', '?vendor_tax_id=0208:0451234595');
      expect(peppolForm.body.vendor_name).to.equal('Northsea Consulting BV');
    });

    it('a scanned PDF (an image, no text) is answered honestly: success false, a reason, nothing recorded', async () => {
      const before = await t.service.eventStore.headPosition();
      const res = await upload(await pdfFixture('scanned-invoice.pdf'));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ success: false, ubl_document: null });
      expect(res.body.id).to.equal(undefined);
      expect(res.body.issues.map((i: { rule_id: string }) => i.rule_id)).to.deep.equal(['PDF-NO-TEXT']);
      expect(res.body.issues[0].message).to.match(/no text layer/);
      const letter = await upload(await letterPdf());
      expect(letter.body.issues.map((i: { rule_id: string }) => i.rule_id)).to.deep.equal(['PDF-NOT-INVOICE']);
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });
  });

  describe('bad uploads: a clear 4xx, and nothing recorded', () => {
    it('refuses encrypted, corrupt, non-PDF, oversized, missing and mis-sent files, and bad hints', async () => {
      const before = await t.service.eventStore.headPosition();
      const encrypted = await upload(await pdfFixture('encrypted-password.pdf'));
      expect(encrypted.status).to.equal(422);
      expect(encrypted.body.detail).to.match(/encrypted.*password/);
      const corrupt = await upload(await pdfFixture('corrupt.pdf'));
      expect(corrupt.status).to.equal(400);
      expect(corrupt.body.detail).to.match(/damaged/);
      const notPdf = await upload(Buffer.from('<Invoice/>'), 'invoice.pdf');
      expect(notPdf.status).to.equal(415);
      expect(notPdf.body.detail).to.match(/not a PDF/);
      const png = await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'scan.png');
      expect(png.status).to.equal(415);
      const huge = await upload(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(UPLOAD_LIMIT + 1024, 0x20)]));
      expect(huge.status).to.equal(413);
      const missing = await t.http.post('/api/documents/pdf').set(bearer(tenant.key)).field('other', 'x');
      expect(missing.status).to.equal(422);
      expect(missing.body.detail[0].loc).to.deep.equal(['body', 'file']);
      const json = await t.http.post('/api/documents/pdf').set(bearer(tenant.key)).send({ file: 'x' });
      expect(json.status).to.equal(415);
      const hint = await t.http
        .post('/api/documents/pdf?vendor_tax_id=BE0403013027')
        .set(bearer(tenant.key))
        .attach('file', await pdfFixture('lo-en-invoice.pdf'), 'x.pdf');
      expect(hint.status).to.equal(422);
      expect(hint.body.detail[0].loc).to.deep.equal(['query', 'vendor_tax_id']);
      expect(
        (await t.http.post('/api/documents/pdf').attach('file', await pdfFixture('lo-en-invoice.pdf'), 'x.pdf')).status,
      ).to.equal(401);
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });

    it('refuses a decompression bomb (a 30 KB file expanding to 10 GiB) with a 413 naming the limit, and a read over its time budget with a 422', async () => {
      const before = await t.service.eventStore.headPosition();
      const bomb = await upload(await embeddedFileBomb());
      expect(bomb.status).to.equal(413);
      expect(bomb.body.detail).to.match(/expands to more than 100 MB/);
      // A service whose reader has a millisecond per file: no PDF is read that fast.
      const hurried = await startTestService({
        uploadBodyLimit: UPLOAD_LIMIT,
        pdfReader: { ...DEFAULT_PDF_READER_LIMITS, timeoutMs: 1 },
      });
      try {
        const org = await createOrganization(hurried);
        const key = (await createTenant(hurried, org.adminKey)).key;
        const slow = await hurried.http
          .post('/api/documents/pdf')
          .set(bearer(key))
          .attach('file', await pdfFixture('lo-en-long-reverse-charge.pdf'), 'x.pdf');
        expect(slow.status).to.equal(422);
        expect(slow.body.detail).to.match(/took longer than the 0.001 s an upload may take/);
      } finally {
        await hurried.stop();
      }
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });
  });

  describe('damaged files never cause a 500', () => {
    it('answers every truncation and byte corruption of real PDFs with a result or a 4xx', async () => {
      const statuses = new Set<number>();
      for (const name of ['lo-en-invoice.pdf', 'facturx-en16931-de.pdf', 'embedded-ubl-lu.pdf']) {
        const pdf = await pdfFixture(name);
        for (let i = 1; i < 10; i++) {
          const truncated = pdf.subarray(0, Math.floor((pdf.length * i) / 10));
          const damaged = Buffer.from(pdf);
          for (let j = 0; j < 12; j++)
            damaged[Math.floor((damaged.length * (j * 7 + i)) / 97) % damaged.length] = (i * 31 + j * 17) % 256;
          for (const file of [truncated, damaged]) {
            const res = await upload(file);
            expect(res.status, `${name} ${i}: ${JSON.stringify(res.body).slice(0, 200)}`).to.be.oneOf([
              200, 400, 415, 422,
            ]);
            statuses.add(res.status);
          }
        }
      }
      // Both outcomes occur: some damage is repaired (pdfjs is tolerant), some is refused.
      expect([...statuses]).to.include.members([200, 400]);
    });
  });

  describe('wire compatibility with the public e-invoice-api client', () => {
    let client: EInvoice;
    let close: () => Promise<void>;
    before(async () => {
      ({ client, close } = await publicClient(t, tenant.key));
    });
    after(() => close());

    it('documents.createFromPdf sends the file and the hints, and reads the PDF creation result', async () => {
      const file = await toFile(await pdfFixture('lo-en-letterhead.pdf'), 'nc.pdf', { type: 'application/pdf' });
      const result = await client.documents.createFromPdf({ file, vendor_tax_id: 'BE0451234595' });
      expect(result.success).to.equal(true);
      expect(result.vendor_name).to.equal('Northsea Consulting BV');
      expect(result.ubl_document).to.include('<cbc:ID>NC-118</cbc:ID>');
      expect(result.items?.[0]?.amount).to.equal('2400.00');
    });
  });
});

function decodeOk(body: Record<string, unknown>) {
  const decoded = decodeDocumentInput(body);
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors));
  return decoded.value;
}
