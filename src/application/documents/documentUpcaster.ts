import type { RecordedEvent } from '../ports/eventStore.js';
import type { Upcaster } from '../upcastingEventStore.js';
import type { DocumentJson } from '../../domain/document/invoice/documentJson.js';
import type {
  AttachmentAdded,
  AttachmentRemoved,
  DocumentCreated,
  DocumentReceived,
  InboundSender,
  ResponseCode,
  ResponseReceived,
  StoredAttachment,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { DocumentContent } from './documentContent.js';
import { inject, injectable } from '../injection.js';

/*
 * Document events as they were recorded before their payloads went to the blob store: the whole
 * document (`document`), its UBL (`ubl`), attachments' base64 (`file_data`), the Invoice
 * Response's XML (`invoice_response`). The oldest AttachmentAdded and AttachmentRemoved carry no
 * `ubl` at all (the UBL did not change with attachments then).
 */
interface OldAttachment {
  id: string;
  file_name: string;
  file_type: string;
  file_size: number;
  file_data?: string;
}
interface OldCreated {
  document_id: string;
  tenant_id: string;
  source: DocumentCreated['data']['source'];
  document?: DocumentJson;
  ubl?: string;
  file_name: string;
  created_at: string;
}
interface OldReceived {
  document_id: string;
  tenant_id: string;
  document?: DocumentJson;
  ubl?: string;
  file_name: string;
  message_id: string;
  receiver_peppol_id: string;
  sender: InboundSender;
  received_at: string;
}
interface OldAttachmentAdded {
  document_id: string;
  attachment: OldAttachment;
  ubl?: string;
  added_at: string;
}
interface OldAttachmentRemoved {
  document_id: string;
  attachment_id: string;
  ubl?: string;
  removed_at: string;
}
interface OldResponseReceived {
  document_id: string;
  code: ResponseCode;
  reason: string | null;
  responder_peppol_id: string | null;
  invoice_response?: string;
  received_at: string;
}

/** Events given today's shape, by id: an old stream read again (each command reads it) is not stored again. */
const REMEMBERED = 10_000;

const has = (data: unknown, key: string): boolean => typeof data === 'object' && data !== null && key in data;

/**
 * Document events of the old shapes read in today's: their payloads are put in the blob store
 * (idempotently: content-addressed, the same bytes are the same blob however often they are put)
 * and replaced by references, as the commands do now. A document created before the service
 * owned its lifecycle keeps the state and direction it was recorded in (`recorded_lifecycle`).
 */
@injectable()
export class DocumentUpcaster implements Upcaster {
  private readonly remembered = new Map<string, unknown>();

  constructor(@inject(DocumentContent) private readonly content: DocumentContent) {}

  isOld(event: RecordedEvent): boolean {
    const data = event.data;
    switch (event.type) {
      case 'DocumentCreated':
      case 'DocumentReceived':
        return !has(data, 'document_ref');
      case 'AttachmentAdded':
        return !has((data as { attachment?: unknown }).attachment, 'content');
      case 'AttachmentRemoved':
        return !has(data, 'ubl_ref');
      case 'ResponseReceived':
        return !has(data, 'invoice_response_ref');
      default:
        return false;
    }
  }

  async upcast(event: RecordedEvent, whole: () => Promise<RecordedEvent>): Promise<RecordedEvent> {
    let data = this.remembered.get(event.id);
    if (data === undefined) {
      const full = this.hasPayloads(event) ? event : await whole();
      data = await this.upcastData(full);
      if (this.remembered.size >= REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
      this.remembered.set(event.id, data);
    }
    return { ...event, data };
  }

  /** Whether the event was read with its payloads (a lean read leaves them out). */
  private hasPayloads(event: RecordedEvent): boolean {
    const data = event.data;
    switch (event.type) {
      case 'DocumentCreated':
      case 'DocumentReceived':
        return has(data, 'document') && has(data, 'ubl');
      case 'AttachmentAdded':
        return has((data as OldAttachmentAdded).attachment, 'file_data');
      case 'AttachmentRemoved':
        return has(data, 'ubl');
      case 'ResponseReceived':
        return has(data, 'invoice_response');
      default:
        return true;
    }
  }

  private async upcastData(event: RecordedEvent): Promise<unknown> {
    switch (event.type) {
      case 'DocumentCreated':
        return this.created(event.data as OldCreated);
      case 'DocumentReceived':
        return this.received(event.data as OldReceived);
      case 'AttachmentAdded':
        return this.attachmentAdded(event.data as OldAttachmentAdded);
      case 'AttachmentRemoved':
        return this.attachmentRemoved(event.data as OldAttachmentRemoved);
      case 'ResponseReceived':
        return this.responseReceived(event.data as OldResponseReceived);
      default:
        return event.data;
    }
  }

  private async stored(document: DocumentJson | undefined, ubl: string | undefined) {
    if (!document || ubl === undefined)
      throw new Error('a document event recorded before the blob store has no document or UBL');
    const [stored, ubl_ref] = await Promise.all([
      this.content.storeDocument(document),
      this.content.attachmentKeys(document).then((keys) => this.content.storeUbl(ubl, keys)),
    ]);
    return { ...stored, ubl_ref };
  }

  private async created(old: OldCreated): Promise<DocumentCreated['data']> {
    const { document, ubl, ...facts } = old;
    const stored = await this.stored(document, ubl);
    // The lifecycle was taken from the content then; a document recorded as anything but an
    // outbound draft keeps what it was recorded as.
    const { state, direction } = document!;
    return {
      ...facts,
      ...stored,
      ...(state !== 'DRAFT' || direction !== 'OUTBOUND' ? { recorded_lifecycle: { state, direction } } : {}),
    };
  }

  private async received(old: OldReceived): Promise<DocumentReceived['data']> {
    const { document, ubl, ...facts } = old;
    return { ...facts, ...(await this.stored(document, ubl)) };
  }

  private async attachmentAdded(old: OldAttachmentAdded): Promise<AttachmentAdded['data']> {
    const { file_data, ...facts } = old.attachment;
    const bytes = file_data ? Buffer.from(file_data, 'base64') : null;
    const attachment: StoredAttachment = {
      ...facts,
      content: bytes ? await this.content.put(bytes, facts.file_type) : null,
    };
    const { ubl, ...rest } = old;
    if (ubl === undefined) return { ...rest, attachment };
    const stored = new Set(attachment.content ? [attachment.content.sha256] : []);
    return { ...rest, attachment, ubl_ref: await this.content.storeUbl(ubl, stored) };
  }

  private async attachmentRemoved(old: OldAttachmentRemoved): Promise<AttachmentRemoved['data']> {
    const { ubl, ...rest } = old;
    return ubl === undefined ? rest : { ...rest, ubl_ref: await this.content.storeUbl(ubl) };
  }

  private async responseReceived(old: OldResponseReceived): Promise<ResponseReceived['data']> {
    const { invoice_response, ...rest } = old;
    if (invoice_response === undefined)
      throw new Error('a ResponseReceived recorded before the blob store has no Invoice Response');
    return { ...rest, invoice_response_ref: await this.content.put(Buffer.from(invoice_response), 'application/xml') };
  }
}
