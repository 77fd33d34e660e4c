import type { DocumentJson } from '../../domain/document/invoice/documentJson.js';
import type { DocumentSizeLimits } from '../../domain/document/invoice/documentLimits.js';
import type { HygieneLimits, InputProblem } from '../../domain/inputText.js';
import type { DocumentState } from '../../domain/document/invoice/documentModel.js';
import type { ValidationResultIssue } from '../../domain/document/rules/documentCheck.js';
import type { RuleSetId } from '../../domain/validation/index.js';
import type { EmbeddedFile } from './pdfPorts.js';
import type { TextPage } from '../../domain/document/pdf-text/textLayout.js';
import type { TextHints } from '../../domain/document/pdf-text/recoverDocument.js';

/*
 * The CPU-heavy steps of the document use cases: decoding and checking a JSON document (totals,
 * UBL, every rule), parsing and checking uploaded UBL, writing the UBL with attachments, rendering
 * and reading PDFs. Their cost grows with the input, so the service runs them off the event loop
 * (infrastructure/workers), with a time and memory budget per task and a fair share per tenant.
 * Inputs and outputs are plain data (no Decimal, no Buffer subclasses): they cross threads.
 */

/** A JSON create request checked: refused field by field, or a document with its UBL and issues. */
export type JsonCheckResult =
  | { ok: false; errors: InputProblem[] }
  | { ok: true; document: DocumentJson; ubl: string; issues: ValidationResultIssue[]; isValid: boolean };

/** An uploaded UBL checked: its text (decoded once), the issues, and the document read from it when it has no fatal issue. */
export interface UblCheckResult {
  text: string;
  issues: ValidationResultIssue[];
  document: DocumentJson | null;
}

/** A received document checked: the rules that fired, and the document when none was fatal. */
export interface ReceivedCheck {
  issues: ValidationResultIssue[];
  document: DocumentJson | null;
}

/** What became of an uploaded PDF's content (see DocumentPdfs.createFromPdf). */
export type PdfDraftResult =
  /** No structured data: the text is wanted. `warnings` say why embedded XML files were not used. */
  | { kind: 'needs_text'; warnings: string[] }
  | {
      kind: 'nothing';
      document: DocumentJson;
      issue: ValidationResultIssue;
      method: 'text' | 'none';
      warnings: string[];
    }
  | {
      kind: 'draft';
      /** The document kept: completed when valid, as the PDF said otherwise. */
      document: DocumentJson;
      ubl: string;
      isValid: boolean;
      issues: ValidationResultIssue[];
      method: 'embedded_ubl' | 'embedded_cii' | 'text';
      embeddedFile: string | null;
      warnings: string[];
    };

export interface PdfDraftInput {
  files: EmbeddedFile[];
  pages: TextPage[];
  textRead: boolean;
  /** Said by the call that looked at the embedded files, when the text is read after it. */
  warnings?: string[];
  hints: TextHints;
  /** The uploaded PDF, attached to the draft as its human-readable original. */
  pdf: { fileName: string | null; bytes: Uint8Array };
  /** The rule set the draft is checked by (the latest when not given). */
  ruleSet?: RuleSetId;
}

/** Who a task is done for: tasks of one tenant queue behind each other, not behind other tenants'. */
export interface WorkOwner {
  tenantId: string;
}

export interface DocumentWork {
  /**
   * Decodes a create/validate request body and checks it; with `renderPdf`, the rendering is
   * attached first. The body is a parsed value, or the bytes of a large one (parsed and checked
   * for text no field may hold by the task: MalformedBody when it is not JSON).
   */
  checkJson(owner: WorkOwner, body: unknown, options: JsonCheckOptions): Promise<JsonCheckResult>;
  /** Decodes (UTF-8 or UTF-16), parses and checks uploaded or stored UBL; `read` also reads the document from it when valid. */
  checkUbl(owner: WorkOwner, xml: Uint8Array | string, options: UblCheckOptions): Promise<UblCheckResult>;
  /**
   * The document a UBL holds (UblReadError when it cannot be read). The UBL must have passed the
   * untrusted-XML gate before: a stored document's (checked when it was uploaded or written), or the
   * business document of an AS4 message, which libxml2 took out of the payload it accepted.
   */
  readUbl(owner: WorkOwner, ubl: string): Promise<DocumentJson>;
  /**
   * A business document received over AS4 (through the gate like `readUbl`'s): the business rules
   * of `ruleSet` (the latest when not given), and the document read when none is fatal
   * (UblReadError when it cannot be read).
   */
  readReceived(owner: WorkOwner, ubl: string, ruleSet?: RuleSetId): Promise<ReceivedCheck>;
  /**
   * The document's UBL written again with the attachments it now has (refused when it would stop
   * validating). `extraBytes`: what the UBL grows by once the stand-ins it is written with for
   * attachments' base64 are replaced (DocumentContent.documentToWrite); the size limit counts them.
   */
  ublWithAttachments(owner: WorkOwner, document: DocumentJson, currentUbl: string, extraBytes: number): Promise<string>;
  /** A PDF rendering of the document, with the given files embedded. */
  renderPdf(owner: WorkOwner, document: DocumentJson, state: DocumentState, embed: EmbeddedFile[]): Promise<Uint8Array>;
  /** A draft from the content of an uploaded PDF: embedded UBL/CII, else its text. */
  pdfDraft(owner: WorkOwner, input: PdfDraftInput): Promise<PdfDraftResult>;
}

export interface UblCheckOptions {
  read: boolean;
  /** The rule set to check by (the latest when not given). */
  ruleSet?: RuleSetId;
}

export interface JsonCheckOptions {
  renderPdf: boolean;
  /**
   * The calling tenant's participant ids (senderIdentity.ownParticipantIds): the issuer's
   * electronic address the document gets when it gives none, and the only ones it may give.
   */
  ownParticipantIds?: readonly string[];
  /** The rule set to check by (the latest when not given). */
  ruleSet?: RuleSetId;
  limits?: DocumentSizeLimits;
  /** For a body given as bytes: the checks a parsed body had at the edge. */
  text?: HygieneLimits;
}

/** A request body given as bytes is not JSON. */
export class MalformedBody extends Error {
  constructor() {
    super('Malformed JSON in request body');
    this.name = 'MalformedBody';
  }
}

/**
 * Why a task was not done: over its time or memory budget, the tenant has too many waiting, or
 * its worker process died twice under it for another reason (a fault of the service, not of the input).
 */
export class WorkRefused extends Error {
  constructor(
    readonly reason: 'time_budget' | 'memory_budget' | 'busy' | 'worker_failed',
    message: string,
  ) {
    super(message);
    this.name = 'WorkRefused';
  }
}
