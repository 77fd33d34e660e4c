/**
 * The AS4 message core in one process, per message (in-process loops, no HTTP, no database): a
 * sender builds a Peppol UserMessage for an invoice (SBDH, gzip, sign, encrypt), the receiver opens
 * it (MIME, decrypt, verify, decompress, SBDH) and signs a receipt, the sender checks the receipt.
 * The figures are CPU on one core; the service does this work once per document on each side.
 *   npm run bench:as4-core      Options (env): ROUNDS (300)
 */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { readSignalResponse } from '../src/infrastructure/as4/as4Signals.js';
import { As4MessageCodecAdapter } from '../src/infrastructure/as4/as4MessageCodec.js';
import { DEFAULT_INBOUND_LIMITS } from '../src/infrastructure/as4/as4Inbound.js';
import { loadAccessPointIdentity } from '../src/infrastructure/as4/accessPointIdentity.js';
import { loadPeppolConfig } from '../src/infrastructure/peppolConfig.js';
import { writeUbl } from '../src/domain/document/ubl/ublWriter.js';
import { decodeDocumentInput } from '../src/http/codecs/documentCodec.js';
import { invoiceWithLines } from './benchDocuments.js';
import { makeTestPki } from '../test/support/testPki.js';
import { buildAs4, invoiceSbdh } from '../test/support/as4Sender.js';

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
  const decoded = decodeDocumentInput(
    { ...invoiceWithLines(10), vendor_peppol_id: '0208:0451234595', customer_peppol_id: '0208:0987654394' },
    { maxLines: 10, maxAttachments: 50, maxRenderedLines: 10 },
  );
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors));
  const ubl = writeUbl(decoded.value);
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
  console.log(
    JSON.stringify(
      {
        rounds,
        ubl_bytes: Buffer.byteLength(ubl),
        cpu_ms_per_message: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, +(v / rounds).toFixed(2)])),
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
