/**
 * The AS4 message core in one process, per message (in-process loops, no HTTP, no database): a
 * sender builds a Peppol UserMessage for an invoice (SBDH, gzip, sign, encrypt), the receiver opens
 * it (MIME, decrypt, verify, decompress, SBDH) and signs a receipt, the sender checks the receipt.
 * The figures are CPU on one core; the service does this work once per document on each side.
 * With the phase4 harness built (test/interop/phase4), the receiver also opens ROUNDS messages
 * phase4 built for it (captured beforehand, not timed) and signs their receipts: `phase4_built`,
 * the same work on another implementation's messages. `received_rules` is what the service does
 * beyond AS4 with a received invoice: the business rules and the reading (readReceivedDocument).
 *   npm run bench:as4-core      Options (env): ROUNDS (300), PHASE4=0 (not the phase4-built messages)
 */
import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readSignalResponse } from '../src/infrastructure/as4/as4Signals.js';
import { As4MessageCodecAdapter } from '../src/infrastructure/as4/as4MessageCodec.js';
import { DEFAULT_INBOUND_LIMITS } from '../src/infrastructure/as4/as4Inbound.js';
import { loadAccessPointIdentity } from '../src/infrastructure/as4/accessPointIdentity.js';
import { loadPeppolConfig } from '../src/infrastructure/peppolConfig.js';
import { tenLineInvoiceUbl } from './benchDocuments.js';
import { readReceivedDocument } from '../src/infrastructure/workers/documentTasks.js';
import { makeTestPki } from '../test/support/testPki.js';
import { buildAs4, invoiceSbdh } from '../test/support/as4Sender.js';
import { phase4Target } from '../test/support/phase4.js';
import { BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../src/domain/peppol/smpDocuments.js';
import { capturePhase4Messages } from './benchPhase4.js';

const rounds = Number(process.env.ROUNDS ?? 300);

async function main() {
  const pki = await makeTestPki({ instances: 2 });
  const identity = (i: number) =>
    loadAccessPointIdentity(
      loadPeppolConfig({
        AS4_KEY_FILE: pki.instance(i).keyFile,
        AS4_CERTIFICATE_FILE: pki.instance(i).certificateFile,
        PEPPOL_AP_CA_FILES: pki.apCaCertificateFile,
      }),
    )!;
  const sender = identity(1);
  const receiver = identity(2);
  const receiverCertificate = new X509Certificate(await readFile(pki.instance(2).certificateFile));
  const codec = new As4MessageCodecAdapter(receiver, { limits: DEFAULT_INBOUND_LIMITS, checkSigner: async () => null });
  const ubl = tenLineInvoiceUbl();
  const times = { build: 0, open: 0, receipt: 0, check: 0 };
  const at = () => process.cpuUsage();
  const since = (start: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(start);
    return (d.user + d.system) / 1000;
  };
  for (let i = 0; i < rounds + 20; i++) {
    const warm = i < 20;
    const sbdh = invoiceSbdh('0208:0451234595', '0208:0987654394');
    let start = at();
    const built = await buildAs4({
      sbdh,
      businessDocument: ubl,
      from: { ...sender.key, seatId: sender.seatId },
      toSeatId: receiver.seatId,
      receiverCertificate,
    });
    if (!warm) times.build += since(start);
    start = at();
    const opened = await codec.open(built.contentType, built.body);
    if (!warm) times.open += since(start);
    if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
    start = at();
    const receipt = codec.receipt(opened.message);
    if (!warm) times.receipt += since(start);
    start = at();
    const outcome = readSignalResponse(receipt.body, {
      messageId: built.messageId,
      references: built.references,
      receiver: receiverCertificate,
    });
    if (!warm) times.check += since(start);
    if (outcome.kind !== 'receipt') throw new Error(JSON.stringify(outcome));
  }
  // What a received invoice costs beyond the AS4 work: its business rules and reading (for the inbox
  // and the MLS its sender may ask for), the service's readReceived inline path, measured apart.
  let rules = 0;
  for (let i = 0; i < rounds + 20; i++) {
    const start = at();
    const checked = readReceivedDocument(ubl, undefined);
    if (i >= 20) rules += since(start);
    if (!checked.document) throw new Error(JSON.stringify(checked.issues));
  }
  const perMessage = (t: Record<string, number>) =>
    Object.fromEntries(Object.entries(t).map(([k, v]) => [k, +(v / rounds).toFixed(2)]));
  let phase4Built: Record<string, number> | string = 'skipped (PHASE4=0)';
  const harness = phase4Target();
  if (harness.kind === 'none') phase4Built = `skipped: ${harness.why}`;
  else if (process.env.PHASE4 !== '0') {
    const invoiceFile = path.join(pki.dir, 'invoice.xml');
    await writeFile(invoiceFile, ubl);
    const captured = await capturePhase4Messages({
      ap: pki.instance(1),
      receiverCertificateFile: pki.instance(2).certificateFile,
      payloadFile: invoiceFile,
      from: '0208:0451234595',
      to: '0208:0987654394',
      doctype: BIS_BILLING_INVOICE,
      process: BIS_BILLING_PROCESS,
      count: rounds + 20,
      concurrency: 4,
    });
    const phase4Times = { open: 0, receipt: 0 };
    for (const [i, message] of captured.entries()) {
      const warm = i < 20;
      let start = at();
      const opened = await codec.open(message.contentType, message.body);
      if (!warm) phase4Times.open += since(start);
      if (!opened.ok) throw new Error(JSON.stringify(opened.errors));
      start = at();
      codec.receipt(opened.message);
      if (!warm) phase4Times.receipt += since(start);
    }
    phase4Built = perMessage(phase4Times);
  }
  console.log(
    JSON.stringify(
      {
        rounds,
        ubl_bytes: Buffer.byteLength(ubl),
        cpu_ms_per_message: perMessage(times),
        received_rules_cpu_ms_per_message: +(rules / rounds).toFixed(2),
        phase4_built_cpu_ms_per_message: phase4Built,
      },
      null,
      2,
    ),
  );
  await pki.dispose();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
