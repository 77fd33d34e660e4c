import { createHash } from 'node:crypto';
import type { DocumentWithContent } from '../readModels/documentView.js';
import { BLOB_STORE, blobMediaType, DEFAULT_BLOB_MEDIA_TYPE, type BlobStore } from '../ports/blobStore.js';
import { inject, injectable } from '../injection.js';
import type { DocumentJson } from '../../domain/document/invoice/documentJson.js';
import type { DocumentRecord, StoredAttachment } from '../../domain/document/lifecycle/documentAggregate.js';
import {
  headerOf,
  type ContentRef,
  type DocumentHeader,
  type UblRef,
} from '../../domain/document/lifecycle/documentContent.js';
import { base64Length, canonicalBytes, cutBinaries, putBack, type CutBinary } from './storedUbl.js';
import { isSealedPayload, PersonalDataVault, type Sealer } from '../personalData/personalDataVault.js';
import { DOCUMENT_PERSONAL_FIELDS, erasedDocument } from '../../domain/personalData/personalFields.js';

/** A document's record with its content, for what shows or writes the document itself. */
export type { DocumentWithContent };

type DocumentAttachment = DocumentJson['attachments'][number];

/**
 * An attachment as the stored content keeps it: its bytes are the blob `file_blob`, and its
 * base64 is left out when the blob gives exactly that text back (else it stays, as given).
 */
type ContentAttachment = DocumentAttachment & { file_blob?: CutBinary };

/** What a stored document's events name: its content, its attachments, its facts. */
export interface StoredDocument {
  document_ref: ContentRef;
  attachments: StoredAttachment[];
  header: DocumentHeader;
}

/** A UBL written with stand-ins for its attachments' base64 (see `documentToWrite`). */
export interface UblTemplate {
  text: string;
  /** The stand-ins and the blobs they stand for. */
  placeholders: ReadonlyMap<string, CutBinary>;
  /** How many binaries the text carries as stand-ins. */
  count: number;
  /** What the stand-ins add to the text's size once the base64 is put back. */
  extraBytes: number;
}

const JSON_TYPE = 'application/json';
const XML_TYPE = 'application/xml';

/** A media type a reference can carry: the one given when it is one, else octet-stream. */
function mediaTypeOf(type: string | null | undefined): string {
  try {
    return blobMediaType(type ?? undefined);
  } catch {
    return DEFAULT_BLOB_MEDIA_TYPE;
  }
}

/** The attachment id the lifecycle uses: its own, or for one without, its file name. */
const attachmentIdOf = (a: DocumentAttachment): string => a.id ?? a.file_name;

const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * A document's payloads in the blob store: its content (JSON), its UBL (as a skeleton and the
 * attachments' blobs), each attachment's bytes, and Invoice Responses. Every payload is stored
 * before the event that names it is appended; a payload left by an append that then failed is
 * harmless (content-addressed: it is the same blob whoever stores those bytes next, and nothing
 * names it meanwhile).
 *
 * A tenant's document payloads are sealed with its personal-data key (personalDataVault.ts) when
 * the tenant is named: the UBL and the attachments whole, the content's personal fields one by one
 * (the rest of the content stays readable after an erasure: amounts, lines, dates, parties). The
 * blob's key is the SHA-256 of the sealed bytes (what is stored, and what the history chain
 * covers); a reference's size is the content's. Reading opens what is sealed.
 */
@injectable()
export class DocumentContent {
  constructor(
    @inject(BLOB_STORE) private readonly blobs: BlobStore,
    @inject(PersonalDataVault) private readonly vault?: PersonalDataVault,
  ) {}

  /** Stores a payload, sealed with the tenant's key when `tenantId` is given. */
  async put(bytes: Uint8Array, mediaType: string | null, tenantId?: string): Promise<ContentRef> {
    return this.putSealed(bytes, mediaType, await this.sealerOf(tenantId));
  }

  private async putSealed(bytes: Uint8Array, mediaType: string | null, sealer: Sealer | null): Promise<ContentRef> {
    const ref = await this.blobs.put(sealer ? sealer.bytes(bytes) : bytes, { mediaType: mediaTypeOf(mediaType) });
    return { sha256: ref.sha256, size: bytes.length, media_type: ref.mediaType };
  }

  private async sealerOf(tenantId: string | undefined): Promise<Sealer | null> {
    return tenantId !== undefined && this.vault ? this.vault.sealer(tenantId) : null;
  }

  /** The bytes of a payload an event names (evidence, responses). */
  blob(ref: ContentRef): Promise<Buffer> {
    return this.bytes(ref.sha256);
  }

  /**
   * A blob as stored (sealed when it holds a tenant's personal data) with the key that opens it
   * alone (null when not sealed): what an evidence bundle carries, so the bytes the history chain
   * names can be checked, and opened, offline.
   */
  async storedBlob(ref: ContentRef): Promise<{ bytes: Buffer; openingKey: Buffer | null }> {
    const bytes = await this.blobs.get(ref.sha256);
    if (!bytes) throw new Error(`blob ${ref.sha256} is missing from the blob store`);
    const openingKey = this.vault && isSealedPayload(bytes) ? await this.vault.openingKey(bytes) : null;
    return { bytes, openingKey };
  }

