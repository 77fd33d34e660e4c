/**
 * What OCSP costs an access point per certificate check, against `openssl ocsp` on loopback over
 * the test PKI (the AccessPointTrust the AS4 receiver asks of every signer, the sender of every
 * receiver): CPU of a check whose answer is cached (every message but the first of a peer in an
 * hour), next to the same check with CRLs only, and CPU and wall time of a check that asks the
 * responder (request, HTTP on loopback, response read and verified).
 *   npx tsc -p tsconfig.json && node dist/scripts/bench-ocsp.js      Options (env): ROUNDS (2000)
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { AccessPointTrust } from '../src/infrastructure/peppol/accessPointTrust.js';
import { OcspChecker, postOcspRequest } from '../src/infrastructure/peppol/ocspChecker.js';
import { RevocationLists } from '../src/infrastructure/peppol/revocationLists.js';
import { makeTestPki } from '../test/support/testPki.js';
import { startOcspFront, startOpensslResponder } from '../test/support/ocspResponder.js';

const rounds = Number(process.env.ROUNDS ?? 2000);
const COLD = 50;

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function perCheck(trust: AccessPointTrust, certificate: X509Certificate, n: number) {
  const cpu = cpuUs();
  const wall = performance.now();
  for (let i = 0; i < n; i++) if (await trust.check(certificate, new Date())) throw new Error('refused');
  return { cpuUs: (cpuUs() - cpu) / n, wallMs: (performance.now() - wall) / n };
}

async function main() {
  const front = await startOcspFront();
  const pki = await makeTestPki({ instances: 1, ocspUrl: front.url });
  const responder = await startOpensslResponder(pki);
  front.mode = { kind: 'forward', to: responder.url };
  try {
    const apCa = new X509Certificate(await readFile(pki.apCaCertificateFile));
    const peer = new X509Certificate(await readFile(pki.instance(1).certificateFile));
    const crls = RevocationLists.load([pki.apCaCrlFile], [apCa]);
    const trust = (ocsp: OcspChecker | null) =>
      new AccessPointTrust([apCa], { crls, ocsp, failurePolicy: 'crl', warn: () => {} });

    const crlOnly = trust(null);
    const withOcsp = trust(new OcspChecker());
    await perCheck(withOcsp, peer, 1); // the one request; then every check is answered from the cache
    await perCheck(crlOnly, peer, 200);
    await perCheck(withOcsp, peer, 200);
    const without = await perCheck(crlOnly, peer, rounds);
    const cached = await perCheck(withOcsp, peer, rounds);

    // Straight to openssl (not through the front, which runs in this process): only our side counts.
    let asked = 0;
    const direct = () =>
      new OcspChecker({}, (_url, body, options) => {
        asked++;
        return postOcspRequest(responder.url, body, options);
      });
    await perCheck(trust(direct()), peer, 1);
    const coldCpu = cpuUs();
    const coldWall = performance.now();
    for (let i = 0; i < COLD; i++) await perCheck(trust(direct()), peer, 1);
    const cold = { cpuUs: (cpuUs() - coldCpu) / COLD, wallMs: (performance.now() - coldWall) / COLD };
    if (asked !== COLD + 1) throw new Error('each cold check should ask the responder once');

    const f = (n: number) => n.toFixed(1);
    console.log(`AccessPointTrust.check, ${rounds} rounds (cold: ${COLD}), CPU of this process per check:`);
    console.log(`  CRL only (AS4_OCSP=false)         ${f(without.cpuUs)} µs`);
    console.log(`  CRL + OCSP, answer cached         ${f(cached.cpuUs)} µs`);
    console.log(
      `  CRL + OCSP, asking the responder  ${f(cold.cpuUs)} µs CPU, ${f(cold.wallMs)} ms wall (loopback, openssl ocsp)`,
    );
  } finally {
    await responder.stop();
    await front.close();
    await pki.dispose();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
