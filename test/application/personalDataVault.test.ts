import { expect } from 'chai';
import type { PersonalDataKeyStore, StoredPersonalDataKey } from '../../src/application/ports/personalDataKeys.js';
import {
  isSealedPayload,
  isSealedValue,
  PersonalDataErasedError,
  PersonalDataVault,
} from '../../src/application/personalData/personalDataVault.js';
import { PersonalEventOpener, PersonalEventSealer } from '../../src/application/personalData/personalEvents.js';
import { ERASED } from '../../src/domain/personalData/personalFields.js';
import type { RecordedEvent } from '../../src/application/ports/eventStore.js';

/** The key store's contract in memory: the cryptography is pure logic (the PostgreSQL store runs in the HTTP suites). */
class MemoryKeys implements PersonalDataKeyStore {
  readonly rows = new Map<string, StoredPersonalDataKey[]>();
  async keysOf(tenantId: string) {
    return (this.rows.get(tenantId) ?? []).map((k) => ({ ...k }));
  }
  async add(tenantId: string, version: number, wrapped: Buffer) {
    const keys = this.rows.get(tenantId) ?? [];
    if (!keys.some((k) => k.version === version))
      keys.push({ version, wrapped, created_at: new Date().toISOString(), destroyed_at: null });
    this.rows.set(tenantId, keys);
  }
  async destroy(tenantId: string, upTo?: number) {
    const destroyed: number[] = [];
    for (const k of this.rows.get(tenantId) ?? [])
      if (k.wrapped && (upTo === undefined || k.version <= upTo)) {
        k.wrapped = null;
        k.destroyed_at = new Date().toISOString();
        destroyed.push(k.version);
      }
    return destroyed;
  }
}

const master = Buffer.alloc(32, 1);

