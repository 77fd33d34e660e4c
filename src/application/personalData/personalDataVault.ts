import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { inject, injectable } from '../injection.js';
import {
  PERSONAL_DATA_KEY_STORE,
  PERSONAL_DATA_MASTER_KEY,
  type PersonalDataKeyStore,
  type StoredPersonalDataKey,
} from '../ports/personalDataKeys.js';
import { ERASED } from '../../domain/personalData/personalFields.js';
import { DomainError } from '../../domain/errors.js';

/*
 * Crypto-shredding of a tenant's personal data (docs/operating/retention-and-erasure.md). Each
 * tenant has a data key (32 random bytes, AES-256-GCM), kept wrapped by the deployment's master
 * key in its own store, never in an event. Personal values in events and in stored content, and
 * whole payloads (UBL, attachments), are encrypted with it before they are appended or stored, so
 * both event-store adapters and the blob store hold ciphertext, and the history chain covers the
 * ciphertext. Destroying the key (erasure) leaves every byte in place, unreadable: values then read
 * as ERASED, payloads as gone (410).
 *
 * Encryption is deterministic (the nonce is an HMAC of the plaintext under a key of its own, as in
 * SIV): the same bytes sealed twice for one tenant are the same ciphertext, so content-addressed
 * payloads stay one blob however often they are stored. It shows only that two sealed values of a
 * tenant are equal.
 *
 *   sealed value:   "pd1:<tenant id>:<key version>:<base64url(nonce ‖ ciphertext ‖ tag)>"
 *   sealed payload: "PDSEAL1\n" ‖ u16 length ‖ tenant id ‖ u32 key version ‖ nonce ‖ ciphertext ‖ tag
 */

const VALUE_PREFIX = 'pd1:';
const SEALED_VALUE = /^pd1:([^:]{1,200}):(\d{1,9}):([A-Za-z0-9_-]+)$/;
const MAGIC = Buffer.from('PDSEAL1\n', 'latin1');
const NONCE = 12;
const TAG = 16;
/** How long a process trusts what it read of a tenant's keys: another process's erasure reaches it within this. */
const KEY_TTL_MS = 30_000;

/** A payload sealed with a tenant's key that was destroyed: its content was erased with the tenant's personal data. */
export class PersonalDataErasedError extends DomainError {
  constructor(readonly tenantId: string) {
    super('gone', "This content was erased with the tenant's personal data: it can no longer be read");
    this.name = 'PersonalDataErasedError';
  }
}

interface DataKey {
  version: number;
  enc: Buffer;
  nonce: Buffer;
}

/** Seals a tenant's values and payloads with its current key, synchronously once its key is loaded. */
export interface Sealer {
  readonly tenantId: string;
  value(text: string): string;
  bytes(plain: Uint8Array): Buffer;
}

interface TenantKeys {
  loadedAt: number;
  keys: Map<number, DataKey | null>;
  current: DataKey | null;
  erasedAt: string | null;
}

export const isSealedValue = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(VALUE_PREFIX) && SEALED_VALUE.test(value);

export const isSealedPayload = (bytes: Uint8Array): boolean =>
  bytes.length >= MAGIC.length && Buffer.from(bytes.buffer, bytes.byteOffset, MAGIC.length).equals(MAGIC);

const derive = (key: Buffer, info: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, 32));

/**
 * Each sealed value or payload has a key of its own, derived from the tenant's key and its nonce:
 * an evidence bundle can carry the keys of the payloads it holds (so they can be opened and checked
 * offline) without giving away the tenant's key.
 */
const openingKeyOf = (key: DataKey, nonce: Buffer) => createHmac('sha256', key.enc).update(nonce).digest();

function seal(key: DataKey, aad: Buffer, plain: Uint8Array): Buffer {
  const nonce = createHmac('sha256', key.nonce).update(aad).update(plain).digest().subarray(0, NONCE);
  const cipher = createCipheriv('aes-256-gcm', openingKeyOf(key, nonce), nonce);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

/** Opens `sealed` (nonce ‖ ciphertext ‖ tag) with its own key; throws when it was altered. */
export function openSealed(openingKey: Buffer, aad: Buffer, sealed: Buffer): Buffer {
  if (sealed.length < NONCE + TAG) throw new Error('sealed personal data too short');
  const decipher = createDecipheriv('aes-256-gcm', openingKey, sealed.subarray(0, NONCE));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE, sealed.length - TAG)), decipher.final()]);
}

