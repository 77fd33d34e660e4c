import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { DeliveryRequest, Transport, TransportOutcome } from '../../application/ports/transport.js';
import { inject, injectable } from '../../application/injection.js';
import { DocumentContent } from '../../application/documents/documentContent.js';
import type { EmailAttemptEvidence } from '../../domain/document/lifecycle/documentAggregate.js';

export interface EmailTransportOptions {
  /** SMTP server, e.g. smtp://user:pass@mail.example.com:587; null writes .eml files instead. */
  smtpUrl: string | null;
  from: string;
  /** Where .eml files go when no SMTP server is configured. */
  mailDir: string;
}
export const EMAIL_TRANSPORT_OPTIONS = Symbol('EmailTransportOptions');

/** An SMTP reply code 5xx is a permanent refusal; anything else (4xx, network) may pass later. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

const safeFileName = (messageId: string) => messageId.replace(/[^A-Za-z0-9@._-]/g, '_');

/**
 * The message as SMTP carries it: every line ending CRLF (the client would turn a bare CR or LF
 * into CRLF on the wire) and the last line ended. What is kept is then, byte for byte, what the
 * server receives once it has undone the dot-stuffing.
 */
const onTheWire = (message: Buffer): Buffer => {
  const text = message.toString('latin1').replace(/\r\n|\r|\n/g, '\r\n');
  return Buffer.from(text.endsWith('\r\n') ? text : `${text}\r\n`, 'latin1');
};

/**
 * Test-mode delivery: the UBL is mailed as an attachment to the tenant's test address. Every
 * attempt of one delivery carries the same Message-ID, so a mail repeated after a crash is
 * recognisable as the same message (and an .eml file is simply rewritten).
 *
 * The message is built once, to its bytes; those bytes are handed to SMTP as they are and, once the
 * server accepted them, stored (sealed with the tenant's personal-data key: they name the
 * recipient), so the evidence bundle's `transport/email.eml` is the very message sent, not a
 * rendering of it made again.
 */
@injectable()
export class EmailTransport implements Transport {
  readonly kind = 'email' as const;
  private readonly smtp: Transporter | null;

  constructor(
    @inject(EMAIL_TRANSPORT_OPTIONS) private readonly options: EmailTransportOptions,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'put'>,
  ) {
    this.smtp = options.smtpUrl
      ? nodemailer.createTransport({
          url: options.smtpUrl,
          pool: true,
          maxConnections: 10,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        } as never)
      : null;
  }

  message(request: DeliveryRequest): SendMailOptions {
    const { document: record } = request;
    const d = record.header;
    const kind = d.document_type.replace(/_/g, ' ').toLowerCase();
    return {
      from: this.options.from,
      // An address object, not a string: the mail library then never parses a list out of it.
      to: request.email ? { name: '', address: request.email } : undefined,
      subject: `[TEST MODE] ${kind} ${d.invoice_id ?? record.id} from ${d.vendor_name ?? 'unknown seller'}`,
      messageId: `<${request.messageId}>`,
      headers: { 'X-Document-Id': record.id, 'X-Test-Mode': 'true' },
      text: [
        'This account is in test mode: the document below was converted to UBL (Peppol BIS Billing 3.0)',
        'and e-mailed to this address instead of being transmitted over Peppol.',
        '',
        `Document: ${kind} ${d.invoice_id ?? ''} (id ${record.id})`,
        `Seller: ${d.vendor_name ?? ''}  ${request.senderPeppolId ?? ''}`,
        `Buyer: ${d.customer_name ?? ''}  ${request.receiverPeppolId ?? ''}`,
        `Total: ${d.invoice_total ?? ''} ${d.currency}`,
        '',
        `The UBL file is attached (${record.file_name}).`,
      ].join('\n'),
      // Bytes in base64, stated: nodemailer otherwise scans the text to choose an encoding.
      attachments: [
        {
          filename: record.file_name,
          content: Buffer.from(request.ubl, 'utf8'),
          contentType: 'application/xml',
          contentTransferEncoding: 'base64',
        },
      ],
    };
  }

  async deliver(request: DeliveryRequest): Promise<TransportOutcome> {
    const receiver = request.email ?? '';
    if (!receiver) return { outcome: 'permanent', receiver: 'unknown', error: 'No test-mode e-mail address' };
    const node = new MailComposer(this.message(request)).compile();
    const raw = onTheWire(await node.build());
    if (!this.smtp) await this.writeEml(request.messageId, raw);
    else
      try {
        await this.smtp.sendMail({ envelope: node.getEnvelope(), raw });
      } catch (error) {
        const text = `SMTP: ${(error as Error).message}`;
        return isPermanent(error)
          ? { outcome: 'permanent', receiver, error: text }
          : { outcome: 'retryable', receiver, error: text };
      }
    return { outcome: 'delivered', receiver, email: await this.kept(raw, request.document.tenant_id) };
  }

  /**
   * The e-mail that delivered the document, stored. Only once accepted: a refused attempt (its
   * recipient refused, the server unreachable) keeps nothing, so retries store no message each. Should
   * storing fail, the attempt throws and is retried: the mail goes again with the same Message-ID.
   */
  private async kept(raw: Buffer, tenantId: string): Promise<EmailAttemptEvidence> {
    return { message_ref: await this.content.put(raw, 'message/rfc822', tenantId) };
  }

  private async writeEml(messageId: string, raw: Buffer): Promise<void> {
    await mkdir(this.options.mailDir, { recursive: true });
    const file = path.join(this.options.mailDir, `${safeFileName(messageId)}.eml`);
    // Written whole, then renamed: a crash never leaves half a message.
    await writeFile(`${file}.tmp`, raw);
    await rename(`${file}.tmp`, file);
  }

  close(): void {
    this.smtp?.close();
  }
}
