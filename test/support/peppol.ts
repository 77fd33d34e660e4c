import { randomInt } from 'node:crypto';
import { expect } from 'chai';
import { bearer, type TestService } from './service.js';

/** A fresh, valid Belgian enterprise number (10 digits, mod-97 check), so tests never collide. */
export function belgianNumber(): string {
  const base = randomInt(10_000_000, 19_999_999); // 8 digits starting with 1 (or 0 after padding)
  const check = 97 - (base % 97);
  return `${String(base).padStart(8, '0')}${String(check).padStart(2, '0')}`;
}

/** A tenant whose profile carries `peppolId` (or none), with a tenant key. */
export async function createPeppolTenant(
  t: TestService,
  adminKey: string,
  profile: { name?: string; description?: string | null; peppol_ids?: string[]; company_tax_id?: string | null } = {},
): Promise<{ id: string; key: string }> {
  const name = profile.name ?? `peppol-${randomInt(1e9)}`;
  const created = await t.http
    .post('/api/admin/tenants')
    .set(bearer(adminKey))
    .send({ ...profile, name });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const key = await t.http
    .post(`/api/admin/tenants/${created.body.id}/api-keys`)
    .set(bearer(adminKey))
    .send({ name: 'app' });
  expect(key.status, JSON.stringify(key.body)).to.equal(201);
  return { id: created.body.id, key: key.body.key };
}

/** Registers the tenant's id and expects success. */
export async function registerPeppol(t: TestService, adminKey: string, tenantId: string, body: object) {
  const res = await t.http.post(`/api/admin/tenants/${tenantId}/peppol/register`).set(bearer(adminKey)).send(body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as {
    registered: boolean;
    peppol_id: string;
    status: string;
    registered_at: string;
    company_name: string;
    country_code: string;
    simulated: boolean;
    sml: string;
    message: string;
  };
}
