import { expect } from 'chai';
import { routeOf, type SendOptions } from '../../../src/application/delivery/sendDocument.js';
import type { Tenant } from '../../../src/domain/tenant/tenant.js';
import type { DocumentHeader } from '../../../src/domain/document/lifecycle/documentContent.js';
import { DomainError } from '../../../src/domain/errors.js';

const SELLER = '0208:0403013026';
const OTHER_OWN = '0088:7300010000001';
const BUYER = '0208:0451234595';

const tenant = (overrides: Partial<Tenant> = {}): Tenant => ({
  id: 't-1',
  organization_id: 'o-1',
  name: 'seller',
  description: null,
  company_number: null,
  company_tax_id: null,
  peppol_ids: [SELLER, OTHER_OWN],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  is_deleted: false,
  test_mode: false,
  test_mode_email: null,
  rate_tier: 'standard',
  peppol_registration: null,
  ...overrides,
});

const header = (overrides: Partial<DocumentHeader> = {}): DocumentHeader => ({
  document_type: 'INVOICE',
  invoice_id: 'INV-1',
  invoice_date: '2026-01-01',
  due_date: null,
  currency: 'EUR',
  invoice_total: '121.00',
  vendor_name: 'Acme',
  vendor_email: null,
  vendor_tax_id: 'BE0403013026',
  vendor_company_id: null,
  vendor_peppol_id: SELLER,
  customer_name: 'Zwaan',
  customer_id: null,
  customer_email: null,
  customer_tax_id: 'BE0451234595',
  customer_company_id: null,
  customer_peppol_id: BUYER,
  ...overrides,
});

const refusal = (run: () => unknown): { loc: unknown; message: string } => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'invalid') return { loc: error.loc, message: error.message };
    throw error;
  }
  throw new Error('not refused');
};
const route = (options: SendOptions = {}, h = header(), t = tenant()) => routeOf(t, { header: h }, options);

/** Where a send goes and as whom (sendDocument.routeOf), on plain values. */
describe('routeOf: a document goes as its issuer, to its receiver', () => {
  it('goes as the issuer, one of the tenant ids, whichever of its ids comes first', () => {
    expect(route()).to.deep.equal({
      transport: 'peppol',
      sender_peppol_id: SELLER,
      receiver_peppol_id: BUYER,
      email: null,
    });
    expect(route({}, header({ vendor_peppol_id: OTHER_OWN })).sender_peppol_id).to.equal(OTHER_OWN);
  });

  it("refuses an override that is the tenant's own but not the document's issuer, and one that is not its own", () => {
    const notIssuer = refusal(() => route({ sender_peppol_scheme: '0088', sender_peppol_id: '7300010000001' }));
    expect(notIssuer.loc).to.deep.equal(['query', 'sender_peppol_id']);
    expect(notIssuer.message).to.match(/issued by 0208:0403013026, .* sender_peppol_id 0088:7300010000001 is not it/);
    const foreign = refusal(() => route({ sender_peppol_scheme: '0208', sender_peppol_id: '0451234595' }));
    expect(foreign.loc).to.deep.equal(['query', 'sender_peppol_id']);
    expect(foreign.message).to.contain(`may send as: ${SELLER}, ${OTHER_OWN}`);
    // Repeating the issuer, in any of its spellings, is fine.
    expect(route({ sender_peppol_scheme: 'iso6523-actorid-upis', sender_peppol_id: SELLER }).sender_peppol_id).to.equal(
      SELLER,
    );
  });

  it("refuses another seller's document, naming its EndpointID, in test mode too", () => {
    const foreign = header({ vendor_peppol_id: '0208:0202239951' });
    for (const t of [tenant(), tenant({ test_mode: true, test_mode_email: 'qa@seller.test' })]) {
      const refused = refusal(() => route({}, foreign, t));
      expect(refused.loc).to.deep.equal(['document', 'AccountingSupplierParty', 'EndpointID']);
      expect(refused.message).to.contain('issued by 0208:0202239951');
    }
  });

  it('sends a self-billed document as its buyer, to its seller', () => {
    const selfBilled = header({
      document_type: 'SELFBILLING_INVOICE',
      vendor_peppol_id: BUYER,
      customer_peppol_id: SELLER,
    });
    expect(route({}, selfBilled)).to.include({ sender_peppol_id: SELLER, receiver_peppol_id: BUYER });
    const notOurs = refusal(() =>
      route({}, header({ document_type: 'SELFBILLING_CREDIT_NOTE', customer_peppol_id: BUYER })),
    );
    expect(notOurs.loc).to.deep.equal(['document', 'AccountingCustomerParty', 'EndpointID']);
  });
});
