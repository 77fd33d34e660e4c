import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hashApiKey, keyMatchesHash } from './apiKeySecret.js';

/** `OperatorKey`: loaded (or generated) at start, so bound as a value. */
export const OPERATOR_KEY = Symbol('OperatorKey');

/** The deployment's operator credential. Only its hash is kept, in memory and on disk. */
export class OperatorKey {
  private constructor(private readonly hash: string) {}

  matches(presented: string): boolean {
    return keyMatchesHash(presented, this.hash);
  }

  static fromKey(key: string): OperatorKey {
    return new OperatorKey(hashApiKey(key));
  }

  /**
   * With OPERATOR_KEY set, that key. Otherwise the key generated on first start: its hash is
   * stored in the data folder and the key itself is handed to `announce` exactly once.
   */
  static async load(
    configured: string | null,
    dataDir: string,
    announce: (key: string, file: string) => void,
  ): Promise<OperatorKey> {
    if (configured) return OperatorKey.fromKey(configured);
    const file = path.join(dataDir, 'operator-key.sha256');
    if (existsSync(file)) return new OperatorKey((await readFile(file, 'utf8')).trim());
    const key = `op_${randomBytes(32).toString('base64url')}`;
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${hashApiKey(key)}\n`, { mode: 0o600, flag: 'wx' });
    announce(key, file);
    return OperatorKey.fromKey(key);
  }
}
