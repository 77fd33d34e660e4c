import { isDeepStrictEqual } from 'node:util';
import { readZip } from './zipArchive.js';
import { isSealedPayload, openSealed, sealedPayloadParts } from '../personalData/personalDataVault.js';
import { verifyHistoryProofs, type EventJson, type HistoryProof } from '../history/historyProofs.js';
import { putBack } from '../documents/storedUbl.js';
import { actorOf } from '../actor.js';
import {
  BUNDLE_FORMAT,
  deliveryRecord,
  namedBlobs,
  PATHS,
  sentEmails,
  sha256Hex,
  STORED_PARTS,
  type EvidencePart,
  type Manifest,
} from './bundleContents.js';
import type { UblEmbed, UblRef } from '../../domain/document/lifecycle/documentContent.js';

/** One thing in a bundle that does not hold: which part, which file, and what. */
export interface BundleProblem {
  part: EvidencePart;
  path: string | null;
  detail: string;
}

/** Checks an AS4 message and the receipt that answered it (infrastructure/as4/receiptEvidence.ts). */
export type As4EvidenceCheck = (
  message: Buffer,
  contentType: string,
  receipt: Buffer,
) => Array<{ part: 'as4_message' | 'as4_receipt'; detail: string }>;

/** One attachment of an e-mail, decoded to its bytes. */
export interface EmailAttachment {
  fileName: string | null;
  mediaType: string;
  bytes: Buffer;
}

/** Reads the attachments of an e-mail as sent (infrastructure/mail/emailEvidence.ts); throws when it cannot. */
export type EmailAttachmentReader = (eml: Buffer) => EmailAttachment[];

/** How the transport evidence is read: parsers live in infrastructure (infrastructure/evidenceChecks.ts). */
export interface TransportEvidenceChecks {
  as4: As4EvidenceCheck;
  emailAttachments: EmailAttachmentReader;
}

export interface BundleVerification {
  ok: boolean;
  problems: BundleProblem[];
  document_id: string | null;
  events: number;
  files: number;
  /** The checkpoints the events are linked to: position, head hash, signing key id. */
  checkpoints: Array<{ position: string; head_hash: string; key_id: string; created_at: string }>;
}

const parseJson = <T>(bytes: Buffer | undefined): T | null => {
  if (!bytes) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    return null;
  }
};

/**
 * Checks an evidence bundle offline, with nothing but its bytes (and the AS4 check): every file
 * against the manifest and SHA256SUMS; every stored file against the digests the events name; the
 * events against the chain segment, the segment against the signed checkpoint, the checkpoint's
 * signature (by a trusted key, when given); the UBL against its stored parts; the delivery record,
 * the actors and the validation report against the events; each AS4 receipt's signature and its
 * digests against the message; each e-mail sent where the events put it, carrying the UBL the
 * document had then and no file it does not store. Each problem names its part.
 */
