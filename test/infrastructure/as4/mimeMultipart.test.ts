import { expect } from 'chai';
import {
  MimeError,
  readMultipartRelated,
  splitMimeEntity,
  writeMultipartRelated,
} from '../../../src/infrastructure/as4/mimeMultipart.js';

const everyByte = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

describe('MIME multipart/related (SOAP with attachments)', () => {
  it('round-trips a SOAP root and binary attachments byte for byte, CRLF and boundary look-alikes included', () => {
    const tricky = Buffer.concat([everyByte, Buffer.from('\r\n--not-the-boundary\r\n\r\n--'), everyByte]);
    const written = writeMultipartRelated(
      { contentType: 'application/soap+xml;charset=UTF-8', body: Buffer.from('<S12:Envelope/>') },
      [
        {
          contentId: 'a@x',
          contentType: 'application/octet-stream',
          body: tricky,
          extraHeaders: { 'Content-Description': 'Attachment' },
        },
        { contentId: 'b@x', contentType: 'application/gzip', body: Buffer.alloc(0) },
      ],
    );
    expect(written.contentType).to.match(
      /^multipart\/related; boundary="----=_Part_[A-Za-z0-9_-]+"; type="application\/soap\+xml"$/,
    );
    const read = readMultipartRelated(written.contentType, written.body);
    expect(read.rootType).to.equal('application/soap+xml');
    expect(read.root.body.toString()).to.equal('<S12:Envelope/>');
    expect(read.attachments.map((a) => [a.contentId, a.mediaType, a.body.length])).to.deep.equal([
      ['a@x', 'application/octet-stream', tricky.length],
      ['b@x', 'application/gzip', 0],
    ]);
    expect(read.attachments[0]!.body.equals(tricky)).to.equal(true);
    expect(read.attachments[0]!.headers['content-description']).to.equal('Attachment');
  });

  it('finds the root by the start parameter, skips a preamble, and undoes base64 transfer encoding', () => {
    const body = Buffer.from(
      'preamble to ignore\r\n--b\r\nContent-Type: text/plain\r\nContent-ID: <att@x>\r\nContent-Transfer-Encoding: base64\r\n\r\naGVs\r\nbG8=\r\n' +
        '--b\r\nContent-Type: application/soap+xml\r\nContent-ID: <root@x>\r\n\r\n<e/>\r\n--b--\r\n',
    );
    const read = readMultipartRelated(
      'multipart/related; boundary=b; type="application/soap+xml"; start="<root@x>"',
      body,
    );
    expect(read.root.contentId).to.equal('root@x');
    expect(read.attachments[0]!.body.toString()).to.equal('hello');
  });

  it('splits a stored MIME entity (headers, blank line, body), CRLF or LF', () => {
    expect(splitMimeEntity(Buffer.from('A: 1\r\nContent-Type: x/y;\r\n  q=1\r\n\r\nbody\r\n'))).to.deep.include({
      headers: Object.assign(Object.create(null), { a: '1', 'content-type': 'x/y; q=1' }),
    });
    expect(splitMimeEntity(Buffer.from('A: 1\n\nbody')).body.toString()).to.equal('body');
  });

  it('refuses what is not AS4 packaging, with a reason', () => {
    const part = (headers: string, content: string) => `--b\r\n${headers}\r\n\r\n${content}\r\n`;
    const cases: Array<[string, string, RegExp]> = [
      ['text/xml', '<a/>', /expected multipart\/related/],
      ['multipart/related', '--b--', /without a usable boundary/],
      ['multipart/related; boundary=b', 'nothing here', /malformed multipart body|no parts/],
      [
        'multipart/related; boundary=b',
        part('Content-Type: application/soap+xml', '<e/>') + part('Content-Type: application/gzip', 'x') + '--b--',
        /has no Content-ID/,
      ],
      [
        'multipart/related; boundary=b',
        part('Content-Type: application/soap+xml', '<e/>') +
          part('Content-ID: <a>', 'x') +
          part('Content-ID: <a>', 'y') +
          '--b--',
        /two parts have Content-ID <a>/,
      ],
      [
        'multipart/related; boundary=b; start="<zz>"',
        part('Content-Type: application/soap+xml', '<e/>') + '--b--',
        /start parameter names <zz>/,
      ],
      [
        'multipart/related; boundary=b',
        part('Content-Type: application/soap+xml\r\nContent-Transfer-Encoding: quoted-printable', '<e/>') + '--b--',
        /quoted-printable is not supported/,
      ],
    ];
    for (const [type, body, reason] of cases)
      expect(() => readMultipartRelated(type, Buffer.from(body)), type).to.throw(MimeError, reason);
    const many = Array.from({ length: 20 }, (_, i) => part(`Content-ID: <p${i}>`, 'x')).join('') + '--b--';
    expect(() =>
      readMultipartRelated('multipart/related; boundary=b', Buffer.from(many), {
        maxParts: 16,
        maxPartBytes: 100,
        maxTotalBytes: 10_000,
      }),
    ).to.throw(MimeError, /part count/);
    const big = part('Content-ID: <p>', 'x'.repeat(200)) + '--b--';
    expect(() =>
      readMultipartRelated('multipart/related; boundary=b', Buffer.from(big), {
        maxParts: 16,
        maxPartBytes: 100,
        maxTotalBytes: 10_000,
      }),
    ).to.throw(MimeError, /size/);
  });
});