const open = (key: DataKey, aad: Buffer, sealed: Buffer) =>
  openSealed(openingKeyOf(key, sealed.subarray(0, NONCE)), aad, sealed);

/** A sealed payload's parts: the header (its AAD: the tenant and key version) and the sealed rest. */
export function sealedPayloadParts(bytes: Buffer): {
  tenantId: string;
  version: number;
  header: Buffer;
  sealed: Buffer;
} {
  const idLength = bytes.readUInt16BE(MAGIC.length);
  const headerLength = MAGIC.length + 2 + idLength + 4;
  return {
    tenantId: bytes.subarray(MAGIC.length + 2, MAGIC.length + 2 + idLength).toString('utf8'),
    version: bytes.readUInt32BE(MAGIC.length + 2 + idLength),
    header: bytes.subarray(0, headerLength),
    sealed: bytes.subarray(headerLength),
  };
}

function payloadHeader(tenantId: string, version: number): Buffer {
  const id = Buffer.from(tenantId, 'utf8');
  const header = Buffer.alloc(MAGIC.length + 2 + id.length + 4);
  MAGIC.copy(header, 0);
  header.writeUInt16BE(id.length, MAGIC.length);
  id.copy(header, MAGIC.length + 2);
  header.writeUInt32BE(version, MAGIC.length + 2 + id.length);
  return header;
}

/** The tenants' keys, and sealing and opening with them. */
@injectable()
export class PersonalDataVault {
  private readonly tenants = new Map<string, TenantKeys>();
  private readonly loading = new Map<string, Promise<TenantKeys>>();

  constructor(
    @inject(PERSONAL_DATA_KEY_STORE) private readonly store: PersonalDataKeyStore,
    @inject(PERSONAL_DATA_MASTER_KEY) private readonly masterKey: Buffer,
  ) {
    if (masterKey.length !== 32) throw new Error('the personal-data master key must be 32 bytes');
  }

  /** A sealer with the tenant's current key (made on first use, and again after an erasure). */
  async sealer(tenantId: string): Promise<Sealer> {
    let keys = await this.keysOf(tenantId);
    if (!keys.current) {
      const stored = [...keys.keys.keys()];
      const version = (stored.length === 0 ? 0 : Math.max(...stored)) + 1;
      await this.store.add(tenantId, version, this.wrap(tenantId, version, randomBytes(32)));
      keys = await this.keysOf(tenantId, true);
      if (!keys.current) throw new Error(`no personal-data key could be made for tenant ${tenantId}`);
    }
    const key = keys.current;
    const prefix = `${VALUE_PREFIX}${tenantId}:${key.version}:`;
    const header = payloadHeader(tenantId, key.version);
    return {
      tenantId,
      value: (text) => `${prefix}${seal(key, Buffer.from(prefix), Buffer.from(text, 'utf8')).toString('base64url')}`,
      bytes: (plain) => Buffer.concat([header, seal(key, header, plain)]),
    };
  }

  /** A value as it was given: opened when sealed, ERASED when its key was destroyed, as it is otherwise. */
  async value(text: string): Promise<string> {
    const match = isSealedValue(text) ? SEALED_VALUE.exec(text) : null;
    if (!match) return text;
    const [, tenantId, version] = match;
    const key = await this.key(tenantId!, Number(version));
    if (key === undefined) return text;
    if (key === null) return ERASED;
    const prefix = text.slice(0, text.length - match[3]!.length);
    return open(key, Buffer.from(prefix), Buffer.from(match[3]!, 'base64url')).toString('utf8');
  }

  /** A stored payload as it was given: opened when sealed; PersonalDataErasedError when its key was destroyed. */
  async payload(bytes: Buffer): Promise<Buffer> {
    if (!isSealedPayload(bytes)) return bytes;
    const { header, sealed } = sealedPayloadParts(bytes);
    return openSealed(await this.openingKey(bytes), header, sealed);
  }

