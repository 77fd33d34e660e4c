import { EVENT_STORE, RECORDED_EVENT_STORE, type EventStore, type RecordedEvent } from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import { loadStream } from '../commandHandler.js';
import { DocumentContent } from '../documents/documentContent.js';
import { DocumentCommands } from '../documents/documentCommands.js';
import { as4MessageStream, type As4MessageReceived } from '../documents/as4MessageRecord.js';
import { actorsOf } from '../actorHistory.js';
import { actorView, describeActor } from '../actor.js';
import { HistoryChainer } from '../history/historyChainer.js';
import { eventJson, HistoryProofs, type EventJson } from '../history/historyProofs.js';
import {
  documentDecider,
  documentStream,
  type DocumentReceived,
} from '../../domain/document/lifecycle/documentAggregate.js';
import type { UblRef } from '../../domain/document/lifecycle/documentContent.js';
import { conflict, notFound } from '../../domain/errors.js';
import { writeZip } from './zipArchive.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  deliveryRecord,
  namedBlobs,
  PATHS,
  placeOf,
  sentEmails,
  sha256Hex,
  sha256Sums,
  transportOf,
  type Manifest,
  type ManifestFile,
} from './bundleContents.js';
import { BUNDLE_README } from './bundleReadme.js';

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

/**
 * The evidence bundle of one document (`GET /api/documents/{id}/evidence`): one ZIP with the UBL
 * and every file the document's events name exactly as stored, the transport evidence (AS4
 * messages and receipts, the e-mail as sent, the delivery record), the events
 * as recorded with the hashes linking them to a signed checkpoint, who did what, the validation
 * report, and a manifest of SHA-256s. `npm run verify-evidence` checks it offline (verifyBundle.ts).
 */