describe('Personal data vault: sealing with a key per tenant, and crypto-shredding', () => {
  it('seals values and payloads so that they open again, deterministically per tenant', async () => {
    const vault = new PersonalDataVault(new MemoryKeys(), master);
    const a = await vault.sealer('tenant-a');
    const b = await vault.sealer('tenant-b');
    const sealed = a.value('jan@acme.be');
    expect(isSealedValue(sealed)).to.equal(true);
    expect(sealed).to.not.contain('jan@acme.be');
    expect(a.value('jan@acme.be')).to.equal(sealed);
    expect(b.value('jan@acme.be')).to.not.equal(sealed);
    expect(await vault.value(sealed)).to.equal('jan@acme.be');

    const bytes = Buffer.from('<Invoice>Jan Peeters</Invoice>');
    const payload = a.bytes(bytes);
    expect(isSealedPayload(payload)).to.equal(true);
    expect(payload.includes(Buffer.from('Jan Peeters'))).to.equal(false);
    expect(a.bytes(bytes).equals(payload)).to.equal(true);
    expect((await vault.payload(payload)).equals(bytes)).to.equal(true);
    // What was never sealed passes as it is.
    expect(await vault.value('plain@acme.be')).to.equal('plain@acme.be');
    expect((await vault.payload(bytes)).equals(bytes)).to.equal(true);
  });

  it('reads what a destroyed key sealed as erased, and seals what comes after with a new key', async () => {
    const keys = new MemoryKeys();
    const vault = new PersonalDataVault(keys, master);
    const before = await vault.sealer('t');
    const value = before.value('jan@acme.be');
    const payload = before.bytes(Buffer.from('ubl'));
    expect(await vault.erasedAt('t')).to.equal(null);
    expect(await vault.destroy('t')).to.deep.equal([1]);
    expect(await vault.value(value)).to.equal(ERASED);
    let error: unknown;
    await vault.payload(payload).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(PersonalDataErasedError);
    expect((error as PersonalDataErasedError).kind).to.equal('gone');
    expect(await vault.erasedAt('t')).to.be.a('string');
    // What comes after an erasure is sealed with a new key; what came before stays erased.
    const after = await vault.sealer('t');
    const later = after.value('piet@acme.be');
    expect(later).to.contain(':2:');
    expect(await vault.value(later)).to.equal('piet@acme.be');
    expect(await vault.value(value)).to.equal(ERASED);
  });

  it('refuses a tampered value, and a master key that is not the one that wrapped the keys', async () => {
    const keys = new MemoryKeys();
    const vault = new PersonalDataVault(keys, master);
    const sealed = (await vault.sealer('t')).value('jan@acme.be');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'AB' : 'AA'}`;
    let error: unknown;
    await vault.value(tampered).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    const other = new PersonalDataVault(keys, Buffer.alloc(32, 2));
    error = undefined;
    await other.value(sealed).catch((e: unknown) => (error = e));
    expect((error as Error).message).to.contain('PERSONAL_DATA_KEY');
    expect(() => new PersonalDataVault(keys, Buffer.alloc(16))).to.throw(/32 bytes/);
  });

  it('seals the personal values of events before they are appended, and opens them as they are read', async () => {
    const keys = new MemoryKeys();
    const vault = new PersonalDataVault(keys, master);
    const sealer = new PersonalEventSealer(vault);
    const opener = new PersonalEventOpener(vault);
    const header = {
      invoice_id: 'A-1',
      customer_name: 'De Zwaan',
      customer_email: 'ap@dezwaan.be',
      vendor_email: null,
    };
    const [created, attempt, other] = await sealer.seal('document-1', [
      { type: 'DocumentCreated', data: { document_id: '1', tenant_id: 't', header } },
      {
        type: 'DeliveryAttempted',
        data: { document_id: '1', transport: 'email', receiver: 'inbox@acme.be' },
        metadata: { tenantId: 't' },
      },
      { type: 'DocumentSent', data: { document_id: '1' } },
    ]);
    const createdHeader = (created!.data as { header: typeof header }).header;
    expect(isSealedValue(createdHeader.customer_email)).to.equal(true);
    expect(createdHeader).to.include({ customer_name: 'De Zwaan', vendor_email: null, invoice_id: 'A-1' });
    expect(isSealedValue((attempt!.data as { receiver: string }).receiver)).to.equal(true);
    expect(other!.data).to.deep.equal({ document_id: '1' });
    // A Peppol attempt's receiver is a participant identifier, not personal.
    const [peppol] = await sealer.seal('document-1', [
      { type: 'DeliveryAttempted', data: { transport: 'peppol', receiver: '0208:0123456749' } },
    ]);
    expect(peppol!.data).to.deep.equal({ transport: 'peppol', receiver: '0208:0123456749' });

    const recorded = (e: { type: string; data: unknown; metadata?: object }, metadata = {}): RecordedEvent => ({
      id: 'x',
      streamName: 'document-1',
      revision: 0,
      globalPosition: 0n,
      type: e.type,
      data: e.data,
      metadata: { ...metadata, ...e.metadata },
      recordedAt: new Date().toISOString(),
    });
    const opened = await opener.upcast(recorded(created!));
    expect((opened.data as { header: typeof header }).header).to.deep.equal(header);
    // Recorded in the clear before sealing: shown as it is, until the tenant's personal data is erased.
    const plain = recorded(
      { type: 'SendRequested', data: { document_id: '1', email: 'old@acme.be' } },
      { tenantId: 't' },
    );
    expect((await opener.upcast(plain)).data).to.include({ email: 'old@acme.be' });
    await vault.destroy('t');
    expect(
      ((await opener.upcast(recorded(created!))).data as { header: typeof header }).header.customer_email,
    ).to.equal(ERASED);
    expect((await opener.upcast(plain)).data).to.include({ email: ERASED });

    let error: unknown;
    await sealer
      .seal('document-2', [{ type: 'SendRequested', data: { document_id: '2', email: 'x@acme.be' } }])
      .catch((e: unknown) => (error = e));
    expect((error as Error).message).to.contain('names no tenant');
  });
});
