import type { X509Certificate } from 'node:crypto';
import type {
  As4Answer,
  As4MessageCodec,
  As4SignerFacts,
  OpenedAs4Message,
  InboundAs4Message,
} from '../../application/ports/as4Reception.js';
import { readInvoiceResponse, type ReceivedInvoiceResponse } from '../../domain/document/ubl/invoiceResponse.js';
import { ebmsError, type EbmsError } from '../../domain/peppol/as4/ebmsError.js';
import {
  checkIssuerIsSender,
  checkPeppolHeader,
  checkSbdhAgainstHeader,
  checkSenderIsSigner,
} from '../../domain/peppol/as4/peppolProfile.js';
import { INVOICE_RESPONSE_DOCUMENT_TYPE } from '../../domain/peppol/smpDocuments.js';
import { parseUntrustedXml } from '../xml/xmlParser.js';
import { readMlsText } from '../xml/mlsText.js';
import { MLS_DOCUMENT_TYPE } from '../../domain/peppol/mls/messageLevelStatus.js';
import type { AccessPointIdentity } from './accessPointIdentity.js';
import { commonNameOf, oneLineName } from '../peppol/certificates.js';
import { openMessage, type InboundLimits, type OpenOptions } from './as4Inbound.js';
import { buildErrorSignal, buildReceipt } from './as4Signals.js';
import { readSbdh, type SbdhRead } from './sbdhXml.js';

export interface As4CodecOptions {
  limits: InboundLimits;
  /**
   * Reads the SBDH and the business document of a payload the signer sent; by default on the
   * calling thread. The service hands large payloads to its worker processes (XML parsing is the
   * one part of opening a message whose cost grows with the document in JavaScript).
   */
  readSbdh?: (payload: Buffer, senderAp: string) => Promise<SbdhRead>;
  /** Judges a signer's certificate (AP CA, validity, revocation): why it is refused, or null. */
  checkSigner: NonNullable<OpenOptions['checkSigner']>;
}

const refused = (errors: EbmsError[], messageId: string | null): OpenedAs4Message => ({
  ok: false,
  errors,
  messageId,
});

const signerFacts = (certificate: X509Certificate): As4SignerFacts => ({
  subject: oneLineName(certificate.subject),
  issuer: oneLineName(certificate.issuer),
  serialNumber: certificate.serialNumber,
  validFrom: new Date(certificate.validFrom).toISOString(),
  validTo: new Date(certificate.validTo).toISOString(),
});

/**
 * This access point's AS4 wire format on the message core (as4Inbound, as4Signals, sbdhXml): a
 * message is opened (MIME, decryption with our key, signature of a trusted AP), its header checked
 * against the Peppol AS4 profile and against the signer, its SBDH read and checked against the
 * header and against the business document's issuer (who sends must be who issues). Each refusal
 * carries the ebMS errors to answer with.
 *
 * An SBDH that breaks the Peppol Envelope Specification is EBMS:0003 ValueInconsistent (a permanent
 * refusal: the same message never becomes valid); an Invoice Response we cannot read is EBMS:0004.
 * The work is CPU on the event loop (a few ms per message for RSA and the digests): bounded by the
 * message size limit.
 */
export class As4MessageCodecAdapter implements As4MessageCodec {
  constructor(
    private readonly identity: AccessPointIdentity,
    private readonly options: As4CodecOptions,
  ) {}

  get seatId(): string {
    return this.identity.seatId;
  }

  async open(contentType: string, body: Buffer): Promise<OpenedAs4Message> {
    const opened = await openMessage(contentType, body, {
      own: this.identity.key,
      checkSigner: this.options.checkSigner,
      limits: this.options.limits,
    });
    if (!opened.ok) return refused([opened.error], opened.messageId);
    const content = opened.opened;
    if (content.kind !== 'user') {
      const id = content.signal.messageInfo.messageId;
      return refused(
        [
          ebmsError(
            'processingModeMismatch',
            id,
            'this endpoint takes UserMessages; signals are answered synchronously',
          ),
        ],
        id,
      );
    }
    const message = content.message;
    const id = message.messageInfo.messageId;
    const header = checkPeppolHeader(message, this.identity.seatId);
    if (header.length > 0) return refused(header, id);
    const senderAp = commonNameOf(content.signer);
    const notSigner = checkSenderIsSigner(message, senderAp);
    if (notSigner) return refused([notSigner], id);
    const payload = content.payloads[0]!.bytes;
    const sbdh = this.options.readSbdh ? await this.options.readSbdh(payload, senderAp!) : readSbdh(payload);
    if (!sbdh.ok)
      return refused([ebmsError('valueInconsistent', id, `the SBDH is not valid: ${sbdh.error}: ${sbdh.message}`)], id);
    const mismatch = checkSbdhAgainstHeader(message, sbdh.sbdh);
    if (mismatch.length > 0) return refused(mismatch, id);
    const notIssuer = checkIssuerIsSender(message, sbdh.sbdh, sbdh.issuer);
    if (notIssuer) return refused([notIssuer], id);
    let invoiceResponse: ReceivedInvoiceResponse | null = null;
    if (sbdh.sbdh.documentType.value === INVOICE_RESPONSE_DOCUMENT_TYPE) {
      const read = this.readInvoiceResponse(sbdh.businessDocument);
      if (!read.ok) return refused([ebmsError('other', id, `the Invoice Response cannot be read: ${read.reason}`)], id);
      invoiceResponse = read.response;
    }
    const inbound: InboundAs4Message = {
      messageId: id,
      message,
      sbdh: sbdh.sbdh,
      businessDocument: sbdh.businessDocument,
      invoiceResponse,
      mls: sbdh.sbdh.documentType.value === MLS_DOCUMENT_TYPE ? readMlsText(sbdh.businessDocument) : null,
      senderAp: senderAp!,
      signer: signerFacts(content.signer),
      references: content.references,
    };
    return { ok: true, message: inbound };
  }

  private readInvoiceResponse(xml: string): ReturnType<typeof readInvoiceResponse> {
    try {
      return readInvoiceResponse(parseUntrustedXml(xml).root);
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }

  receipt(message: InboundAs4Message): As4Answer {
    const built = buildReceipt(message.messageId, message.references, { own: this.identity.key });
    return { contentType: built.contentType, body: built.body };
  }

  error(errors: readonly EbmsError[], refToMessageId: string | null): As4Answer {
    const built = buildErrorSignal(errors, refToMessageId, { own: this.identity.key });
    return { contentType: built.contentType, body: built.body };
  }
}
