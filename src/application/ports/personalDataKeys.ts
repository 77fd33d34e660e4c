/**
 * Where the tenants' personal-data keys are kept (PostgreSQL in every profile: its own table, never
 * an event). A key is kept wrapped (encrypted by the deployment's master key); destroying it
 * overwrites the wrapped bytes and keeps the time, so what it encrypted can never be read again
 * (crypto-shredding) while the record of the erasure stays.
 */
export interface StoredPersonalDataKey {
  version: number;
  /** The key wrapped by the master key; null once destroyed. */
  wrapped: Buffer | null;
  created_at: string;
  destroyed_at: string | null;
}

export interface PersonalDataKeyStore {
  /** Every key the tenant has had, oldest first. */
  keysOf(tenantId: string): Promise<StoredPersonalDataKey[]>;
  /** Adds a key version; when another writer added that version first, theirs stays. */
  add(tenantId: string, version: number, wrapped: Buffer): Promise<void>;
  /** Destroys the tenant's keys of versions up to `upTo` (all when omitted); answers the versions destroyed by this call. */
  destroy(tenantId: string, upTo?: number): Promise<number[]>;
}

export const PERSONAL_DATA_KEY_STORE = Symbol('PersonalDataKeyStore');
/** The deployment's master key (32 bytes) that wraps the tenants' keys: a setting or a file in the data dir. */
export const PERSONAL_DATA_MASTER_KEY = Symbol('PersonalDataMasterKey');