@injectable()
export class EvidenceBundles {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(RECORDED_EVENT_STORE) private readonly recorded: EventStore,
    @inject(DocumentContent) private readonly content: DocumentContent,
    @inject(DocumentCommands) private readonly commands: DocumentCommands,
    @inject(HistoryChainer) private readonly chainer: HistoryChainer,
    @inject(HistoryProofs) private readonly proofs: HistoryProofs,
  ) {}

  async bundle(tenantId: string, documentId: string, now = new Date()): Promise<Buffer> {
    const loaded = await loadStream(this.store, documentDecider, documentStream(documentId));
    const state = loaded.state;
    if (state.status === 'absent' || state.tenant_id !== tenantId) throw notFound('Document not found');

    // The events as recorded (the chain hashes those, not what the upcaster reads them as); a
    // received AS4 message's own record too.
    const recorded: RecordedEvent[] = [...(await this.recorded.readStream(documentStream(documentId)))];
    const inboundMessage = loaded.events
      .filter((e) => e.type === 'DocumentReceived')
      .map((e) => e.data as DocumentReceived['data'])
      .find((d) => d.sender.as4)?.message_id;
    if (inboundMessage) recorded.push(...(await this.recorded.readStream(as4MessageStream(inboundMessage))));
    recorded.sort((a, b) => (a.globalPosition < b.globalPosition ? -1 : 1));
    const events = recorded.map(eventJson);

    // Every event chained and under a signed checkpoint (one is written now when none covers the last).
    if (!(await this.chainer.catchUp(10_000))) throw conflict('The history chain is catching up: try again shortly');
    const proofs = await this.proofs.proofsFor(recorded.map((e) => e.globalPosition));

    const files = new Map<string, Buffer>();
    const listed: ManifestFile[] = [];
    const add = (path: string, bytes: Buffer, part: ManifestFile['part'], what: string) => {
      if (files.has(path)) return;
      files.set(path, bytes);
      listed.push({ path, sha256: sha256Hex(bytes), size: bytes.length, part, what });
    };

    // Every stored file the events name, as stored (sealed ones with the key that opens each); the
    // e-mails sent where sentEmails puts them.
    const placed = new Map<string, string>();
    const openingKeys: Record<string, string> = {};
    const emails = new Map(sentEmails(events).map((e) => [e.sha256, e]));
    for (const event of events)
      for (const blob of namedBlobs(event.data)) {
        if (placed.has(blob.sha256)) continue;
        const place = placeOf(blob, emails);
        placed.set(blob.sha256, place.path);
        const stored = await this.content.storedBlob({
          sha256: blob.sha256,
          size: 0,
          media_type: blob.mediaType ?? '',
        });
        add(place.path, stored.bytes, place.part, place.what);
        if (stored.openingKey) openingKeys[place.path] = stored.openingKey.toString('base64');
      }

    // The UBL as it is now (what was sent or received; a deleted document's last), put together from its stored parts.
    const ubl =
      state.status === 'present'
        ? state.ubl_ref
        : loaded.events
            .map((e) => (e.data as { ubl_ref?: UblRef }).ubl_ref)
            .filter((ref): ref is UblRef => ref !== undefined)
            .pop()!;
    add(PATHS.ubl, Buffer.from(await this.content.ubl(ubl), 'utf8'), 'ubl', 'the UBL as stored');

    // AS4: each message with the receipt that answered it.
    const as4: Manifest['as4'] = [];
    for (const event of events) {
      const data = event.data as Record<string, unknown>;
      if (event.type === 'DeliveryAttempted') {
        const evidence = data.as4 as
          | {
              message_ref?: { sha256: string } | null;
              message_content_type?: string | null;
              receipt?: { ref: { sha256: string } } | null;
            }
          | undefined;
        if (evidence?.message_ref && evidence.receipt && evidence.message_content_type)
          as4.push({
            message: placed.get(evidence.message_ref.sha256)!,
            receipt: placed.get(evidence.receipt.ref.sha256)!,
            content_type: evidence.message_content_type,
          });
      } else if (event.type === 'As4MessageReceived') {
        const d = data as As4MessageReceived['data'];
        as4.push({
          message: placed.get(d.message_ref.sha256)!,
          receipt: placed.get(d.receipt_ref.sha256)!,
          content_type: d.message_content_type,
        });
      }
    }

    const record = deliveryRecord(events);
    add(PATHS.delivery, json(record), 'delivery_record', 'how the document travelled, from its events');
    add(PATHS.events, eventLines(events), 'events', 'every event of the document as recorded, in log order');
    add(
      PATHS.proofs,
      json(proofs),
      'chain_segment',
      'the hash chain from the first event to a signed checkpoint, with the checkpoint',
    );
    const actors = await actorsOf(this.store, recorded);
    add(
      PATHS.actors,
      json(
        recorded.map((e, i) => ({
          position: String(e.globalPosition),
          event_id: e.id,
          type: e.type,
          actor: describeActor(actors[i]!),
          actor_detail: actorView(actors[i]!),
        })),
      ),
      'actors',
      'who caused each event',
    );
    add(
      PATHS.validation,
      json(await this.validation(tenantId, recorded, ubl)),
      'validation_report',
      'the validation report',
    );
    add(PATHS.readme, Buffer.from(BUNDLE_README, 'utf8'), 'readme', 'how to check this bundle');

    const manifest: Manifest = {
      format: BUNDLE_FORMAT,
      v: BUNDLE_VERSION,
      document_id: documentId,
      direction:
        state.status === 'present'
          ? state.direction
          : recorded[0]!.type === 'DocumentReceived'
            ? 'INBOUND'
            : 'OUTBOUND',
      state: state.status === 'present' ? state.state : 'DELETED',
      transport: transportOf(record, as4.length > 0),
      created_at: now.toISOString(),
      ubl: { path: PATHS.ubl, ubl_ref: ubl },
      as4,
      files: listed,
      ...(Object.keys(openingKeys).length > 0 ? { opening_keys: openingKeys } : {}),
    };
    files.set(PATHS.manifest, json(manifest));
    files.set(PATHS.sums, Buffer.from(sha256Sums(files), 'utf8'));
    // The manifest first: what a reader opens to know the rest.
    const order = [PATHS.manifest, PATHS.sums, ...listed.map((f) => f.path)];
    return writeZip(order.map((name) => ({ name, bytes: files.get(name)! })));
  }

  /**
   * The validation report: the UBL checked again by the rule set its last recorded validation ran
   * by (the one in force, for a document never validated), and what each validation recorded.
   */
  private async validation(tenantId: string, events: readonly RecordedEvent[], ubl: UblRef) {
    const recorded = events
      .filter((e) => e.type === 'DocumentValidated')
      .map((e) => ({ position: String(e.globalPosition), ...(e.data as Record<string, unknown>) }));
    const last = recorded[recorded.length - 1] as { rule_set?: string } | undefined;
    const result = await this.commands.validateUbl(tenantId, await this.content.ubl(ubl), null, last?.rule_set);
    return {
      rule_set: result.rule_set,
      is_valid: result.is_valid,
      fatal: result.issues.filter((i) => i.flag === 'fatal').length,
      warnings: result.issues.filter((i) => i.flag === 'warning').length,
      issues: result.issues,
      recorded,
    };
  }
}

const eventLines = (events: readonly EventJson[]) =>
  Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
