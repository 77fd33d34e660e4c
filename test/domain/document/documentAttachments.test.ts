import { expect } from 'chai';
import { checkDocument } from '../../../src/domain/document/rules/documentCheck.js';
import {
  attachmentType,
  requireTransmittable,
  ublWithAttachments,
} from '../../../src/domain/document/rules/documentAttachments.js';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import {
  fromDocumentJson,
  toDocumentJson,
  type DocumentJson,
} from '../../../src/domain/document/invoice/documentJson.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import { DomainError } from '../../../src/domain/errors.js';
import { DEFAULT_XML_LIMITS } from '../../../src/domain/validation/index.js';
import { validateAgainstSchema } from '../../../src/infrastructure/xml/schemaValidator.js';
import { realisticDocuments } from './fixtures/realisticDocuments.js';
import { parseOwnUbl, readUblText, validateUbl } from '../../../src/infrastructure/xml/ublText.js';

/** A fixture as creation stores it: the checked document (totals completed) and its UBL. */
const created = (body: Record<string, unknown>): { document: DocumentJson; ubl: string } => {
  const decoded = decodeDocumentInput(body);
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors));
  const check = checkDocument(decoded.value);
  expect(check.isValid, JSON.stringify(check.issues)).to.equal(true);
  return { document: toDocumentJson(check.document), ubl: check.ubl };
};
const png = {
  id: 'a-png',
  file_name: 'Delivery note.png',
  file_type: 'image/png',
  file_size: 8,
  file_data: Buffer.from('\x89PNG\r\n\x1a\n', 'latin1').toString('base64'),
  file_url: null,
};
const refusal = (run: () => unknown): DomainError => {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
};

/** As the worker task calls it: the current UBL is parsed only when needed. */
const withAttachments = (document: DocumentJson, ubl: string) => ublWithAttachments(document, () => parseOwnUbl(ubl));

describe('Attachments added to a document go into the UBL that is sent', () => {
  const fixtures = realisticDocuments();

  it('Given any stored document, When its UBL is written again with the same attachments, Then it is the UBL stored at creation', () => {
    // So adding or removing an attachment changes the attachments of the UBL and nothing else.
    for (const fixture of fixtures) {
      const { document, ubl } = created(fixture.body);
      expect(withAttachments(document, ubl), fixture.name).to.equal(ubl);
    }
  });

  it('Given a valid document, When an attachment is added, Then it is embedded with its mime code and file name, passes XSD and every rule, and reads back', () => {
    const { document, ubl } = created(fixtures.find((f) => f.covers.includes('attachment'))!.body);
    const before = document.attachments.length;
    const xml = withAttachments({ ...document, attachments: [...document.attachments, png] }, ubl);
    expect(xml.replace(/>\s+</g, '><')).to.contain(
      `<cac:AdditionalDocumentReference><cbc:ID>a-png</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="image/png" filename="Delivery note.png">${png.file_data}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>`,
    );
    expect(validateAgainstSchema(xml)).to.deep.equal([]);
    expect(validateUbl(xml).filter((i) => i.flag === 'fatal')).to.deep.equal([]);
    const back = readUblText(xml).attachments;
    expect(back).to.have.length(before + 1);
    expect(back[before]).to.deep.include({
      file_name: 'Delivery note.png',
      file_type: 'image/png',
      file_size: 8,
      file_data: png.file_data,
    });

    // Removing them all leaves no AdditionalDocumentReference behind.
    const without = withAttachments({ ...document, attachments: [] }, xml);
    expect(without).to.not.contain('AdditionalDocumentReference');
    expect(validateUbl(without).filter((i) => i.flag === 'fatal')).to.deep.equal([]);
  });

  it('Given a valid document, When the result would fail a rule or exceed the size the validator reads, Then it is refused; a draft not valid yet is not held to it', () => {
    const { document, ubl } = created(fixtures[0]!.body);
    const broken = { ...document, customer_name: null };
    expect(refusal(() => withAttachments(broken, ubl)).message).to.match(/would no longer pass validation: \[BR-07\]/);
    const incomplete = withAttachments({ ...broken, attachments: [png] }, writeUbl(fromDocumentJson(broken)));
    expect(incomplete).to.contain('filename="Delivery note.png"');

    const huge = {
      ...png,
      file_name: 'scan.pdf',
      file_type: 'application/pdf',
      file_data: 'A'.repeat(DEFAULT_XML_LIMITS.maxBytes),
    };
    const tooLarge = refusal(() => withAttachments({ ...document, attachments: [huge] }, ubl));
    expect(tooLarge.kind).to.equal('invalid');
    expect(tooLarge.message).to.match(/above the limit of 20971520 bytes/);
    expect(tooLarge.loc).to.deep.equal(['body', 'file']);
  });

  it('Only the six types Peppol carries, and no empty files', () => {
    for (const type of [
      'application/pdf',
      'image/png',
      'image/jpeg',
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.oasis.opendocument.spreadsheet',
    ]) {
      requireTransmittable({ file_type: type, file_size: 1 });
    }
    for (const type of ['text/plain', 'application/xml', 'application/octet-stream', 'image/gif', 'application/zip']) {
      const error = refusal(() => requireTransmittable({ file_type: type, file_size: 1 }));
      expect(error.message).to.equal(
        `Peppol invoices only carry attachments of these types: application/pdf, image/png, image/jpeg, text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.spreadsheet; this file is ${type}`,
      );
      expect(error.loc).to.deep.equal(['body', 'file']);
    }
    expect(refusal(() => requireTransmittable({ file_type: 'application/pdf', file_size: 0 })).message).to.equal(
      'The file is empty',
    );
  });

  it('An upload of no particular type is taken for what its name says; a stated type is taken at its word', () => {
    expect(attachmentType('application/octet-stream', 'Timesheet.PDF')).to.equal('application/pdf');
    expect(attachmentType(null, 'photo.jpeg')).to.equal('image/jpeg');
    expect(attachmentType('application/octet-stream', 'hours.xlsx')).to.equal(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(attachmentType('application/octet-stream', 'notes.txt')).to.equal('application/octet-stream');
    expect(attachmentType('application/octet-stream', 'no-extension')).to.equal('application/octet-stream');
    expect(attachmentType('Text/CSV; charset=utf-8', 'hours.csv')).to.equal('text/csv');
    expect(attachmentType('text/plain', 'hours.csv')).to.equal('text/plain');
  });
});
