import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig, type Config } from '../../src/infrastructure/config.js';

import { repoRoot } from './repoRoot.js';
export { repoRoot };

export const TEST_PKI_SCRIPT = path.join(repoRoot, 'scripts', 'test-pki');
export const TEST_PKI_PASSWORD = 'test-pki';

/** One access point's files, as scripts/test-pki lays them out (see the script's header). */
export interface TestAccessPoint {
  seatId: string;
  dir: string;
  keyFile: string;
  certificateFile: string;
  chainFile: string;
  keystoreFile: string;
  truststoreFile: string;
}

export interface TestPki {
  dir: string;
  rootCertificateFile: string;
  apCaCertificateFile: string;
  smpCaCertificateFile: string;
  /** The AP CA's CRL, PEM, listing `revoked` only (ap-ca.crl beside it is the same in DER). */
  apCaCrlFile: string;
  /** The AP CA's CRL in DER. */
  apCaCrlDerFile: string;
  apCaKeyFile: string;
  /** The AP CA's delegated OCSP responder (extended key usage OCSPSigning), for `openssl ocsp -rsigner`. */
  ocspResponderCertificateFile: string;
  ocspResponderKeyFile: string;
  /** The CA database (`openssl ocsp -index`): every certificate issued, POP999997 revoked. */
  caIndexFile: string;
  /** The OCSP responder URL in every AP certificate, or null (then they name none). */
  ocspUrl: string | null;
  /** Instance i (1-based): seat POP00000i. */
  instance(i: number): TestAccessPoint & { smpKeyFile: string; smpCertificateFile: string; smpChainFile: string };
  /** POP999998, from the real AP CA, expired yesterday. */
  expired: TestAccessPoint;
  /** POP999999, from a root no truststore here holds. */
  untrusted: TestAccessPoint;
  /** POP999997, from the real AP CA, current, and revoked in the AP CA's CRL. */
  revoked: TestAccessPoint;
  dispose(): Promise<void>;
}

export function seatId(i: number): string {
  return `POP${String(i).padStart(6, '0')}`;
}

function accessPoint(dir: string, seat: string): TestAccessPoint {
  return {
    seatId: seat,
    dir,
    keyFile: path.join(dir, 'ap.key.pem'),
    certificateFile: path.join(dir, 'ap.cert.pem'),
    chainFile: path.join(dir, 'ap.chain.pem'),
    keystoreFile: path.join(dir, 'ap.p12'),
    truststoreFile: path.join(dir, 'truststore.p12'),
  };
}

/** Runs scripts/test-pki into `dir` and resolves with its output. */
export async function runTestPki(dir: string, args: string[] = []): Promise<{ stdout: string; stderr: string }> {
  // A few dozen RSA keys: seconds on an idle machine, minutes on a loaded one.
  return promisify(execFile)('bash', [TEST_PKI_SCRIPT, '--out', dir, ...args], { timeout: 180_000 });
}

/** A fresh test PKI in a temporary folder (removed by dispose). */
export async function makeTestPki(
  options: { instances?: number; days?: number; ocspUrl?: string } = {},
): Promise<TestPki> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'test-pki-'));
  await runTestPki(dir, [
    '--instances',
    String(options.instances ?? 2),
    '--days',
    String(options.days ?? 30),
    ...(options.ocspUrl ? ['--ocsp-url', options.ocspUrl] : []),
  ]);
  return {
    dir,
    rootCertificateFile: path.join(dir, 'ca', 'root.cert.pem'),
    apCaCertificateFile: path.join(dir, 'ca', 'ap-ca.cert.pem'),
    smpCaCertificateFile: path.join(dir, 'ca', 'smp-ca.cert.pem'),
    apCaCrlFile: path.join(dir, 'ca', 'ap-ca.crl.pem'),
    apCaCrlDerFile: path.join(dir, 'ca', 'ap-ca.crl'),
    apCaKeyFile: path.join(dir, 'ca', 'ap-ca.key.pem'),
    ocspResponderCertificateFile: path.join(dir, 'ca', 'ap-ca-ocsp.cert.pem'),
    ocspResponderKeyFile: path.join(dir, 'ca', 'ap-ca-ocsp.key.pem'),
    caIndexFile: path.join(dir, 'ca', 'db', 'index.txt'),
    ocspUrl: options.ocspUrl ?? null,
    instance(i) {
      const seat = seatId(i);
      const instanceDir = path.join(dir, 'instances', seat);
      return {
        ...accessPoint(instanceDir, seat),
        smpKeyFile: path.join(instanceDir, 'smp.key.pem'),
        smpCertificateFile: path.join(instanceDir, 'smp.cert.pem'),
        smpChainFile: path.join(instanceDir, 'smp.chain.pem'),
      };
    },
    expired: accessPoint(path.join(dir, 'negative', 'expired'), 'POP999998'),
    untrusted: accessPoint(path.join(dir, 'negative', 'untrusted'), 'POP999999'),
    revoked: accessPoint(path.join(dir, 'negative', 'revoked'), 'POP999997'),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The Peppol settings of an access point with instance `i`'s AS4 key and certificate, trusting the
 * test AP CA (over the defaults; `extra` adds or overrides, e.g. the CRL or a message size limit).
 * No MLS and no Peppol report goes out (MLS_SEND, PEPPOL_REPORTING_SUBMIT off) unless a suite asks:
 * these settings name no test SML, and looking up a receiver would query the production SML.
 */
export function accessPointSettings(pki: TestPki, i: number, extra: Partial<Config['peppol']> = {}): Config['peppol'] {
  return {
    ...loadConfig({}).peppol,
    as4KeyFile: pki.instance(i).keyFile,
    as4CertificateFile: pki.instance(i).certificateFile,
    apCaFiles: [pki.apCaCertificateFile],
    mlsSend: false,
    reportingSubmit: false,
    ...extra,
  };
}
