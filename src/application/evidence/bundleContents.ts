import { createHash } from 'node:crypto';
import type { EventJson } from '../history/historyProofs.js';
import type { UblRef } from '../../domain/document/lifecycle/documentContent.js';

/*
 * What an evidence bundle holds and how its parts are named: shared by the service that writes a
 * bundle (evidenceBundle.ts) and the offline check that reads one (verifyBundle.ts), so that what
 * the check recomputes from the events is what the service wrote.
 */

export const BUNDLE_FORMAT = 'peppol-document-evidence';
export const BUNDLE_VERSION = 1;

/** The parts of a bundle, as a verification names them when one does not hold. */
export type EvidencePart =
  | 'archive'
  | 'manifest'
  | 'ubl'
  | 'ubl_part'
  | 'content'
  | 'attachment'
  | 'as4_message'
  | 'as4_receipt'
  | 'as4_signal'
  | 'email_message'
  | 'delivery_record'
  | 'invoice_response'
  | 'mls'
  | 'file'
  | 'events'
  | 'chain_segment'
  | 'checkpoint'
  | 'actors'
  | 'validation_report'
  | 'readme';

/** The parts that are stored files the events name by their SHA-256 (content-addressed). */
export const STORED_PARTS: ReadonlySet<EvidencePart> = new Set([
  'ubl_part',
  'content',
  'attachment',
  'as4_message',
  'as4_receipt',
  'as4_signal',
  'email_message',
  'invoice_response',
  'mls',
  'file',
]);

export interface ManifestFile {
  path: string;
  sha256: string;
  size: number;
  part: EvidencePart;
  /** What it is, in words. */
  what: string;
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  v: typeof BUNDLE_VERSION;
  document_id: string;
  direction: string;
  state: string;
  /** How it travelled: peppol-as4, internal (to a tenant of this instance), email (test mode), or none yet. */
  transport: 'peppol-as4' | 'internal' | 'email' | 'none';
  created_at: string;
  /** The UBL file and the stored parts it is put together from (the event's `ubl_ref`). */
  ubl: { path: string; ubl_ref: UblRef } | null;
  /** Each AS4 message with the receipt that answered it, and the message's HTTP Content-Type. */
  as4: Array<{ message: string; receipt: string; content_type: string }>;
  /** Every file but this one and SHA256SUMS. */
  files: ManifestFile[];
  /**
   * The key (base64) that opens each stored file sealed with its tenant's personal-data key, by
   * path: that file alone (docs/operating/retention-and-erasure.md); the file is as stored, sealed.
   */
  opening_keys?: Record<string, string>;
}

