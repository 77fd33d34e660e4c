import { expect } from 'chai';
import { networkTenant, startPeppolNetwork, type PeppolNetwork } from '../support/peppolNetwork.js';
import { belgianNumber } from '../support/peppol.js';

describe('smoke: two instances find each other through the test SML', function () {
  this.timeout(180_000);
  let network: PeppolNetwork;
  before(async () => {
    network = await startPeppolNetwork();
    await Promise.all(network.instances.map((i) => i.start()));
  });
  after(async () => network?.close());

  it('A looks up B\'s participant: SML → B\'s SMP, signed', async () => {
    const [a, b] = network.instances as [any, any];
    const buyerId = `0208:${belgianNumber()}`;
    await networkTenant(b, buyerId, 'Buyer NV');
    const seller = await networkTenant(a, `0208:${belgianNumber()}`, 'Seller NV');
    const lookup = await a.call('GET', `/api/lookup?peppol_id=${encodeURIComponent(buyerId)}`, seller.key);
    console.log(JSON.stringify(lookup.body, null, 1).slice(0, 3000));
    expect(lookup.body.status).to.equal('success');
  });
});