  /**
   * A blob that must be there: one an event names. Its absence is a fault of the store, not of the
   * caller. Opened when sealed (PersonalDataErasedError, a 410, when its tenant's key was destroyed).
   */
  private async bytes(sha256: string): Promise<Buffer> {
    const bytes = await this.blobs.get(sha256);
    if (!bytes) throw new Error(`blob ${sha256} is missing from the blob store`);
    return this.vault ? this.vault.payload(bytes) : bytes;
  }

  /**
   * Stores a document's content and each attachment's bytes. The content keeps every field of
   * the document; an attachment's base64 is replaced by its blob's key, so the bytes are kept once.
   * With `tenantId`, sealed with its key.
   */
  async storeDocument(document: DocumentJson, tenantId?: string): Promise<StoredDocument> {
    const sealer = await this.sealerOf(tenantId);
    const puts: Array<Promise<unknown>> = [];
    const attachments: StoredAttachment[] = [];
    const contentAttachments: ContentAttachment[] = [];
    for (const a of document.attachments) {
      let content: ContentRef | null = null;
      let kept: ContentAttachment = a;
      if (a.file_data) {
        const canonical = canonicalBytes(a.file_data);
        // Decoded as the attachment download always decoded it (Node's base64, lenient).
        const bytes = canonical ?? Buffer.from(a.file_data, 'base64');
        content = this.sealedRefOf(bytes, a.file_type, sealer);
        puts.push(this.putSealed(bytes, a.file_type, sealer));
        const file_blob = { sha256: content.sha256, size: content.size };
        kept = canonical ? { ...a, file_data: null, file_blob } : { ...a, file_blob };
      }
      contentAttachments.push(kept);
      attachments.push({
        id: attachmentIdOf(a),
        file_name: a.file_name,
        file_type: a.file_type ?? 'application/octet-stream',
        file_size: a.file_size ?? 0,
        content,
      });
    }
    // The personal fields sealed one by one: the rest of the content outlives an erasure.
    const kept: Record<string, unknown> = { ...document, attachments: contentAttachments };
    if (sealer)
      for (const field of DOCUMENT_PERSONAL_FIELDS) {
        const value = kept[field];
        if (typeof value === 'string' && value !== '') kept[field] = sealer.value(value);
      }
    const json = Buffer.from(JSON.stringify(kept));
    const [document_ref] = await Promise.all([this.putSealed(json, JSON_TYPE, null), ...puts]);
    return { document_ref: document_ref as ContentRef, attachments, header: headerOf(document) };
  }

  /** The keys of a document's attachments' bytes (what storeDocument stores for the tenant). */
  async attachmentKeys(document: DocumentJson, tenantId?: string): Promise<Set<string>> {
    const sealer = await this.sealerOf(tenantId);
    const keys = new Set<string>();
    for (const a of document.attachments) {
      if (a.file_data)
        keys.add(
          this.sealedRefOf(canonicalBytes(a.file_data) ?? Buffer.from(a.file_data, 'base64'), null, sealer).sha256,
        );
    }
    return keys;
  }

  /** The reference `put` will answer for these bytes (sealed for the tenant when given), without storing them. */
  async refOf(bytes: Uint8Array, mediaType: string | null, tenantId?: string): Promise<ContentRef> {
    return this.sealedRefOf(bytes, mediaType, await this.sealerOf(tenantId));
  }

  private sealedRefOf(bytes: Uint8Array, mediaType: string | null, sealer: Sealer | null): ContentRef {
    return {
      sha256: sha256Of(sealer ? sealer.bytes(bytes) : bytes),
      size: bytes.length,
      media_type: mediaTypeOf(mediaType),
    };
  }

  /**
   * The stored content, its personal fields opened (ERASED once the tenant's key is destroyed).
   * Attachments kept by their blob have `file_data` null here: nothing that reads the content as a
   * document (showing, rendering, routing) uses the bytes; writing the UBL again names them by
   * their blobs (`documentToWrite`).
   */
  async document(ref: ContentRef): Promise<DocumentJson> {
    const document = JSON.parse((await this.bytes(ref.sha256)).toString('utf8')) as Record<string, unknown>;
    if (this.vault)
      for (const field of DOCUMENT_PERSONAL_FIELDS) {
        const value = document[field];
        if (typeof value === 'string') document[field] = await this.vault.value(value);
      }
    return document as unknown as DocumentJson;
  }

  /**
   * A document with its content. A document recorded before its tenant's personal data was erased
   * shows its personal fields as erased, also when they were recorded in the clear (before they
   * were sealed).
   */
  async withContent(record: DocumentRecord): Promise<DocumentWithContent> {
    const document = await this.document(record.document_ref);
    return { ...record, document: (await this.erasedSince(record)) ? erasedDocument(document) : document };
  }

