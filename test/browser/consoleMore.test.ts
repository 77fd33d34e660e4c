import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describeRequiring } from '../support/helperServer.js';
import {
  BUYER_PEPPOL,
  BUYER_VAT,
  SELLER_PEPPOL,
  SELLER_VAT,
  chromiumBinary,
  shot,
  signIn as signInAt,
  signOut,
  startConsoleWorld,
  type ConsoleTenant,
  type ConsoleWorld,
} from '../support/console.js';
import { pdfFixture } from '../support/pdfFiles.js';
import { api } from '../support/serviceProcess.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const target = chromiumBinary();

/** A create-request body for an invoice from the seller to the buyer. */
const invoice = (number: string) => ({
  invoice_id: number,
  invoice_date: '2026-11-20',
  due_date: '2026-12-20',
  currency: 'EUR',
  vendor_name: 'Acme Solutions BV',
  vendor_tax_id: SELLER_VAT,
  vendor_address: 'Rue de la Loi 16, 1000 Brussels, Belgium',
  customer_name: 'Brouwerij De Zwaan NV',
  customer_tax_id: BUYER_VAT,
  customer_address: 'Meir 1, 2000 Antwerpen, Belgium',
  customer_peppol_id: BUYER_PEPPOL,
  payment_details: [{ iban: 'BE68539007547034' }],
  items: [{ description: 'Strategy workshop', quantity: '2', unit: 'DAY', unit_price: '1250.00', tax_rate: '21.00' }],
});

/**
 * The rest of the web console in a real browser against the real service process: uploads becoming
 * drafts, rejecting a received invoice (and the seller seeing why), webhooks (subscribe, send a test,
 * the delivery history, against a real receiver), test mode and Peppol registration by the operator.
 */
