import { parseOwnUbl } from '../../src/infrastructure/xml/ublText.js';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DocumentContent } from '../../src/application/documents/documentContent.js';
import { cutBinaries, putBack } from '../../src/application/documents/storedUbl.js';
import { FsBlobStore } from '../../src/infrastructure/blobs/fsBlobStore.js';
import { fromDocumentJson, toDocumentJson, type DocumentJson } from '../../src/domain/document/invoice/documentJson.js';
import { writeUbl } from '../../src/domain/document/ubl/ublWriter.js';
import { ublWithAttachments } from '../../src/domain/document/rules/documentAttachments.js';
import { checkDocument } from '../../src/domain/document/rules/documentCheck.js';
import { decodeDocumentInput } from '../../src/http/codecs/documentCodec.js';
import type { StoredAttachment } from '../../src/domain/document/lifecycle/documentAggregate.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The document's payloads in a real (filesystem) blob store. */
describe('Document content in the blob store', () => {
  let root: string;
  let blobs: FsBlobStore;
  let content: DocumentContent;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'content-'));
    blobs = await FsBlobStore.open(root);
    content = new DocumentContent(blobs);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  describe('a UBL stored as a skeleton and the binaries cut from it', () => {
    const pdf = b64('%PDF-1.4 the rendering');
    const csv = b64('day;hours\n1;8\n');
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?><Invoice xmlns:cbc="c" xmlns:x="c"><cbc:Note>Société Générale — 請求書 ✓</cbc:Note>',
      `<cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="a&gt;b.pdf">${pdf}</cbc:EmbeddedDocumentBinaryObject>`,
      `<x:EmbeddedDocumentBinaryObject filename='quote">.csv' mimeCode="text/csv">${csv}</x:EmbeddedDocumentBinaryObject >`,
      `<EmbeddedDocumentBinaryObject filename="raw>gt.csv">${csv}</EmbeddedDocumentBinaryObject>`,
      // Wrapped at 8 columns, and without its padding: not the one spelling of their bytes, kept as they are.
      `<cbc:EmbeddedDocumentBinaryObject filename="w.pdf">${pdf.slice(0, 8)}\n${pdf.slice(8)}</cbc:EmbeddedDocumentBinaryObject>`,
      '<cbc:EmbeddedDocumentBinaryObject filename="p.pdf">QQ</cbc:EmbeddedDocumentBinaryObject>',
      '<cbc:Note>ünïcödé after</cbc:Note></Invoice>',
    ].join('\n');

    it('cuts every binary written as the base64 of its bytes, whatever its prefix or attributes, and puts back exactly the text it was', async () => {
      const ref = await content.storeUbl(xml);
      expect(ref.embeds.map((e) => e.sha256)).to.deep.equal([
        sha256('%PDF-1.4 the rendering'),
        sha256('day;hours\n1;8\n'),
        sha256('day;hours\n1;8\n'),
      ]);
      expect(ref.size).to.equal(Buffer.byteLength(xml));
      const skeleton = (await blobs.get(ref.skeleton.sha256))!.toString('utf8');
      expect(skeleton).to.not.contain(pdf).and.not.contain(csv);
      expect(skeleton)
        .to.contain(`${pdf.slice(0, 8)}\n${pdf.slice(8)}`)
        .and.contain('>QQ<');
      // Byte offsets, past characters of two, three and four... bytes in UTF-8.
      expect(await content.ubl(ref)).to.equal(xml);
      expect(await content.ublTemplate(ref)).to.equal(
        xml.replace(pdf, sha256('%PDF-1.4 the rendering')).replaceAll(csv, sha256('day;hours\n1;8\n')),
      );
    });

    it('stores each binary once, as the blob its bytes are', async () => {
      await content.storeUbl(xml);
      expect((await blobs.get(sha256('day;hours\n1;8\n')))!.toString()).to.equal('day;hours\n1;8\n');
      // Already stored by whoever stored the attachment: not put again.
      const other = `<a><cbc:EmbeddedDocumentBinaryObject>${b64('elsewhere')}</cbc:EmbeddedDocumentBinaryObject></a>`;
      const ref = await content.storeUbl(other, new Set([sha256('elsewhere')]));
      expect(ref.embeds).to.have.length(1);
      expect(await blobs.has(sha256('elsewhere'))).to.equal(false);
    });

    it('puts back what the offsets name, in order', () => {
      const { text, embeds } = cutBinaries(
        '<r><EmbeddedDocumentBinaryObject>QUJD</EmbeddedDocumentBinaryObject>é<EmbeddedDocumentBinaryObject>REVG</EmbeddedDocumentBinaryObject></r>',
        (s) => ({ sha256: s, size: 3 }),
      );
      expect(text).to.equal(
        '<r><EmbeddedDocumentBinaryObject></EmbeddedDocumentBinaryObject>é<EmbeddedDocumentBinaryObject></EmbeddedDocumentBinaryObject></r>',
      );
      // 3 + 30 bytes; then 31 + 2 (é) + 30 more.
      expect(embeds.map((e) => e.at)).to.deep.equal([33, 96]);
      expect(putBack(Buffer.from(text), embeds, (e) => Buffer.from(`[${e.sha256}]`)).toString()).to.equal(
        '<r><EmbeddedDocumentBinaryObject>[QUJD]</EmbeddedDocumentBinaryObject>é<EmbeddedDocumentBinaryObject>[REVG]</EmbeddedDocumentBinaryObject></r>',
      );
    });
  });

  describe("a document's content", () => {
    const attachments: DocumentJson['attachments'] = [
      {
        id: 'a1',
        file_name: 'terms.pdf',
        file_type: 'application/pdf',
        file_size: 31,
        file_data: b64('%PDF-1.4 general terms of sale'),
        file_url: null,
      },
      // Base64 without its padding: stored as given too (the UBL is written with it as it is).
      { id: 'a2', file_name: 'odd.csv', file_type: 'text/csv', file_size: 1, file_data: 'QQ', file_url: null },
      {
        id: null,
        file_name: 'link.pdf',
        file_type: null,
        file_size: null,
        file_data: null,
        file_url: 'https://example.com/link.pdf',
      },
    ];
    const document = { ...(realisticDocuments()[0]!.body as object) } as Record<string, unknown>;
    const decoded = decodeDocumentInput({ ...document, attachments: [] });
    if (!decoded.ok) throw new Error('fixture');
    const json: DocumentJson = { ...toDocumentJson(checkDocument(decoded.value).document), attachments };

    it('keeps each attachment once (its blob), the facts the lifecycle needs, and every field but the base64 its blob gives back', async () => {
      const stored = await content.storeDocument(json);
      expect(stored.attachments).to.deep.equal([
        {
          id: 'a1',
          file_name: 'terms.pdf',
          file_type: 'application/pdf',
          file_size: 31,
          content: { sha256: sha256('%PDF-1.4 general terms of sale'), size: 30, media_type: 'application/pdf' },
        },
        {
          id: 'a2',
          file_name: 'odd.csv',
          file_type: 'text/csv',
          file_size: 1,
          content: { sha256: sha256('A'), size: 1, media_type: 'text/csv' },
        },
        // Without an id the file name identifies it; without a type it is generic binary.
        { id: 'link.pdf', file_name: 'link.pdf', file_type: 'application/octet-stream', file_size: 0, content: null },
      ]);
      expect(stored.header).to.include({
        invoice_id: json.invoice_id,
        document_type: json.document_type,
        invoice_total: json.invoice_total,
        customer_name: json.customer_name,
      });
      const kept = (await blobs.get(stored.document_ref.sha256))!.toString();
      expect(kept).to.not.contain(b64('%PDF-1.4 general terms of sale'));
      expect(kept).to.contain('"file_data":"QQ"');
      const back = await content.document(stored.document_ref);
      expect({ ...back, attachments: [] }).to.deep.equal({ ...json, attachments: [] });
      expect((await content.attachment(stored.attachments[0]!)).toString()).to.equal('%PDF-1.4 general terms of sale');
      expect(await content.attachment(stored.attachments[2]!)).to.have.length(0);
    });

    it('writes the UBL again with stand-ins for the attachments: put back, it is the UBL written with every file', async () => {
      const stored = await content.storeDocument(json);
      const added: StoredAttachment = {
        id: 'a3',
        file_name: 'photo.png',
        file_type: 'image/png',
        file_size: 4,
        content: await content.put(Buffer.from('\x89PNG', 'latin1'), 'image/png'),
      };
      // a1 removed, a3 added: the document's own attachments that are left, in order, then those added.
      const now = [stored.attachments[1]!, stored.attachments[2]!, added];
      const toWrite = content.documentToWrite(await content.document(stored.document_ref), now);
      expect(toWrite.count).to.equal(1);
      const before = writeUbl(fromDocumentJson(json));
      const text = ublWithAttachments(toWrite.document, () => parseOwnUbl(before), toWrite.extraBytes);
      expect(text).to.contain(`>${added.content!.sha256}</cbc:EmbeddedDocumentBinaryObject>`);
      const ref = await content.storeTemplate({ ...toWrite, text });
      const full = writeUbl(
        fromDocumentJson({
          ...json,
          attachments: [
            attachments[1]!,
            attachments[2]!,
            { ...added, file_data: Buffer.from('\x89PNG', 'latin1').toString('base64'), file_url: null },
          ],
        }),
      );
      expect(await content.ubl(ref)).to.equal(full);
      expect(ref.size).to.equal(Buffer.byteLength(full));
      // The odd base64 stays in the skeleton as given; the PNG is its blob.
      expect(ref.embeds.map((e) => e.sha256)).to.deep.equal([added.content!.sha256]);
    });

    it('refuses a UBL that lost a stand-in: it would be sent in place of the file', async () => {
      const stored = await content.storeDocument(json);
      const toWrite = content.documentToWrite(await content.document(stored.document_ref), stored.attachments);
      const text = ublWithAttachments(toWrite.document, () => parseOwnUbl(writeUbl(fromDocumentJson(json))));
      let error: unknown;
      await content
        .storeTemplate({ ...toWrite, text: text.replace(stored.attachments[0]!.content!.sha256, 'QUJD') })
        .catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/carries 0 of its 1 attachments' stand-ins/);
    });
  });
});
