import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import type { CheckpointSigner } from '../../application/ports/historyChain.js';
import { publicKeyId, signatureAlgorithmOf } from '../../application/history/checkpointStatement.js';

/** Where checkpoints are signed with when neither a signing key nor an access point key is configured. */
export const GENERATED_KEY_FILE = 'history-signing-key.pem';

/** Signs checkpoint statements with one private key (and names its certificate, when it has one). */
export class KeyCheckpointSigner implements CheckpointSigner {
  readonly keyId: string;
  private readonly algorithm: string;
  private readonly publicKey: string;

  constructor(
    private readonly privateKey: KeyObject,
    private readonly certificate: X509Certificate | null,
    /** Where the key came from, for the log: the setting, the access point, or the generated file. */
    readonly source: string,
  ) {
    const publicKey = createPublicKey(privateKey);
    if (certificate && !certificate.checkPrivateKey(privateKey))
      throw new Error('HISTORY_SIGNING_CERTIFICATE_FILE is not the certificate of HISTORY_SIGNING_KEY_FILE');
    this.keyId = publicKeyId(publicKey);
    this.algorithm = signatureAlgorithmOf(privateKey);
    this.publicKey = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  sign(statement: Buffer) {
    const signature = sign(this.algorithm === 'ed25519' ? null : 'sha256', statement, this.privateKey);
    return {
      algorithm: this.algorithm,
      signature: signature.toString('base64'),
      keyId: this.keyId,
      publicKey: this.publicKey,
      certificate: this.certificate?.toString() ?? null,
    };
  }
}

export interface CheckpointKeySettings {
  /** HISTORY_SIGNING_KEY_FILE: a PEM private key (RSA, EC or Ed25519). */
  keyFile: string | null;
  /** HISTORY_SIGNING_CERTIFICATE_FILE: its certificate, optional. */
  certificateFile: string | null;
  dataDir: string;
}

/**
 * The key checkpoints are signed with: the configured one; else the access point's (its AS4 key
 * and certificate); else one generated once in the data folder (P-256), kept outside the database
 * so that whoever can rewrite the database cannot sign for it.
 */
export function loadCheckpointSigner(
  settings: CheckpointKeySettings,
  accessPoint: { privateKey: KeyObject; certificate: X509Certificate } | null,
): KeyCheckpointSigner {
  return findCheckpointSigner(settings, accessPoint, true)!;
}

/**
 * The signer the service would use, without generating a key when there is none (a verification
 * run elsewhere only needs to know whose signatures are the service's); null then.
 */
export function findCheckpointSigner(
  settings: CheckpointKeySettings,
  accessPoint: { privateKey: KeyObject; certificate: X509Certificate } | null,
  generate = false,
): KeyCheckpointSigner | null {
  if (settings.keyFile) {
    const certificate = settings.certificateFile ? new X509Certificate(readFileSync(settings.certificateFile)) : null;
    return new KeyCheckpointSigner(
      createPrivateKey(readFileSync(settings.keyFile)),
      certificate,
      'HISTORY_SIGNING_KEY_FILE',
    );
  }
  if (accessPoint)
    return new KeyCheckpointSigner(accessPoint.privateKey, accessPoint.certificate, 'the access point key');
  const file = path.join(settings.dataDir, GENERATED_KEY_FILE);
  if (!existsSync(file) && !generate) return null;
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    try {
      // `wx`: two processes starting together keep the first one's key.
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  return new KeyCheckpointSigner(createPrivateKey(readFileSync(file)), null, file);
}