describeRequiring('Web console in chromium (upload, reject, webhooks, test mode, Peppol)', 'chromium', target, () => {
  let world: ConsoleWorld;
  let receiver: WebhookReceiver;
  let files: string;

  before(async function () {
    this.timeout(180_000);
    files = await mkdtemp(path.join(os.tmpdir(), 'invoicing-console-files-'));
    receiver = await startWebhookReceiver();
    world = await startConsoleWorld((target as { bin: string }).bin, {
      env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
  });

  after(async () => {
    await world?.stop();
    await receiver?.stop();
    if (files) await rm(files, { recursive: true, force: true });
  });

  const signIn = (page: Page, key: string) => signInAt(page, world.service.baseUrl, key);
  const call = (method: string, route: string, key: string, body?: unknown) =>
    api(world.service.baseUrl, method, route, key, body);

  async function withPage(run: (page: Page) => Promise<void>) {
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await run(page);
    } finally {
      await context.close();
    }
  }

  /** The seller sends an invoice over the API; resolves once it is in the buyer's inbox. */
  async function sendToBuyer(number: string): Promise<{ sent: string; received: string }> {
    const created = await call('POST', '/api/documents/', world.seller.key, invoice(number));
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const sent = await call('POST', `/api/documents/${created.body.id}/send`, world.seller.key);
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    for (;;) {
      const inbox = await call('GET', `/api/inbox/?search=${number}`, world.buyer.key);
      if (inbox.body.total === 1) return { sent: created.body.id, received: inbox.body.items[0].id };
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('uploads a UBL file and a PDF file, each becoming a draft shown with its number', async function () {
    this.timeout(180_000);
    // The UBL of an invoice made over the API, as a file on disk.
    const source = await call('POST', '/api/documents/', world.seller.key, invoice('UBL-UP-0007'));
    expect(source.status, JSON.stringify(source.body)).to.equal(200);
    const xml = await fetch(`${world.service.baseUrl}/api/documents/${source.body.id}/ubl?format=xml`, {
      headers: { authorization: `Bearer ${world.seller.key}` },
    });
    expect(xml.status).to.equal(200);
    const ublFile = path.join(files, 'UBL-UP-0007.xml');
    await writeFile(ublFile, (await xml.text()).replace(/UBL-UP-0007/g, 'UBL-UP-0008'));
    const pdfFile = path.join(files, 'invoice.pdf');
    await writeFile(pdfFile, await pdfFixture('lo-en-invoice.pdf'));

    await withPage(async (page) => {
      await signIn(page, world.seller.key);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New invoice' }).click();
      const upload = page.getByRole('form', { name: 'Or upload a file' });
      await page.getByLabel('UBL or PDF file').setInputFiles(ublFile);
      await upload.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('heading', { name: /UBL-UP-0008/ }).waitFor();
      await page.locator('.head-status').getByText('DRAFT', { exact: true }).waitFor();
      const ublDraft = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New invoice' }).click();
      await page.getByLabel('UBL or PDF file').setInputFiles(pdfFile);
      await page.getByRole('form', { name: 'Or upload a file' }).getByRole('button', { name: 'Upload' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/app/documents/') && !url.pathname.endsWith(ublDraft));
      await page.locator('.head-status').getByText('DRAFT', { exact: true }).waitFor();
      const pdfDraft = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

      // Both are drafts of the seller, as the API sees them.
      const ubl = await call('GET', `/api/documents/${ublDraft}`, world.seller.key);
      expect(ubl.body.state).to.equal('DRAFT');
      expect(ubl.body.invoice_id).to.equal('UBL-UP-0008');
      expect(ubl.body.invoice_total).to.equal('3025.00');
      const pdf = await call('GET', `/api/documents/${pdfDraft}`, world.seller.key);
      expect(pdf.body.state).to.equal('DRAFT');
      expect(pdf.body.invoice_id, 'the number read from the PDF').to.be.a('string').and.not.equal('');
      await page.getByRole('heading', { name: new RegExp(pdf.body.invoice_id) }).waitFor();
    });
  });

  it('says before Send is pressed that a draft of another seller cannot be sent from this account, and disables Send', async function () {
    this.timeout(180_000);
    // An invoice the buyer issues (its own id as the seller's electronic address), as a file.
    const foreign = await call('POST', '/api/documents/', world.buyer.key, {
      ...invoice('NOT-MINE-0001'),
      vendor_name: 'Brouwerij De Zwaan NV',
      vendor_tax_id: BUYER_VAT,
      customer_name: 'Acme Solutions BV',
      customer_tax_id: SELLER_VAT,
      customer_peppol_id: SELLER_PEPPOL,
    });
    expect(foreign.status, JSON.stringify(foreign.body)).to.equal(200);
    const xml = await fetch(`${world.service.baseUrl}/api/documents/${foreign.body.id}/ubl?format=xml`, {
      headers: { authorization: `Bearer ${world.buyer.key}` },
    });
    const file = path.join(files, 'NOT-MINE-0001.xml');
    await writeFile(file, await xml.text());

    await withPage(async (page) => {
      await signIn(page, world.seller.key);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New invoice' }).click();
      await page.getByLabel('UBL or PDF file').setInputFiles(file);
      await page.getByRole('form', { name: 'Or upload a file' }).getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('heading', { name: /NOT-MINE-0001/ }).waitFor();
      const draft = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
      const note = page.getByRole('note');
      await note.getByText('This document cannot be sent from this account.').waitFor();
      expect(await note.textContent())
        .to.contain(`issued by ${BUYER_PEPPOL}`)
        .and.contain(SELLER_PEPPOL);
      const send = page.getByRole('button', { name: 'Send', exact: true });
      expect(await send.isDisabled()).to.equal(true);
      expect(await send.getAttribute('aria-describedby')).to.equal('send-blocked');
      await shot(page, 'draft-cannot-send');

      // Where drafts are listed: the state, that it cannot be sent, and why in a line.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Drafts' }).click();
      const row = page.getByRole('row', { name: /NOT-MINE-0001/ });
      await row.getByText('Cannot be sent').waitFor();
      expect(await row.textContent()).to.contain(`Issued by ${BUYER_PEPPOL}: this account sends as ${SELLER_PEPPOL}`);
      // The seller's own draft next to it has no such line.
      const own = await call('POST', '/api/documents/', world.seller.key, invoice('MINE-0001'));
      expect(own.body.send_blocked).to.equal(null);
      await page.reload();
      await page
        .getByRole('row', { name: /MINE-0001/ })
        .first()
        .waitFor();
      expect(
        await page
          .getByRole('row', { name: /^MINE-0001/ })
          .getByText('Cannot be sent')
          .count(),
      ).to.equal(0);

      // The API refuses the send the console did not offer, and nothing changed.
      const refused = await call('POST', `/api/documents/${draft}/send`, world.seller.key);
      expect(refused.status).to.equal(422);
      expect((await call('GET', `/api/documents/${draft}`, world.seller.key)).body.state).to.equal('DRAFT');
    });
  });

  it('the buyer rejects a received invoice with a reason; the seller sees the rejection and the reason', async function () {
    this.timeout(180_000);
    const number = 'ACME-2026-0100';
    const { sent, received } = await sendToBuyer(number);
    const reason = 'Wrong purchase order: we ordered one workshop day';
    await withPage(async (page) => {
      await signIn(page, world.buyer.key);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
      await page.getByRole('link', { name: number }).click();
      const reject = page.getByRole('button', { name: 'Reject', exact: true });
      expect(await reject.isDisabled(), 'no rejection without a reason').to.equal(true);
      // By keyboard: type the reason, tab to the button, press Enter.
      await page.getByLabel('Reason for rejecting').focus();
      await page.keyboard.type(reason);
      await page.keyboard.press('Tab');
      expect(await reject.evaluate((el) => el === document.activeElement), 'Reject is next in tab order').to.equal(
        true,
      );
      await page.keyboard.press('Enter');
      await page.getByText('Rejected. The supplier has been told why.').waitFor();
      await page.locator('.head-status').getByText('rejected', { exact: true }).waitFor();
      await shot(page, 'inbox-rejected');
      await signOut(page);

      await signIn(page, world.seller.key);
      await page.getByRole('heading', { name: 'Outbox' }).waitFor();
      await page.getByRole('link', { name: number }).click();
      const report = page.getByRole('list', { name: 'Transmission report' });
      await report.getByText('Rejected by the buyer').waitFor();
      await report.getByText(reason).waitFor();
    });
    const answered = await call('GET', `/api/inbox/${received}`, world.buyer.key);
    expect(answered.body.invoice_response.status).to.equal('rejected');
    expect(answered.body.invoice_response.reason).to.equal(reason);
    const report = await call('GET', `/api/documents/${sent}/transmission-report`, world.seller.key);
    expect(report.body.response.code).to.equal('RE');
  });

  it('webhooks: subscribes, sends a test to a real receiver and shows the outcome, then the delivery history', async function () {
    this.timeout(180_000);
    receiver.answer('/hooks/down', 503);
    await withPage(async (page) => {
      await signIn(page, world.seller.key);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
      await page.getByText('No subscriptions yet.').waitFor();

      for (const hook of ['/hooks/erp', '/hooks/down']) {
        // Enter in the URL field subscribes.
        await page.getByLabel('URL').fill(receiver.url(hook));
        await page.getByLabel('URL').press('Enter');
        await page.getByText(`Subscribed ${receiver.url(hook)}.`).waitFor();
      }
      const card = (hook: string) => page.locator('.card').filter({ hasText: receiver.url(hook) });

      // A test to the receiver that answers 200, then to the one that answers 503.
      await card('/hooks/erp').getByRole('button', { name: 'History' }).click();
      await card('/hooks/erp').getByRole('button', { name: 'Send test' }).click();
      await card('/hooks/erp')
        .getByRole('status')
        .getByText(/^Test event delivered: HTTP 200/)
        .waitFor();
      expect(receiver.calls.filter((c) => c.path === '/hooks/erp').map((c) => JSON.parse(c.body).type)).to.deep.equal([
        'webhook.test',
      ]);
      await card('/hooks/down').getByRole('button', { name: 'History' }).click();
      await card('/hooks/down').getByRole('button', { name: 'Send test' }).click();
      await card('/hooks/down')
        .getByRole('alert')
        .getByText(/^Test event not delivered: HTTP 503/)
        .waitFor();
      expect(receiver.calls.filter((c) => c.path === '/hooks/down')).to.have.length(1);
      // One history open at a time: the first subscription's again.
      await card('/hooks/erp').getByRole('button', { name: 'History' }).click();
      expect(await card('/hooks/down').getByRole('button', { name: 'Send test' }).count()).to.equal(0);

      // A real notification: an invoice sent; the history shows it delivered.
      await sendToBuyer('ACME-2026-0200');
      const erp = card('/hooks/erp');
      const row = erp.getByRole('row').filter({ hasText: 'document.sent' });
      // Until the call is recorded as answered (the status is shown in capitals).
      for (;;) {
        await erp.getByRole('button', { name: 'Refresh' }).click();
        if ((await row.count()) > 0 && /delivered/i.test(await row.innerText())) break;
        await page.waitForTimeout(250);
      }
      expect(await row.innerText()).to.match(/1 · HTTP 200/);
      const notified = receiver.calls.filter((c) => c.path === '/hooks/erp').map((c) => JSON.parse(c.body).type);
      expect(notified).to.include('document.sent');
      await shot(page, 'webhooks');
    });
    const hooks = await call('GET', '/api/webhooks', world.seller.key);
    expect(hooks.body.map((h: { url: string }) => h.url).sort()).to.deep.equal(
      [receiver.url('/hooks/down'), receiver.url('/hooks/erp')].sort(),
    );
  });

  it('the operator turns test mode on (the 422 naming the e-mail address first) and off again', async function () {
    this.timeout(120_000);
    const tenant = world.seller;
    await withPage(async (page) => {
      await signIn(page, world.operatorKey);
      await page.getByRole('heading', { name: 'Operator' }).waitFor();
      await page.getByLabel('Tenant id').fill(tenant.id);
      await page.getByRole('button', { name: 'Look up' }).click();
      const section = page.getByRole('form', { name: 'Test mode' });
      await section.getByText('live', { exact: true }).waitFor();
      await page.getByLabel('Test-mode e-mail address').fill('');
      await page.getByRole('button', { name: 'Turn test mode on' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText())
        .to.match(/e-?mail/i)
        .and.match(/422/);
      expect((await call('GET', `/api/operator/tenants/${tenant.id}`, world.operatorKey)).body.test_mode).to.equal(
        false,
      );

      await page.getByLabel('Test-mode e-mail address').fill('invoices-test@acme.example');
      await page.getByRole('button', { name: 'Turn test mode on' }).click();
      await section.getByText('test mode on', { exact: true }).waitFor();
      expect(await alert.count(), 'the earlier error is gone').to.equal(0);
      const on = await call('GET', `/api/operator/tenants/${tenant.id}`, world.operatorKey);
      expect(on.body.test_mode).to.equal(true);
      expect(on.body.test_mode_email).to.equal('invoices-test@acme.example');
      await shot(page, 'operator-test-mode');

      await page.getByRole('button', { name: 'Turn test mode off' }).click();
      await section.getByText('live', { exact: true }).waitFor();
      expect((await call('GET', `/api/operator/tenants/${tenant.id}`, world.operatorKey)).body.test_mode).to.equal(
        false,
      );
    });
  });

  it("an organization registers a tenant on Peppol from the console, and the tenant's status shows it", async function () {
    this.timeout(120_000);
    const peppolId = '0208:0202239951';
    const fresh: ConsoleTenant = await world.tenant({
      name: 'kaasmakerij-vermeulen',
      description: 'Kaasmakerij Vermeulen BV',
      company_tax_id: 'BE0202239951',
      peppol_ids: [peppolId],
    });
    await withPage(async (page) => {
      await signIn(page, world.adminKey);
      await page.getByRole('heading', { name: 'Operator' }).waitFor();
      const card = page.locator('.card').filter({ hasText: 'kaasmakerij-vermeulen' });
      await card.getByRole('button', { name: 'Manage' }).click();
      const row = card.getByRole('form', { name: 'Peppol registration' });
      await row.getByText('not registered').waitFor();
      // The Peppol id the tenant was made with is filled in.
      await row.locator(`input[value="${peppolId}"]`).waitFor();
      expect(await row.getByLabel('Peppol id').inputValue()).to.equal(peppolId);
      await row.getByLabel('Company name (optional)').fill('Kaasmakerij Vermeulen BV');
      await row.getByRole('button', { name: 'Register' }).click();
      await row.getByRole('button', { name: 'Unregister' }).waitFor();
      expect(await row.innerText()).to.contain(peppolId);
      expect(await card.getByRole('button', { name: 'Manage' }).count(), 'Manage became Close').to.equal(0);
    });
    const status = await call('GET', `/api/admin/tenants/${fresh.id}/peppol/status`, world.adminKey);
    expect(status.body.registered).to.equal(true);
    expect(status.body.peppol_id).to.equal(peppolId);
  });
});
