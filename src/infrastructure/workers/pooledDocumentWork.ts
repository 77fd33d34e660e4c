import type {
  DocumentWork,
  JsonCheckOptions,
  JsonCheckResult,
  PdfDraftInput,
  PdfDraftResult,
  ReceivedCheck,
  UblCheckOptions,
  UblCheckResult,
  WorkOwner,
} from '../../application/documents/documentWork.js';
import type { EmbeddedFile } from '../../application/documents/pdfPorts.js';
import type { DocumentJson } from '../../domain/document/invoice/documentJson.js';
import type { DocumentState } from '../../domain/document/invoice/documentModel.js';
import type { RuleSetId } from '../../domain/validation/index.js';
import * as tasks from './documentTasks.js';
import { TaskPool } from './taskPool.js';
import { inject, injectable } from '../../application/injection.js';

/**
 * Below the inline sizes a task costs a few milliseconds: it runs on the calling thread, sparing
 * the hop. Above the large sizes it needs hundreds of MB: the pool runs such tasks one at a time.
 */
export interface TaskSizes {
  /** Lines of a JSON document (with no large attachment). */
  inlineLines: number;
  /** Bytes of UBL, or of a JSON document's attachment data. */
  inlineBytes: number;
  largeLines: number;
  largeBytes: number;
}

export const DEFAULT_TASK_SIZES: TaskSizes = {
  inlineLines: 50,
  inlineBytes: 64 * 1024,
  largeLines: 2_000,
  largeBytes: 2 * 1024 * 1024,
};

const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/** Characters of attachment content in a create body (its base64), without walking anything else. */
function attachmentChars(body: Record<string, unknown>): number {
  let total = 0;
  for (const a of Array.isArray(body.attachments) ? body.attachments : []) {
    const data = (a as { file_data?: unknown } | null)?.file_data;
    if (typeof data === 'string') total += data.length;
  }
  return total;
}

/**
 * The service's DocumentWork: small inputs on the calling thread, everything else (and every PDF)
 * on the task pool, under its time and memory budget and its fair turns between tenants.
 */
@injectable()
export class PooledDocumentWork implements DocumentWork {
  constructor(
    @inject(TaskPool) private readonly pool: TaskPool,
    private readonly sizes: TaskSizes = DEFAULT_TASK_SIZES,
  ) {}

  checkJson(owner: WorkOwner, body: unknown, options: JsonCheckOptions): Promise<JsonCheckResult> {
    if (body instanceof Uint8Array)
      return this.pool.run(owner, 'checkJson', [body, options], { large: body.length > this.sizes.largeBytes });
    const object = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const lines = lengthOf(object.items);
    const data = attachmentChars(object);
    if (!options.renderPdf && lines <= this.sizes.inlineLines && data <= this.sizes.inlineBytes)
      return tasks.checkJson(body, options);
    return this.pool.run(owner, 'checkJson', [body, options], {
      large: lines > this.sizes.largeLines || data > this.sizes.largeBytes,
    });
  }

  async checkUbl(owner: WorkOwner, xml: Uint8Array | string, options: UblCheckOptions): Promise<UblCheckResult> {
    if (xml.length <= this.sizes.inlineBytes) return tasks.checkUbl(xml, options);
    return this.pool.run(owner, 'checkUbl', [xml, options], { large: xml.length > this.sizes.largeBytes });
  }

  async readUbl(owner: WorkOwner, ubl: string): Promise<DocumentJson> {
    if (ubl.length <= this.sizes.inlineBytes) return tasks.readDocument(ubl);
    return this.pool.run(owner, 'readDocument', [ubl], { large: ubl.length > this.sizes.largeBytes });
  }

  async readReceived(owner: WorkOwner, ubl: string, ruleSet?: RuleSetId): Promise<ReceivedCheck> {
    if (ubl.length <= this.sizes.inlineBytes) return tasks.readReceivedDocument(ubl, ruleSet);
    return this.pool.run(owner, 'readReceivedDocument', [ubl, ruleSet], { large: ubl.length > this.sizes.largeBytes });
  }

  async ublWithAttachments(
    owner: WorkOwner,
    document: DocumentJson,
    currentUbl: string,
    extraBytes: number,
  ): Promise<string> {
    const size = currentUbl.length + document.attachments.reduce((sum, a) => sum + (a.file_data?.length ?? 0), 0);
    if (size <= this.sizes.inlineBytes) return tasks.attachmentUbl(document, currentUbl, extraBytes);
    return this.pool.run(owner, 'attachmentUbl', [document, currentUbl, extraBytes], {
      large: size > this.sizes.largeBytes,
    });
  }

  renderPdf(
    owner: WorkOwner,
    document: DocumentJson,
    state: DocumentState,
    embed: EmbeddedFile[],
  ): Promise<Uint8Array> {
    return this.pool.run(owner, 'renderPdf', [document, state, embed], {
      large: document.items.length > this.sizes.largeLines,
    });
  }

  pdfDraft(owner: WorkOwner, input: PdfDraftInput): Promise<PdfDraftResult> {
    return this.pool.run(owner, 'pdfDraft', [input], {
      large: input.pages.length > 50 || input.pdf.bytes.length > this.sizes.largeBytes,
    });
  }
}