export const PATHS = {
  manifest: 'manifest.json',
  sums: 'SHA256SUMS',
  readme: 'README.txt',
  ubl: 'document/invoice.xml',
  events: 'history/events.jsonl',
  proofs: 'history/proofs.json',
  actors: 'history/actors.json',
  delivery: 'transport/delivery-record.json',
  /** The e-mail the document's last e-mail attempt sent (RFC 5322); an earlier one is transport/email-<position>.eml. */
  email: 'transport/email.eml',
  validation: 'validation/report.json',
} as const;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A stored file named in an event's data, with where in the data it is named. */
export interface NamedBlob {
  sha256: string;
  mediaType: string | null;
  /** The members leading to it, e.g. ['as4', 'receipt', 'ref']. */
  path: string[];
  /** A file name it had, when the data gives one (attachments). */
  fileName: string | null;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Every stored file an event's data names (an object with a `sha256` of 64 hex digits), in order. */
export function namedBlobs(data: unknown, path: string[] = [], found: NamedBlob[] = []): NamedBlob[] {
  if (Array.isArray(data)) data.forEach((item, i) => namedBlobs(item, [...path, String(i)], found));
  else if (data !== null && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    if (typeof record.sha256 === 'string' && HEX64.test(record.sha256))
      found.push({
        sha256: record.sha256,
        mediaType: typeof record.media_type === 'string' ? record.media_type : null,
        path,
        fileName: null,
      });
    for (const [key, value] of Object.entries(record)) {
      if (key === 'sha256') continue;
      const inner = namedBlobs(value, [...path, key], []);
      // An attachment's bytes are `content`; its name is beside it.
      if (key === 'content' && typeof record.file_name === 'string')
        for (const blob of inner) blob.fileName = record.file_name;
      found.push(...inner);
    }
  }
  return found;
}

/** Which part of a bundle a named file is, from where the event names it. */
export function partOf(blob: Pick<NamedBlob, 'path'>): EvidencePart {
  const path = blob.path;
  const has = (key: string) => path.includes(key);
  if (has('ubl_ref')) return 'ubl_part';
  if (has('document_ref')) return 'content';
  if (has('receipt_ref') || (has('receipt') && has('ref'))) return 'as4_receipt';
  if (has('email') && has('message_ref')) return 'email_message';
  if (has('signal_ref')) return 'as4_signal';
  if (has('message_ref')) return 'as4_message';
  if (has('invoice_response_ref')) return 'invoice_response';
  if (has('mls_ref')) return 'mls';
  if (has('attachment') || has('attachments')) return 'attachment';
  return 'file';
}

const EXTENSIONS: Record<string, string> = {
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'application/soap+xml': 'xml',
  'message/rfc822': 'eml',
};

const FOLDERS: Record<EvidencePart, string> = {
  ubl_part: 'document/stored-parts',
  content: 'document',
  attachment: 'document/attachments',
  as4_message: 'transport',
  as4_receipt: 'transport',
  as4_signal: 'transport',
  email_message: 'transport',
  invoice_response: 'responses',
  mls: 'responses',
  file: 'files',
  archive: '',
  manifest: '',
  ubl: '',
  delivery_record: '',
  events: '',
  chain_segment: '',
  checkpoint: '',
  actors: '',
  validation_report: '',
  readme: '',
};

const WHAT: Partial<Record<EvidencePart, string>> = {
  ubl_part: "a stored part of the UBL (its skeleton, or an attachment's bytes it embeds)",
  content: 'the document as stored (JSON)',
  as4_message: 'the AS4 message as sent or received (MIME, multipart/related)',
  as4_receipt: 'the signed AS4 receipt',
  as4_signal: 'an AS4 error signal',
  email_message: 'an e-mail as sent (RFC 5322) by an attempt before the last',
  invoice_response: 'an Invoice Response',
  mls: 'a Message Level Status',
  file: 'a stored file the events name',
};

/** A safe file name: letters, digits, dot, dash, underscore. */
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);

/** An e-mail an attempt sent, as the events name it, with the UBL the document had then. */
export interface SentEmail {
  /** The position of the attempt (DeliveryAttempted) that sent it. */
  position: string;
  sha256: string;
  /** Where it is in the bundle. */
  path: string;
  /** The document's UBL when it was sent (the last `ubl_ref` the events named before); null when none did. */
  ubl: UblRef | null;
}

/**
 * Every e-mail the document's attempts sent (test mode), from its events in log order: the last
 * at `transport/email.eml`. The service keeps the e-mail of the attempt that delivered, and a
 * document is delivered once, so there is one; should events name more, each earlier one is at
 * `transport/email-<position>.eml`. Derived from the events alone, so an offline check finds them.
 */
export function sentEmails(events: readonly EventJson[]): SentEmail[] {
  let ubl: UblRef | null = null;
  const sent: Array<Omit<SentEmail, 'path'>> = [];
  for (const event of events) {
    const data = event.data as { ubl_ref?: UblRef; email?: { message_ref?: { sha256?: unknown } } };
    if (data.ubl_ref) ubl = data.ubl_ref;
    const sha256 = data.email?.message_ref?.sha256;
    if (event.type !== 'DeliveryAttempted' || typeof sha256 !== 'string' || !HEX64.test(sha256)) continue;
    // The same bytes sent twice are one file, where the later attempt puts it.
    const before = sent.findIndex((e) => e.sha256 === sha256);
    if (before >= 0) sent.splice(before, 1);
    sent.push({ position: event.position, sha256, ubl });
  }
  return sent.map((e, i) => ({
    ...e,
    path: i === sent.length - 1 ? PATHS.email : `transport/email-${e.position}.eml`,
  }));
}

/**
 * Where a stored file goes in a bundle, and what it is in words; `emails` (sentEmails by digest)
 * places the e-mails sent.
 */