export function verifyBundle(
  zip: Buffer,
  checks: TransportEvidenceChecks,
  trustedKeyIds?: ReadonlySet<string>,
): BundleVerification {
  const problems: BundleProblem[] = [];
  const report = (extra: Partial<BundleVerification> = {}): BundleVerification => ({
    ok: problems.length === 0,
    problems,
    document_id: null,
    events: 0,
    files: 0,
    checkpoints: [],
    ...extra,
  });
  let files: Map<string, Buffer>;
  try {
    files = readZip(zip);
  } catch (error) {
    problems.push({ part: 'archive', path: null, detail: (error as Error).message });
    return report();
  }
  const manifest = parseJson<Manifest>(files.get(PATHS.manifest));
  if (!manifest || manifest.format !== BUNDLE_FORMAT || !Array.isArray(manifest.files)) {
    problems.push({ part: 'manifest', path: PATHS.manifest, detail: 'missing, or not an evidence bundle manifest' });
    return report();
  }

  // Each file as the manifest lists it, and nothing unlisted.
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  for (const file of manifest.files) {
    const bytes = files.get(file.path);
    if (!bytes) problems.push({ part: file.part, path: file.path, detail: 'listed in the manifest but missing' });
    else if (sha256Hex(bytes) !== file.sha256 || bytes.length !== file.size)
      problems.push({ part: file.part, path: file.path, detail: 'its bytes are not those the manifest lists' });
  }
  for (const path of files.keys())
    if (path !== PATHS.manifest && path !== PATHS.sums && !listed.has(path))
      problems.push({ part: 'manifest', path, detail: 'in the archive but not in the manifest' });
  const sums = files.get(PATHS.sums)?.toString('utf8') ?? '';
  for (const line of sums.split('\n').filter(Boolean)) {
    const [hash, path] = [line.slice(0, 64), line.slice(66)];
    const bytes = files.get(path);
    if (!bytes || sha256Hex(bytes) !== hash)
      problems.push({
        part: listed.get(path)?.part ?? 'manifest',
        path,
        detail: `${PATHS.sums} gives another digest for it`,
      });
  }

  // The events, linked to a signed checkpoint.
  const events = (files.get(PATHS.events)?.toString('utf8') ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson<EventJson>(Buffer.from(line)));
  const proofs = parseJson<HistoryProof[]>(files.get(PATHS.proofs));
  if (events.length === 0 || events.some((e) => e === null))
    problems.push({ part: 'events', path: PATHS.events, detail: 'missing or unreadable' });
  if (!Array.isArray(proofs) || proofs.length === 0)
    problems.push({ part: 'chain_segment', path: PATHS.proofs, detail: 'missing or unreadable' });
  const good = events.filter((e): e is EventJson => e !== null);
  if (Array.isArray(proofs))
    for (const p of verifyHistoryProofs(good, proofs, trustedKeyIds))
      problems.push({ part: p.part, path: p.part === 'events' ? PATHS.events : PATHS.proofs, detail: p.detail });

  // Every stored file is one the events name (by its SHA-256).
  const named = new Set(good.flatMap((e) => namedBlobs(e.data).map((b) => b.sha256)));
  for (const file of manifest.files)
    if (STORED_PARTS.has(file.part) && !named.has(file.sha256))
      problems.push({ part: file.part, path: file.path, detail: 'not a file the events name: it was replaced' });

  // A sealed file (a tenant's personal data) is checked as stored, then read opened with its own key.
  const opened = openSealedFiles(files, manifest);
  problems.push(...opened.problems);
  const unopened = new Set(opened.problems.map((p) => p.path));
  files = opened.files;
  // Each listed file (opened) by the digest the events name it by.
  const byDigest = new Map(manifest.files.map((f) => [f.sha256, files.get(f.path)]));

  // The UBL: its stored parts put together, as an event recorded them.
  if (manifest.ubl) {
    const { ubl_ref: ref, path } = manifest.ubl;
    const recorded = good.some((e) => namedBlobs(e.data).some((b) => b.sha256 === ref.skeleton?.sha256));
    const assembled = recorded ? assembleUbl(ref, byDigest) : null;
    if (!assembled || !files.get(path)?.equals(assembled))
      problems.push({ part: 'ubl', path, detail: 'not the UBL its stored parts, as the events name them, make' });
  }

  // Each e-mail sent, where the events put it, carrying the UBL the document had then.
  const stored = manifest.files
    .filter((f) => f.part === 'attachment' || f.part === 'ubl_part')
    .map((f) => files.get(f.path))
    .filter((bytes): bytes is Buffer => bytes !== undefined);
  for (const email of sentEmails(good)) {
    const file = listed.get(email.path);
    const bytes = files.get(email.path);
    if (!file || file.sha256 !== email.sha256 || !bytes)
      problems.push({ part: 'email_message', path: email.path, detail: 'missing, or not the e-mail the events name' });
    else if (!unopened.has(email.path))
      for (const detail of emailProblems(bytes, email.ubl, byDigest, stored, checks.emailAttachments))
        problems.push({ part: 'email_message', path: email.path, detail });
  }

  // What is derived from the events says what they say.
  if (!isDeepStrictEqual(parseJson(files.get(PATHS.delivery)), JSON.parse(JSON.stringify(deliveryRecord(good)))))
    problems.push({ part: 'delivery_record', path: PATHS.delivery, detail: 'it does not say what the events say' });
  const actors = parseJson<Array<{ event_id: string; actor_detail: Record<string, unknown> }>>(files.get(PATHS.actors));
  const byId = new Map(good.map((e) => [e.id, e]));
  if (
    !Array.isArray(actors) ||
    actors.length !== good.length ||
    actors.some((a) => {
      const event = byId.get(a.event_id);
      return !event || !sameActor(actorOf(event.metadata), a.actor_detail);
    })
  )
    problems.push({ part: 'actors', path: PATHS.actors, detail: 'it does not say who the events say caused them' });
  const validation = parseJson<{ rule_set: string; fatal: number; warnings: number; recorded: unknown[] }>(
    files.get(PATHS.validation),
  );
  const lastValidated = [...good].reverse().find((e) => e.type === 'DocumentValidated')?.data as
    { rule_set?: string; fatal: number; warnings: number } | undefined;
  if (
    !validation ||
    (lastValidated &&
      ((lastValidated.rule_set !== undefined && lastValidated.rule_set !== validation.rule_set) ||
        lastValidated.fatal !== validation.fatal ||
        lastValidated.warnings !== validation.warnings))
  )
    problems.push({
      part: 'validation_report',
      path: PATHS.validation,
      detail: 'its rule set or findings are not what the last validation recorded',
    });

  // AS4: each receipt signed, and its digests those of the message.
  for (const pair of manifest.as4 ?? []) {
    const message = files.get(pair.message);
    const receipt = files.get(pair.receipt);
    if (!message || !receipt) continue; // named above as missing
    for (const p of checks.as4(message, pair.content_type, receipt))
      problems.push({ part: p.part, path: p.part === 'as4_message' ? pair.message : pair.receipt, detail: p.detail });
  }

  return report({
    document_id: manifest.document_id,
    events: good.length,
    files: files.size,
    checkpoints: (Array.isArray(proofs) ? proofs : []).map((p) => ({
      position: p.checkpoint.position,
      head_hash: p.checkpoint.head_hash,
      key_id: p.checkpoint.key_id,
      created_at: p.checkpoint.created_at,
    })),
  });
}

