import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface TestCertificate {
  keyPem: string;
  certificatePem: string;
  /** Files holding the two, for settings that take paths. */
  keyFile: string;
  certificateFile: string;
  dispose(): Promise<void>;
}

/**
 * A fresh RSA key and self-signed certificate made by the openssl command (Node has no API to
 * issue certificates). Tests sign with it as another SMP or access point would.
 */
export async function makeTestCertificate(commonName: string): Promise<TestCertificate> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'peppol-cert-'));
  const keyFile = path.join(dir, 'key.pem');
  const certificateFile = path.join(dir, 'cert.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    '2',
    '-subj',
    `/C=BE/O=Invoicing service tests/CN=${commonName}`,
    '-keyout',
    keyFile,
    '-out',
    certificateFile,
  ]);
  return {
    keyPem: await readFile(keyFile, 'utf8'),
    certificatePem: await readFile(certificateFile, 'utf8'),
    keyFile,
    certificateFile,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
