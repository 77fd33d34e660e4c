import http from 'node:http';
import https from 'node:https';
import type { XMLElement } from 'libxmljs';
import { SmlRefusedError, type SmlPublisher } from '../../application/ports/peppolNetwork.js';
import { escapeAttribute, escapeText } from '../../domain/xml/xmlWriter.js';
import { IDS_NS } from '../../domain/peppol/smpDocuments.js';
import { PARTICIPANT_SCHEME } from '../../domain/peppol/participantId.js';
import { parseRemoteXml } from './remoteXml.js';

const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const LOCATOR_NS = 'http://busdox.org/serviceMetadata/locator/1.0/';
const ACTION_BASE = 'http://busdox.org/serviceMetadata/ManageBusinessIdentifierService/1.0/';

export interface SmlSettings {
  /** The SML's ManageBusinessIdentifierService endpoint (SOAP 1.1). */
  url: string;
  /** This SMP's id at the SML. */
  smpId: string;
  /** TLS client certificate and key (PEM): the SML authenticates SMPs by their Peppol SMP certificate. */
  clientCertificatePem: string | null;
  clientKeyPem: string | null;
  timeoutMs: number;
}

/** Participants created and deleted at the SML, with the SML's SOAP interface (Peppol SML 1.x, chapter 3.1). */
export class SmlSoapPublisher implements SmlPublisher {
  readonly enabled = true;

  constructor(private readonly settings: SmlSettings) {}

  create(participantId: string): Promise<void> {
    return this.call('createIn', 'CreateParticipantIdentifier', participantId);
  }

  async delete(participantId: string): Promise<void> {
    try {
      await this.call('deleteIn', 'DeleteParticipantIdentifier', participantId);
    } catch (error) {
      // Already gone is what we wanted.
      if (error instanceof SmlRefusedError && error.faultCode === 'not_found') return;
      throw error;
    }
  }

  private async call(action: string, element: string, participantId: string): Promise<void> {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>' +
      `<S:Envelope xmlns:S="${SOAP_NS}"><S:Body>` +
      `<lrs:${element} xmlns:lrs="${LOCATOR_NS}" xmlns:ids="${IDS_NS}">` +
      `<lrs:ServiceMetadataPublisherID>${escapeText(this.settings.smpId)}</lrs:ServiceMetadataPublisherID>` +
      `<ids:ParticipantIdentifier scheme="${escapeAttribute(PARTICIPANT_SCHEME)}">${escapeText(participantId)}</ids:ParticipantIdentifier>` +
      `</lrs:${element}></S:Body></S:Envelope>`;
    const response = await this.post(body, `${ACTION_BASE}:${action}`);
    if (response.status >= 200 && response.status < 300) return;
    throw faultOf(response.status, response.body);
  }

  private post(body: string, soapAction: string): Promise<{ status: number; body: string }> {
    const url = new URL(this.settings.url);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: {
            'Content-Type': 'text/xml; charset=utf-8',
            SOAPAction: `"${soapAction}"`,
            'Content-Length': Buffer.byteLength(body),
          },
          timeout: this.settings.timeoutMs,
          ...(url.protocol === 'https:' && this.settings.clientCertificatePem && this.settings.clientKeyPem
            ? { cert: this.settings.clientCertificatePem, key: this.settings.clientKeyPem }
            : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('timeout', () =>
        request.destroy(new Error(`SML did not answer within ${this.settings.timeoutMs} ms`)),
      );
      request.on('error', reject);
      request.end(body);
    });
  }
}

/** A SOAP fault as an SmlRefusedError; the fault detail's element name tells its kind (NotFoundFault, …). */
function faultOf(status: number, body: string): SmlRefusedError {
  let message = `SML answered HTTP ${status}`;
  let code: SmlRefusedError['faultCode'] = 'other';
  try {
    const doc = parseRemoteXml(body);
    const fault = doc.get('//S:Fault', { S: SOAP_NS }) as XMLElement | null;
    if (fault) {
      const faultString = (fault.get('faultstring') as XMLElement | null)?.text().trim();
      const detail = (fault.get('detail/*') as XMLElement | null)?.name() ?? '';
      if (faultString) message = `SML refused: ${faultString}`;
      if (/NotFound/i.test(detail) || /not.?found/i.test(faultString ?? '')) code = 'not_found';
      else if (/Unauthori[sz]ed/i.test(detail)) code = 'unauthorized';
      else if (/already|exist/i.test(faultString ?? '')) code = 'conflict';
    }
  } catch {
    // Not XML: the status line is all we know.
  }
  return new SmlRefusedError(message, code);
}

/** When SML_URL is not configured: registering only changes this instance's own registry. */
export const smlPublishingOff: SmlPublisher = {
  enabled: false,
  create: async () => undefined,
  delete: async () => undefined,
};