/** A UBL put together from its stored parts (opened), by digest; null when one is missing. */
function assembleUbl(ref: UblRef, byDigest: ReadonlyMap<string, Buffer | undefined>): Buffer | null {
  const skeleton = byDigest.get(ref.skeleton?.sha256);
  if (!skeleton || !ref.embeds.every((e) => byDigest.get(e.sha256))) return null;
  return putBack(skeleton, ref.embeds, (e: UblEmbed) => Buffer.from(byDigest.get(e.sha256)!.toString('base64')));
}

/**
 * What does not hold in an e-mail as sent: it reads, one of its attachments is the UBL the
 * document had when it was sent, and every other one is a file the document stores (a PDF).
 */
function emailProblems(
  eml: Buffer,
  ubl: UblRef | null,
  byDigest: ReadonlyMap<string, Buffer | undefined>,
  stored: readonly Buffer[],
  read: EmailAttachmentReader,
): string[] {
  let attachments: EmailAttachment[];
  try {
    attachments = read(eml);
  } catch (error) {
    return [`unreadable: ${(error as Error).message}`];
  }
  const sentUbl = ubl ? assembleUbl(ubl, byDigest) : null;
  const problems: string[] = [];
  if (!sentUbl || !attachments.some((a) => a.bytes.equals(sentUbl)))
    problems.push('it does not carry the UBL the document had when it was sent, as its stored parts make it');
  for (const a of attachments)
    if (!sentUbl?.equals(a.bytes) && !stored.some((bytes) => bytes.equals(a.bytes)))
      problems.push(`its attachment ${a.fileName ?? `(${a.mediaType})`} is not a file the document stores`);
  return problems;
}

/** The actor a bundle says against the one the event records (the name filled in from the log may be added). */
function sameActor(recorded: ReturnType<typeof actorOf>, said: Record<string, unknown>): boolean {
  if (said.kind !== recorded.kind) return false;
  switch (recorded.kind) {
    case 'api_key':
    case 'organization_admin':
      return said.key_id === recorded.keyId && (recorded.keyName === null || said.key_name === recorded.keyName);
    case 'access_point':
      return recorded.seatId === null || said.seat_id === recorded.seatId;
    case 'system':
      return said.job === recorded.job;
    case 'operator':
    case 'unknown':
      return true;
    default:
      return recorded satisfies never;
  }
}

/**
 * The bundle's files with each sealed one (a tenant's personal data, stored encrypted) opened with
 * the key the manifest gives for it alone; a key that does not open its file is a problem.
 */
export function openSealedFiles(
  files: ReadonlyMap<string, Buffer>,
  manifest: Pick<Manifest, 'files' | 'opening_keys'>,
): { files: Map<string, Buffer>; problems: BundleProblem[] } {
  const opened = new Map(files);
  const problems: BundleProblem[] = [];
  for (const [path, key] of Object.entries(manifest.opening_keys ?? {})) {
    const file = manifest.files.find((f) => f.path === path);
    const bytes = files.get(path);
    if (!file || !bytes || !STORED_PARTS.has(file.part) || !isSealedPayload(bytes)) {
      problems.push({ part: file?.part ?? 'manifest', path, detail: 'an opening key for a file that is not sealed' });
      continue;
    }
    try {
      const { header, sealed } = sealedPayloadParts(bytes);
      opened.set(path, openSealed(Buffer.from(key, 'base64'), header, sealed));
    } catch {
      problems.push({
        part: file.part,
        path,
        detail: 'does not open with its key: the sealed bytes or the key were altered',
      });
    }
  }
  return { files: opened, problems };
}
