import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** The file of the generated master key, in the data dir. */
export const MASTER_KEY_FILE = 'personal-data.key';

function decode(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/]{43}=?$/.test(text.trim()))
    throw new Error(`${where} must be 32 bytes in base64 (e.g. the output of: openssl rand -base64 32)`);
  return key;
}

/**
 * The master key that wraps the tenants' personal-data keys: PERSONAL_DATA_KEY (32 bytes, base64),
 * else the key in `<data dir>/personal-data.key`, generated on the first start (mode 0600). Every
 * process of a deployment needs the same one, and losing it loses every tenant's personal data:
 * keep a copy apart from the database's backups (docs/operating/retention-and-erasure.md).
 */
export async function loadPersonalDataMasterKey(configured: string | null, dataDir: string): Promise<Buffer> {
  if (configured) return decode(configured, 'PERSONAL_DATA_KEY');
  const file = path.join(dataDir, MASTER_KEY_FILE);
  try {
    return decode(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process of the same data dir made it first: theirs is the key.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decode(await readFile(file, 'utf8'), file);
}