  /** Whether the tenant's personal data was erased after this document was recorded. */
  async erasedSince(record: Pick<DocumentRecord, 'tenant_id' | 'created_at'>): Promise<boolean> {
    const erasedAt = this.vault ? await this.vault.erasedAt(record.tenant_id) : null;
    return erasedAt !== null && record.created_at < erasedAt;
  }

  /**
   * Stores a UBL: its skeleton, and the bytes of each binary cut from it (unless `stored` has them
   * already), sealed with the tenant's key when `tenantId` is given.
   */
  async storeUbl(text: string, stored: ReadonlySet<string> = new Set(), tenantId?: string): Promise<UblRef> {
    const sealer = await this.sealerOf(tenantId);
    const puts: Array<Promise<unknown>> = [];
    const { text: skeleton, embeds } = cutBinaries(text, (base64) => {
      const bytes = canonicalBytes(base64);
      if (!bytes) return null;
      const { sha256 } = this.sealedRefOf(bytes, null, sealer);
      if (!stored.has(sha256)) puts.push(this.putSealed(bytes, null, sealer));
      return { sha256, size: bytes.length };
    });
    const [ref] = await Promise.all([this.putSealed(Buffer.from(skeleton), XML_TYPE, sealer), ...puts]);
    return { skeleton: ref as ContentRef, embeds, size: Buffer.byteLength(text) };
  }

  /** The UBL, put back together. */
  async ubl(ref: UblRef): Promise<string> {
    const skeleton = await this.bytes(ref.skeleton.sha256);
    if (ref.embeds.length === 0) return skeleton.toString('utf8');
    const unique = [...new Set(ref.embeds.map((e) => e.sha256))];
    const binaries = new Map(
      await Promise.all(unique.map(async (sha256) => [sha256, await this.bytes(sha256)] as const)),
    );
    return putBack(skeleton, ref.embeds, (e) => Buffer.from(binaries.get(e.sha256)!.toString('base64'))).toString(
      'utf8',
    );
  }

  /**
   * The UBL with each binary's blob key in place of its base64: what the rules see is the same
   * (none reads a binary's content), at a fraction of the size. Only the skeleton is read.
   */
  async ublTemplate(ref: UblRef): Promise<string> {
    const skeleton = await this.bytes(ref.skeleton.sha256);
    return putBack(skeleton, ref.embeds, (e) => Buffer.from(e.sha256)).toString('utf8');
  }

  async attachment(attachment: StoredAttachment): Promise<Buffer> {
    return attachment.content === null ? Buffer.alloc(0) : this.bytes(attachment.content.sha256);
  }

  /**
   * The document as it is now, for writing its UBL again: its content, with the attachments it
   * has now (its own that are left, in order, then those added), each attachment kept by a blob
   * written as the blob's key in place of its base64 (`placeholders`).
   */
  documentToWrite(
    content: DocumentJson,
    attachments: readonly StoredAttachment[],
  ): { document: DocumentJson } & Omit<UblTemplate, 'text'> {
    const current = new Set(attachments.map((a) => a.id));
    const own = new Set<string>();
    const placeholders = new Map<string, CutBinary>();
    let count = 0;
    let extraBytes = 0;
    // The blob's key is 64 hexadecimal digits: base64 text the writer writes as it is.
    const stand = (blob: CutBinary): string => {
      placeholders.set(blob.sha256, { sha256: blob.sha256, size: blob.size });
      count++;
      extraBytes += base64Length(blob.size) - blob.sha256.length;
      return blob.sha256;
    };
    const written: DocumentAttachment[] = [];
    for (const a of content.attachments as ContentAttachment[]) {
      own.add(attachmentIdOf(a));
      if (!current.has(attachmentIdOf(a))) continue;
      const { file_blob, ...attachment } = a;
      written.push(
        file_blob && attachment.file_data === null ? { ...attachment, file_data: stand(file_blob) } : attachment,
      );
    }
    for (const a of attachments) {
      if (own.has(a.id)) continue;
      written.push({
        id: a.id,
        file_name: a.file_name,
        file_type: a.file_type,
        file_size: a.file_size,
        file_data: a.content === null ? null : stand(a.content),
        file_url: null,
      });
    }
    return { document: { ...content, attachments: written }, placeholders, count, extraBytes };
  }

  /** Stores a UBL written by `documentToWrite`'s document: its stand-ins become embeds of the blobs they name. */
  async storeTemplate(template: UblTemplate, tenantId?: string): Promise<UblRef> {
    const { text, embeds } = cutBinaries(template.text, (base64) => template.placeholders.get(base64) ?? null);
    // Every stand-in the writer wrote must be found again: one left in the text would be sent as
    // if it were the attachment.
    if (embeds.length !== template.count)
      throw new Error(`the UBL written again carries ${embeds.length} of its ${template.count} attachments' stand-ins`);
    return {
      skeleton: await this.put(Buffer.from(text), XML_TYPE, tenantId),
      embeds,
      size: Buffer.byteLength(template.text) + template.extraBytes,
    };
  }
}