export function placeOf(
  blob: NamedBlob,
  emails: ReadonlyMap<string, SentEmail> = new Map(),
): { path: string; part: EvidencePart; what: string } {
  const email = emails.get(blob.sha256);
  if (email)
    return {
      path: email.path,
      part: 'email_message',
      what: email.path === PATHS.email ? 'the e-mail as sent (RFC 5322, as handed to SMTP)' : WHAT.email_message!,
    };
  const part = partOf(blob);
  const ext = blob.mediaType ? (EXTENSIONS[blob.mediaType.split(';')[0]!.trim()] ?? 'bin') : 'bin';
  const name =
    part === 'attachment' && blob.fileName
      ? `${blob.sha256.slice(0, 12)}-${safe(blob.fileName)}`
      : `${blob.sha256}.${ext}`;
  const what =
    part === 'attachment'
      ? blob.mediaType === 'application/pdf' || blob.fileName?.toLowerCase().endsWith('.pdf')
        ? `a PDF as stored${blob.fileName ? ` (${blob.fileName})` : ''}`
        : `an attachment as stored${blob.fileName ? ` (${blob.fileName})` : ''}`
      : WHAT[part]!;
  return { path: `${FOLDERS[part]}/${name}`, part, what };
}

/**
 * How the document travelled, from its events: each delivery (requested, attempts, outcome) or its
 * reception. Derived from the events alone, so an offline check recomputes it.
 */
export function deliveryRecord(events: readonly EventJson[]): Record<string, unknown> {
  const deliveries: Array<Record<string, unknown>> = [];
  let received: Record<string, unknown> | null = null;
  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    switch (event.type) {
      case 'SendRequested':
        deliveries.push({
          delivery_id: data.delivery_id,
          message_id: data.message_id,
          transport: data.transport,
          sender_peppol_id: data.sender_peppol_id ?? null,
          receiver_peppol_id: data.receiver_peppol_id ?? null,
          email: data.email ?? null,
          requested_at: data.requested_at,
          requested_position: event.position,
          attempts: [],
          outcome: null,
        });
        break;
      case 'DeliveryAttempted': {
        const delivery = deliveries.find((d) => d.delivery_id === data.delivery_id);
        (delivery?.attempts as unknown[] | undefined)?.push({
          position: event.position,
          attempt: data.attempt,
          receiver: data.receiver,
          outcome: data.outcome,
          error: data.error ?? null,
          started_at: data.started_at,
          as4_message_id: (data.as4 as { message_id?: string } | undefined)?.message_id ?? null,
          // Only on attempts that kept the e-mail they sent, so that a bundle made before says the same.
          ...(emailOf(data) ? { email_sha256: emailOf(data) } : {}),
        });
        break;
      }
      case 'DocumentSent':
      case 'DocumentFailed': {
        const delivery = deliveries.find((d) => d.delivery_id === data.delivery_id);
        if (delivery)
          delivery.outcome = {
            position: event.position,
            type: event.type,
            at: data.sent_at ?? data.failed_at,
            reason: data.reason ?? null,
          };
        break;
      }
      case 'DocumentReceived': {
        const sender = data.sender as Record<string, unknown>;
        received = {
          position: event.position,
          message_id: data.message_id,
          receiver_peppol_id: data.receiver_peppol_id,
          sender_peppol_id: sender.peppol_id ?? null,
          // Inside this instance: the sender's own document; from another access point: its seat id.
          from_this_instance: sender.document_id !== null && sender.document_id !== undefined,
          sender_access_point: (sender.as4 as { sender_ap?: string } | null | undefined)?.sender_ap ?? null,
          received_at: data.received_at,
        };
        break;
      }
    }
  }
  return { deliveries, received };
}

const emailOf = (data: Record<string, unknown>) =>
  (data.email as { message_ref?: { sha256?: string } } | undefined)?.message_ref?.sha256;

/** The transport a document travelled by, from its delivery record. */
export function transportOf(record: Record<string, unknown>, hasAs4: boolean): Manifest['transport'] {
  if (hasAs4) return 'peppol-as4';
  const deliveries = record.deliveries as Array<{ transport: string }>;
  const last = deliveries[deliveries.length - 1];
  if (last?.transport === 'email') return 'email';
  if (last || record.received) return 'internal';
  return 'none';
}

/** SHA256SUMS as `sha256sum -c` reads it. */
export function sha256Sums(files: ReadonlyMap<string, Uint8Array>): string {
  return [...files.entries()].map(([path, bytes]) => `${sha256Hex(bytes)}  ${path}\n`).join('');
}
