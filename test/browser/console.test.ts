import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { describeRequiring } from '../support/helperServer.js';
import {
  BUYER_VAT,
  SELLER_VAT,
  chromiumBinary,
  shot,
  signIn as signInAt,
  signOut,
  startConsoleWorld,
  type ConsoleWorld,
} from '../support/console.js';
import { api, type ServiceProcess } from '../support/serviceProcess.js';

const NUMBER = 'ACME-2026-0042';

const target = chromiumBinary();

/**
 * The web console in a real browser against the real service process: the seller creates an
 * invoice (seeing a rule's message next to its field first), sends it; the buyer finds it in the
 * inbox and accepts it with a note. Screenshots at desktop and phone widths go to SCREENSHOTS (test/support/console.ts).
 */
describeRequiring('Web console in chromium (create, send, receive, accept)', 'chromium', target, () => {
  let world: ConsoleWorld;
  let service: ServiceProcess;
  let browser: ConsoleWorld['browser'];
  let operatorKey: string;
  let adminKey: string;
  let sellerKey: string;
  let buyerKey: string;

  before(async function () {
    this.timeout(180_000);
    world = await startConsoleWorld((target as { bin: string }).bin);
    ({ service, browser, operatorKey, adminKey } = world);
    sellerKey = world.seller.key;
    buyerKey = world.buyer.key;
  });

  after(async () => {
    await world?.stop();
  });

  const signIn = (page: Page, key: string) => signInAt(page, service.baseUrl, key);

  it('the seller creates an invoice with live validation and sends it; the buyer accepts it with a note', async function () {
    this.timeout(240_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${service.baseUrl}/app/`);
      await shot(page, 'sign-in');
      await signIn(page, sellerKey);
      await page.getByRole('heading', { name: 'Outbox' }).waitFor();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New invoice' }).click();
      await page.getByRole('heading', { name: 'New invoice' }).waitFor();
      // A required field left empty: the API's rule message appears next to it.
      const vendorName = page.locator('#inv-vendor_name');
      await vendorName.fill('');
      await vendorName.blur();
      const vendorError = page.locator('#vendor_name-errors');
      await vendorError.waitFor();
      expect(await vendorError.innerText()).to.match(/required|missing/i);
      expect(await vendorName.getAttribute('aria-invalid')).to.equal('true');
      await page.locator('#inv-invoice_id').fill(NUMBER);
      await page.locator('#inv-customer_name').fill('Brouwerij De Zwaan NV');
      await page.locator('#line-0-description').fill('Strategy workshop');
      await page.locator('#line-0-unit_price').fill('1250.00');
      await page.locator('#line-0-unit_price').blur();
      // The check of the latest input: what was filled in has no message, the empty name still has one.
      await page.locator('#invoice_id-errors').waitFor({ state: 'detached' });
      await page.locator('#customer_name-errors').waitFor({ state: 'detached' });
      await page.locator('.validity .chip-danger').waitFor();
      expect(await page.locator('#vendor_name-errors').innerText()).to.match(/required|missing/i);
      await shot(page, 'new-invoice-validation');

      await vendorName.fill('Acme Solutions BV');
      await page.locator('#inv-vendor_tax_id').fill(SELLER_VAT);
      await page.locator('#inv-vendor_address').fill('Rue de la Loi 16, 1000 Brussels, Belgium');
      await page.locator('#inv-iban').fill('BE68 5390 0754 7034');
      await page.locator('#inv-customer_tax_id').fill(BUYER_VAT);
      await page.locator('#inv-customer_address').fill('Meir 1, 2000 Antwerpen, Belgium');
      await page.locator('#inv-purchase_order').fill('PO-4471');
      await page.locator('#line-0-quantity').fill('2');
      await page.locator('#line-0-unit').selectOption('DAY');
      await page.getByRole('button', { name: 'Add line' }).click();
      await page.locator('#line-1-description').fill('Travel time');
      await page.locator('#line-1-quantity').fill('3.5');
      await page.locator('#line-1-unit').selectOption('HUR');
      await page.locator('#line-1-unit_price').fill('85.00');
      await page.getByText('Ready to send').waitFor();
      expect(await page.locator('#vendor_name-errors').count()).to.equal(0);
      await shot(page, 'new-invoice-valid');

      await page.getByRole('button', { name: 'Save and send' }).click();
      await page.getByRole('heading', { name: new RegExp(NUMBER) }).waitFor();
      // Delivered to the buyer's inbox on this instance: the timeline shows it.
      await page
        .getByRole('list', { name: 'Transmission report' })
        .getByText('Delivered', { exact: true })
        .waitFor({ timeout: 60_000 });
      await page.locator('.head-status').getByText('SENT', { exact: true }).waitFor();
      expect(await page.locator('.head-status').innerText()).to.contain('EUR 3,384.98');
      await page.locator('iframe.pdf').waitFor();
      await shot(page, 'invoice-sent');

      await page.getByRole('link', { name: /Back to outbox/ }).click();
      await page.getByRole('link', { name: NUMBER }).waitFor();
      await shot(page, 'outbox');

      await signOut(page);
      await signIn(page, buyerKey);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      await page.getByRole('link', { name: NUMBER }).waitFor();
      await shot(page, 'inbox');
      await page.getByRole('link', { name: NUMBER }).click();
      await page.getByLabel('Note (optional)').fill('Approved for payment, cost centre 4100');
      await page.getByRole('button', { name: 'Accept', exact: true }).click();
      await page.getByText('Accepted. The supplier has been told.').waitFor();
      await page.locator('.head-status').getByText('accepted', { exact: true }).waitFor();
      await page.getByRole('list', { name: 'Transmission report' }).getByText('Accepted by the buyer').waitFor();
      await page.locator('iframe.pdf').waitFor();
      await shot(page, 'inbox-accepted');
    } finally {
      await context.close();
    }

    // What the console did, as the API sees it.
    const inbox = await api(service.baseUrl, 'GET', `/api/inbox/?search=${NUMBER}`, buyerKey);
    expect(inbox.body.total).to.equal(1);
    const received = inbox.body.items[0];
    expect(received.invoice_total).to.equal('3384.98');
    const answered = await api(service.baseUrl, 'GET', `/api/inbox/${received.id}`, buyerKey);
    expect(answered.body.invoice_response.status).to.equal('accepted');
    expect(answered.body.invoice_response.reason).to.equal('Approved for payment, cost centre 4100');
  });

  it('works at phone width: the navigation folds into a menu, the inbox and the document fit', async function () {
    this.timeout(120_000);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    try {
      await signIn(page, buyerKey);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await page.getByRole('heading', { name: 'Outbox' }).waitFor();
      expect(await nav.isVisible()).to.equal(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await nav.isVisible()).to.equal(true);
      await shot(page, 'phone-menu');
      await nav.getByRole('link', { name: 'Inbox' }).click();
      await page.getByRole('link', { name: NUMBER }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'no sideways scrolling').to.be.at.most(0);
      await shot(page, 'phone-inbox');
      await page.getByRole('link', { name: NUMBER }).click();
      await page.getByRole('heading', { name: new RegExp(NUMBER) }).waitFor();
      await page.getByRole('list', { name: 'Transmission report' }).waitFor();
      await page.getByRole('link', { name: 'Open or download the PDF' }).waitFor();
      const documentOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(documentOverflow, 'no sideways scrolling on the document').to.be.at.most(0);
      await shot(page, 'phone-document');
    } finally {
      await context.close();
    }
  });

  it('is usable by keyboard: sign in and move through the navigation without a mouse', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${service.baseUrl}/app/`);
      await page.getByLabel('API key').focus();
      await page.keyboard.type(sellerKey);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Outbox' }).waitFor();
      const drafts = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Drafts' });
      await drafts.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Drafts' }).waitFor();
      expect(await drafts.getAttribute('aria-current')).to.equal('page');
      // Sorting by a column is a button in its header, reachable by keyboard.
      const sortTotal = page.getByRole('button', { name: /Total/ });
      await sortTotal.focus();
      await page.keyboard.press('Enter');
      expect(await page.locator('th[aria-sort="descending"]').innerText()).to.match(/total/i);
    } finally {
      await context.close();
    }
  });

  it('the operator pages: an organization key manages tenants and their Peppol registration', async function () {
    this.timeout(60_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await signIn(page, adminKey);
      await page.getByRole('heading', { name: 'Operator' }).waitFor();
      await page.getByText('acme-solutions').waitFor();
      await page.getByText('brouwerij-de-zwaan').waitFor();
      await page.getByRole('button', { name: 'Manage' }).first().click();
      await page
        .getByText('not registered')
        .or(page.getByText(/active|registered/i).first())
        .first()
        .waitFor();
      await shot(page, 'operator-tenants');
      await signOut(page);

      await signIn(page, operatorKey);
      await page.getByLabel('Name', { exact: true }).fill('Second reseller');
      await page.getByRole('button', { name: 'Create organization' }).click();
      const notice = page.getByText(/Organization Second reseller created/);
      await notice.waitFor();
      const key = (await notice.locator('code').innerText()).trim();
      expect((await api(service.baseUrl, 'GET', '/api/admin/tenants', key, undefined)).status).to.equal(200);
      await shot(page, 'operator-organizations');
    } finally {
      await context.close();
    }
  });
});