  /** The key that opens this sealed payload alone (an evidence bundle carries it); PersonalDataErasedError when erased. */
  async openingKey(bytes: Buffer): Promise<Buffer> {
    const { tenantId, version, sealed } = sealedPayloadParts(bytes);
    const key = await this.key(tenantId, version);
    if (key === undefined)
      throw new Error(`payload sealed with key ${version} of tenant ${tenantId}, which never existed`);
    if (key === null) throw new PersonalDataErasedError(tenantId);
    return openingKeyOf(key, sealed.subarray(0, NONCE));
  }

  /** When the tenant's personal data was last erased (a key destroyed); null if never. */
  async erasedAt(tenantId: string): Promise<string | null> {
    return (await this.keysOf(tenantId)).erasedAt;
  }

  /** Destroys every key the tenant has now; answers the versions destroyed. */
  async destroy(tenantId: string, upTo?: number): Promise<number[]> {
    const destroyed = await this.store.destroy(tenantId, upTo);
    this.forget(tenantId);
    return destroyed;
  }

  /** The tenant's current key version (0: none yet). */
  async currentVersion(tenantId: string): Promise<number> {
    const keys = await this.keysOf(tenantId, true);
    return Math.max(0, ...keys.keys.keys());
  }

  /** Drops what this process knows of the tenant's keys (after an erasure). */
  forget(tenantId: string): void {
    this.tenants.delete(tenantId);
  }

  /** A key: null when destroyed, undefined when it never existed. */
  private async key(tenantId: string, version: number): Promise<DataKey | null | undefined> {
    let keys = await this.keysOf(tenantId);
    // A version made since this process last looked (by another process).
    if (!keys.keys.has(version)) keys = await this.keysOf(tenantId, true);
    return keys.keys.get(version);
  }

  private async keysOf(tenantId: string, fresh = false): Promise<TenantKeys> {
    const known = this.tenants.get(tenantId);
    if (!fresh && known && Date.now() - known.loadedAt < KEY_TTL_MS) return known;
    let loading = this.loading.get(tenantId);
    if (!loading) {
      loading = this.store
        .keysOf(tenantId)
        .then((stored) => this.unwrapAll(tenantId, stored))
        .finally(() => this.loading.delete(tenantId));
      this.loading.set(tenantId, loading);
    }
    const keys = await loading;
    this.tenants.set(tenantId, keys);
    return keys;
  }

  private unwrapAll(tenantId: string, stored: StoredPersonalDataKey[]): TenantKeys {
    const keys = new Map<number, DataKey | null>();
    let current: DataKey | null = null;
    let erasedAt: string | null = null;
    for (const k of stored) {
      if (k.wrapped === null) {
        keys.set(k.version, null);
        if (erasedAt === null || (k.destroyed_at ?? '') > erasedAt) erasedAt = k.destroyed_at;
        continue;
      }
      const raw = this.unwrap(tenantId, k.version, k.wrapped);
      const key = { version: k.version, enc: derive(raw, 'enc'), nonce: derive(raw, 'nonce') };
      keys.set(k.version, key);
      if (!current || key.version > current.version) current = key;
    }
    // Only a key newer than every destroyed one seals: one older than an erasure is never used again.
    const newestDestroyed = Math.max(0, ...[...keys].filter(([, v]) => v === null).map(([version]) => version));
    if (current && current.version < newestDestroyed) current = null;
    return { loadedAt: Date.now(), keys, current, erasedAt };
  }

  private wrap(tenantId: string, version: number, raw: Buffer): Buffer {
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, nonce);
    cipher.setAAD(Buffer.from(`pdk1:${tenantId}:${version}`));
    return Buffer.concat([nonce, cipher.update(raw), cipher.final(), cipher.getAuthTag()]);
  }

  private unwrap(tenantId: string, version: number, wrapped: Buffer): Buffer {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.masterKey, wrapped.subarray(0, NONCE));
      decipher.setAAD(Buffer.from(`pdk1:${tenantId}:${version}`));
      decipher.setAuthTag(wrapped.subarray(wrapped.length - TAG));
      return Buffer.concat([decipher.update(wrapped.subarray(NONCE, wrapped.length - TAG)), decipher.final()]);
    } catch {
      throw new Error(
        `the personal-data key ${version} of tenant ${tenantId} does not open with this process's master key: every process of a deployment needs the same PERSONAL_DATA_KEY (or the same personal-data.key file)`,
      );
    }
  }
}
