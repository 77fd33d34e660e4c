import { expect } from 'chai';
import pg from 'pg';
import { applyPostgresSchema } from '../../src/infrastructure/postgres/pgSchema.js';
import { PgEventStore } from '../../src/infrastructure/postgres/pgEventStore.js';
import { PgBlobStore } from '../../src/infrastructure/blobs/pgBlobStore.js';
import { DocumentContent } from '../../src/application/documents/documentContent.js';
import { DocumentUpcaster } from '../../src/application/documents/documentUpcaster.js';
import { UpcastingEventStore } from '../../src/application/upcastingEventStore.js';
import { fold } from '../../src/domain/decider.js';
import { documentDecider, type DocumentEvent } from '../../src/domain/document/lifecycle/documentAggregate.js';
import { emptyDocument } from '../../src/domain/document/invoice/documentModel.js';
import { toDocumentJson } from '../../src/domain/document/invoice/documentJson.js';
import { writeUbl } from '../../src/domain/document/ubl/ublWriter.js';
import { fromDocumentJson } from '../../src/domain/document/invoice/documentJson.js';
import { freshDatabase } from '../support/postgres.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Old shapes in a real PostgreSQL event store, read through the upcaster. */
describe('Document upcaster (real PostgreSQL)', () => {
  let pool: pg.Pool;
  let recorded: PgEventStore;
  const reader = () =>
    new UpcastingEventStore(recorded, new DocumentUpcaster(new DocumentContent(new PgBlobStore(pool))));

  const document = toDocumentJson({
    ...emptyDocument(),
    invoice_id: 'OLD-1',
    state: 'SENT',
    attachments: [
      {
        id: 'a1',
        file_name: 'terms.pdf',
        file_type: 'application/pdf',
        file_size: 9,
        file_data: b64('%PDF-1.4 '),
        file_url: null,
      },
    ],
  });
  const ubl = writeUbl(fromDocumentJson(document));

  before(async () => {
    const url = await freshDatabase('upcaster');
    pool = new pg.Pool({ connectionString: url });
    await applyPostgresSchema(pool);
    recorded = new PgEventStore(pool, url);
    // As recorded before: the whole document and UBL in the event, state taken from the content.
    await recorded.append(
      'document-d1',
      [
        {
          type: 'DocumentCreated',
          data: {
            document_id: 'd1',
            tenant_id: 't1',
            source: 'json',
            document,
            ubl,
            file_name: 'OLD-1.xml',
            created_at: '2025-01-01T00:00:00.000Z',
          },
        },
        {
          type: 'AttachmentAdded',
          data: {
            document_id: 'd1',
            attachment: { id: 'a2', file_name: 'x.csv', file_type: 'text/csv', file_size: 3, file_data: b64('a;b') },
            added_at: '2025-01-01T00:01:00.000Z',
          },
        },
        {
          type: 'AttachmentRemoved',
          data: { document_id: 'd1', attachment_id: 'a2', removed_at: '2025-01-01T00:02:00.000Z' },
        },
        {
          type: 'ResponseReceived',
          data: {
            document_id: 'd1',
            code: 'AP',
            reason: null,
            responder_peppol_id: null,
            invoice_response: '<ApplicationResponse/>',
            received_at: '2025-01-01T00:03:00.000Z',
          },
        },
      ],
      'no_stream',
    );
  });
  after(async () => {
    await recorded?.close();
    await pool?.end();
  });

  it('keeps the lifecycle a document was recorded in before the service owned it', async () => {
    const events = await reader().readStream('document-d1');
    expect(events[0]!.data).to.deep.include({ recorded_lifecycle: { state: 'SENT', direction: 'OUTBOUND' } });
    expect(events[0]!.data).to.not.have.property('document');
    expect(events[0]!.data).to.not.have.property('ubl');
    const state = fold(
      documentDecider,
      events.map((e) => ({ type: e.type, data: e.data }) as DocumentEvent),
    );
    expect(state).to.deep.include({ state: 'SENT', direction: 'OUTBOUND' });
    expect(state).to.have.nested.property('attachments[0].id', 'a1');
    expect(state).to.have.property('attachments').with.length(1);
  });

  it('reads the oldest attachment events (no UBL) as leaving the UBL as it was, and stores their bytes', async () => {
    const [, added, removed, response] = await reader().readStream('document-d1');
    expect(added!.data).to.not.have.property('ubl_ref');
    expect(added!.data).to.have.nested.property('attachment.content.size', 3);
    expect(removed!.data).to.deep.equal({
      document_id: 'd1',
      attachment_id: 'a2',
      removed_at: '2025-01-01T00:02:00.000Z',
    });
    const ref = (response!.data as { invoice_response_ref: { sha256: string } }).invoice_response_ref;
    expect((await new PgBlobStore(pool).get(ref.sha256))!.toString()).to.equal('<ApplicationResponse/>');
  });

  it('gives a lean read of the log (payloads left out) the same events, read whole again', async () => {
    const whole = await reader().readStream('document-d1');
    const lean = await reader().readAll({
      withoutData: [['document'], ['ubl'], ['attachment', 'file_data'], ['invoice_response']],
    });
    expect(lean.map((e) => e.data)).to.deep.equal(whole.map((e) => e.data));
  });

  it('is idempotent: read again by another process, the same references and no blob stored twice', async () => {
    const first = await reader().readStream('document-d1');
    const count = async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM blobs')).rows[0]!.n);
    const blobs = await count();
    const again = await reader().readStream('document-d1');
    expect(again.map((e) => e.data)).to.deep.equal(first.map((e) => e.data));
    expect(await count()).to.equal(blobs);
  });

  it("passes today's events through as they are", async () => {
    const data = { document_id: 'd2', deleted_at: '2025-01-01T00:00:00.000Z' };
    await recorded.append('document-d2', [{ type: 'DocumentDeleted', data }], 'no_stream');
    const [event] = await reader().readStream('document-d2');
    expect(event!.data).to.deep.equal(data);
  });
});
