import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Key format: `ik_<32 hex key id>.<43 base64url chars: 32 random bytes>`. The id inside lets
 * the service find the key's record without an index; only SHA-256 of the whole key is stored
 * (the secret has 256 bits of entropy, so a fast hash is sufficient). Keys of any other form
 * (e.g. a BOOTSTRAP_ADMIN_KEY chosen by an operator) get an id derived from their hash.
 */
const KEY_FORMAT = /^ik_([0-9a-f]{32})\.[A-Za-z0-9_-]{43}$/;

export interface GeneratedKey {
  keyId: string;
  key: string;
  hash: string;
  prefix: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function toUuid(hex32: string): string {
  return `${hex32.slice(0, 8)}-${hex32.slice(8, 12)}-${hex32.slice(12, 16)}-${hex32.slice(16, 20)}-${hex32.slice(20, 32)}`;
}

export function generateApiKey(): GeneratedKey {
  const idHex = randomBytes(16).toString('hex');
  const key = `ik_${idHex}.${randomBytes(32).toString('base64url')}`;
  return { keyId: toUuid(idHex), key, hash: hashApiKey(key), prefix: publicPrefix(key) };
}

/** The id of the record a presented key would belong to. */
export function keyIdOf(key: string): string {
  const match = KEY_FORMAT.exec(key);
  return toUuid(match ? match[1]! : hashApiKey(key).slice(0, 32));
}

/** A short, non-secret part of the key shown in lists so support can tell keys apart. */
export function publicPrefix(key: string): string {
  return key.slice(0, 11);
}

/** Constant-time comparison of a presented key with a stored hash. */
export function keyMatchesHash(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
