import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { HistoryCheckpoint, SignedCheckpoint } from '../ports/historyChain.js';
import { canonicalJson } from './canonicalEvent.js';

/**
 * The bytes a checkpoint's signature covers: the UTF-8 of the RFC 8785 serialisation of
 *   {"created_at":"…","events":N,"head_hash":"<hex>","position":"<decimal>","type":"history-checkpoint","v":1}
 * (one line, no newline at the end), so that `openssl dgst -sha256 -verify key.pem -signature
 * sig.bin statement.json` checks it.
 */
export function checkpointStatement(checkpoint: HistoryCheckpoint): Buffer {
  return Buffer.from(
    canonicalJson({
      type: 'history-checkpoint',
      v: 1,
      position: String(checkpoint.position),
      events: checkpoint.events,
      head_hash: checkpoint.headHash,
      created_at: checkpoint.createdAt,
    }),
    'utf8',
  );
}

/** SHA-256 (hex) of a public key's DER SubjectPublicKeyInfo: `openssl pkey -pubin -outform DER | sha256sum`. */
export function publicKeyId(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** The signature algorithm a key signs checkpoints with (SHA-256 for RSA and EC; Ed25519 has its own). */
export function signatureAlgorithmOf(key: KeyObject): string {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'sha256WithRSAEncryption';
    case 'ec':
      return 'ecdsa-with-SHA256';
    case 'ed25519':
      return 'ed25519';
    default:
      throw new Error(`a checkpoint cannot be signed with a ${String(key.asymmetricKeyType)} key`);
  }
}

/** Why a checkpoint's signature does not hold; null when it does. */
export function checkpointSignatureProblem(checkpoint: SignedCheckpoint): string | null {
  let key: KeyObject;
  try {
    key = createPublicKey(checkpoint.publicKey);
  } catch {
    return 'its public key is not a PEM public key';
  }
  if (publicKeyId(key) !== checkpoint.keyId) return 'its key id is not the SHA-256 of its public key';
  let algorithm: string;
  try {
    algorithm = signatureAlgorithmOf(key);
  } catch (error) {
    return (error as Error).message;
  }
  if (algorithm !== checkpoint.algorithm)
    return `its algorithm ${checkpoint.algorithm} is not its key's (${algorithm})`;
  const signature = Buffer.from(checkpoint.signature, 'base64');
  const valid = verify(algorithm === 'ed25519' ? null : 'sha256', checkpointStatement(checkpoint), key, signature);
  return valid ? null : 'its signature does not match its statement';
}
