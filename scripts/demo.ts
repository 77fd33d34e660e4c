/**
 * The README's first-invoice walkthrough as a script, against a running instance:
 *   OPERATOR_KEY=… npm run demo
 * DEMO_URL (default http://localhost:8080) is the instance; it starts nothing itself. Every run
 * uses fresh names, invoice number and Peppol ids, so it can run again and again on one instance.
 * DEMO_OUT (default: the system's temporary folder) is where the received invoice's PDF is saved.
 * Exits 1 with the failing step's answer when a step does not do what it should.
 */
import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const base = (process.env.DEMO_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
const operatorKey = process.env.OPERATOR_KEY;
const outDir = process.env.DEMO_OUT ?? os.tmpdir();

class StepFailed extends Error {}

let stepNo = 0;
function step(title: string): void {
  stepNo += 1;
  console.log(`\n${stepNo}. ${title}`);
}
function say(line: string): void {
  console.log(`   ${line}`);
}

async function call(
  method: string,
  route: string,
  key: string,
  body?: unknown,
  expected = [200, 201],
): Promise<{ status: number; bytes: Buffer; json: () => Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(`${base}${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new StepFailed(`${method} ${route}: no answer from ${base} (${(error as Error).message}); is it running?`);
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!expected.includes(res.status))
    throw new StepFailed(`${method} ${route} answered ${res.status}: ${bytes.toString('utf8').slice(0, 2000)}`);
  return { status: res.status, bytes, json: () => JSON.parse(bytes.toString('utf8')) as Record<string, unknown> };
}

/** A valid Belgian enterprise number (0208 scheme): 8 digits and 97 minus their remainder by 97. */
function enterpriseNumber(): string {
  const base8 = `0${randomInt(1_000_000, 10_000_000)}`;
  return `${base8}${String(97 - (Number(base8) % 97)).padStart(2, '0')}`;
}

async function main(): Promise<void> {
  if (!operatorKey) {
    console.error('Set OPERATOR_KEY to the operator key of the instance (the first `npm start` printed it).');
    process.exit(2);
  }
  const run = new Date().toISOString().replace(/\D/g, '').slice(0, 17);
  const seller = { number: enterpriseNumber(), name: 'Acme Solutions BV' };
  const buyer = { number: enterpriseNumber(), name: 'Brouwerij De Zwaan NV' };
  const sellerPeppol = `0208:${seller.number}`;
  const buyerPeppol = `0208:${buyer.number}`;
  const invoiceNumber = `DEMO-${run}`;
  console.log(`Demo against ${base}`);

  step('Operator: create a reseller organization');
  const org = (await call('POST', '/api/operator/organizations', operatorKey, { name: `Demo reseller ${run}` })).json();
  const adminKey = (org.admin_key as { key: string }).key;
  say(`organization ${String(org.id)}, admin key ${adminKey.slice(0, 12)}…`);

  step('Reseller: create two tenants (seller and buyer) with Peppol ids, and an API key for each');
  const tenant = async (name: string, peppolId: string) => {
    const created = (
      await call('POST', '/api/admin/tenants', adminKey, { name: `${name}-${run}`, peppol_ids: [peppolId] })
    ).json();
    const key = (
      await call('POST', `/api/admin/tenants/${String(created.id)}/api-keys`, adminKey, { name: 'demo' })
    ).json();
    say(`${name}: tenant ${String(created.id)}, Peppol id ${peppolId}, key ${String(key.key).slice(0, 12)}…`);
    return { id: String(created.id), key: String(key.key) };
  };
  const sellerTenant = await tenant('seller', sellerPeppol);
  const buyerTenant = await tenant('buyer', buyerPeppol);

  step('Reseller: register the buyer for Peppol on this instance (delivery to it stays internal)');
  const registration = (
    await call('POST', `/api/admin/tenants/${buyerTenant.id}/peppol/register`, adminKey, {
      peppol_id: buyerPeppol,
      company_name: buyer.name,
    })
  ).json();
  say(`registered: ${String(registration.registered)}, status ${String(registration.status)}`);

  step(`Seller: create invoice ${invoiceNumber}`);
  const created = (
    await call('POST', '/api/documents', sellerTenant.key, {
      invoice_id: invoiceNumber,
      invoice_date: new Date().toISOString().slice(0, 10),
      due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      currency: 'EUR',
      vendor_name: seller.name,
      vendor_tax_id: `BE${seller.number}`,
      vendor_address: 'Rue de la Loi 16, 1000 Brussels, Belgium',
      customer_name: buyer.name,
      customer_tax_id: `BE${buyer.number}`,
      customer_address: 'Meir 1, 2000 Antwerpen, Belgium',
      customer_peppol_id: buyerPeppol,
      payment_details: [{ iban: 'BE68539007547034' }],
      items: [
        { description: 'Strategy workshop', quantity: 2, unit: 'DAY', unit_price: 1250, tax_rate: '21.00' },
        { description: 'Travel time', quantity: 3.5, unit: 'HUR', unit_price: 85, tax_rate: '21.00' },
      ],
    })
  ).json();
  const documentId = String(created.id);
  say(`document ${documentId}: state ${String(created.state)}, total ${String(created.invoice_total)} EUR`);

  step('Seller: validate its UBL (EN 16931 and Peppol BIS Billing 3.0)');
  const validation = (await call('POST', `/api/documents/${documentId}/validate`, sellerTenant.key)).json();
  const issues = (validation.issues as unknown[]) ?? [];
  say(`valid: ${String(validation.is_valid)}, ${issues.length} issue(s)`);
  if (validation.is_valid !== true) throw new StepFailed(`not valid: ${JSON.stringify(issues)}`);

  step('Seller: send it');
  const sent = (await call('POST', `/api/documents/${documentId}/send`, sellerTenant.key)).json();
  say(`state ${String(sent.state)}`);
  let state = String(sent.state);
  for (let i = 0; i < 120 && state === 'TRANSIT'; i++) {
    await new Promise((r) => setTimeout(r, 250));
    state = String((await call('GET', `/api/documents/${documentId}`, sellerTenant.key)).json().state);
  }
  say(`state ${state}`);
  if (state !== 'SENT') throw new StepFailed(`the document ended ${state}, not SENT`);

  step('Buyer: find it in the inbox');
  const inbox = (await call('GET', `/api/inbox?search=${encodeURIComponent(invoiceNumber)}`, buyerTenant.key)).json();
  const received = (inbox.items as Array<Record<string, unknown>>)[0];
  if (!received) throw new StepFailed(`${invoiceNumber} is not in the buyer's inbox`);
  const receivedId = String(received.id);
  say(`document ${receivedId}: state ${String(received.state)}, from ${String(received.vendor_name)}`);

  step('Buyer: accept it (an Invoice Response goes back to the seller)');
  const accepted = (
    await call('POST', `/api/inbox/${receivedId}/accept`, buyerTenant.key, { note: 'Approved for payment' })
  ).json();
  const response = accepted.invoice_response as { status?: string; code?: string } | null;
  say(`response: ${response?.status ?? 'none'} (${response?.code ?? '-'})`);

  step('Buyer: download the PDF');
  const pdf = (await call('GET', `/api/documents/${receivedId}/pdf`, buyerTenant.key)).bytes;
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new StepFailed('the answer is not a PDF');
  const file = path.resolve(outDir, `${invoiceNumber}.pdf`);
  await writeFile(file, pdf);
  say(`${pdf.length} bytes, saved to ${file}`);

  console.log(`\nDone: ${invoiceNumber} sent, received, accepted and rendered.`);
  console.log(`Open ${base}/docs for the API reference and ${base}/app for the console.`);
}

main().catch((error: unknown) => {
  console.error(`\nFailed: ${error instanceof StepFailed ? error.message : String((error as Error)?.stack ?? error)}`);
  process.exit(1);
});
