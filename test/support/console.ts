import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { ServerTarget } from './helperServer.js';
import { freePort } from './postgres.js';
import { repoRoot } from './repoRoot.js';
import { api, startServiceProcess, type ServiceProcess } from './serviceProcess.js';

/**
 * Where the browser suites write their screenshots: test-output/screenshots (ignored by git), so
 * that `npm test` leaves the tree clean; `npm run screenshots` sets SCREENSHOTS_DIR=docs/screenshots
 * to refresh the committed ones.
 */
export const SCREENSHOTS = path.resolve(repoRoot, process.env.SCREENSHOTS_DIR || 'test-output/screenshots');

/** Debian's chromium (`.ci/run` installs it), or CHROMIUM_PATH. */
export function chromiumBinary(): ServerTarget<{ kind: 'binary'; bin: string }> {
  const bin = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(bin)) return { kind: 'binary', bin };
  return { kind: 'none', why: `no chromium at ${bin} (apt-get install -y chromium, or set CHROMIUM_PATH)` };
}

export const SELLER_VAT = 'BE0403013026';
export const SELLER_PEPPOL = '0208:0403013026';
export const BUYER_VAT = 'BE0451234595';
export const BUYER_PEPPOL = '0208:0451234595';

export interface ConsoleTenant {
  id: string;
  key: string;
}

/** The service process with an operator key, one reseller organization, a seller and a buyer, and chromium. */
export interface ConsoleWorld {
  service: ServiceProcess;
  browser: Browser;
  operatorKey: string;
  adminKey: string;
  seller: ConsoleTenant;
  buyer: ConsoleTenant;
  /** Another tenant of the organization, with an API key. */
  tenant(body: Record<string, unknown>): Promise<ConsoleTenant>;
  stop(): Promise<void>;
}

/**
 * Starts the real service process (embedded PostgreSQL) and chromium; the seller and the buyer are
 * tenants of one organization, registered on Peppol unless `register` is false.
 */
export async function startConsoleWorld(
  bin: string,
  options: { env?: Record<string, string>; register?: boolean } = {},
): Promise<ConsoleWorld> {
  const operatorKey = 'op_console_browser_key_0123456789abcdef';
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-console-'));
  const service = await startServiceProcess(
    {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      OPERATOR_KEY: operatorKey,
      ...options.env,
    },
    await freePort(),
  );
  const org = await api(service.baseUrl, 'POST', '/api/operator/organizations', operatorKey, {
    name: 'Console reseller',
  });
  expect(org.status, JSON.stringify(org.body)).to.equal(201);
  const adminKey = org.body.admin_key.key as string;
  const tenant = async (body: Record<string, unknown>): Promise<ConsoleTenant> => {
    const created = await api(service.baseUrl, 'POST', '/api/admin/tenants', adminKey, body);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const key = await api(service.baseUrl, 'POST', `/api/admin/tenants/${created.body.id}/api-keys`, adminKey, {
      name: 'console',
    });
    expect(key.status, JSON.stringify(key.body)).to.equal(201);
    return { id: created.body.id as string, key: key.body.key as string };
  };
  const seller = await tenant({
    name: 'acme-solutions',
    description: 'Acme Solutions BV',
    company_tax_id: SELLER_VAT,
    peppol_ids: [SELLER_PEPPOL],
  });
  const buyer = await tenant({
    name: 'brouwerij-de-zwaan',
    description: 'Brouwerij De Zwaan NV',
    company_tax_id: BUYER_VAT,
    peppol_ids: [BUYER_PEPPOL],
  });
  if (options.register !== false) {
    for (const [t, peppolId, name] of [
      [seller, SELLER_PEPPOL, 'Acme Solutions BV'],
      [buyer, BUYER_PEPPOL, 'Brouwerij De Zwaan NV'],
    ] as const) {
      const registered = await api(service.baseUrl, 'POST', `/api/admin/tenants/${t.id}/peppol/register`, adminKey, {
        peppol_id: peppolId,
        company_name: name,
      });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    }
  }
  await mkdir(SCREENSHOTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: bin, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  return {
    service,
    browser,
    operatorKey,
    adminKey,
    seller,
    buyer,
    tenant,
    stop: async () => {
      await browser.close();
      service.child.kill('SIGTERM');
      await service.exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A full-page screenshot into SCREENSHOTS. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

export async function signIn(page: Page, baseUrl: string, key: string) {
  await page.goto(`${baseUrl}/app/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key').waitFor();
}
