import { expect } from 'chai';
import {
  DEFAULT_MIME_LIMITS,
  MimeError,
  readMultipartRelated,
  splitMimeEntity,
  writeMultipartRelated,
} from '../../../src/infrastructure/as4/mimeMultipart.js';
import { thrownBy } from '../../support/rejection.js';

// The MIME reader and writer on the edges of what they accept, each refusal with its exact text.

const part = (headers: string, content: string) => `--b\r\n${headers}\r\n\r\n${content}\r\n`;
const RELATED = 'multipart/related; boundary=b';
const refusal = (run: () => unknown): string => thrownBy(MimeError, run).message;
const headersOf = (o: Record<string, string>) => Object.assign(Object.create(null) as Record<string, string>, o);

describe('MIME multipart/related: edges', () => {
  it('takes a Content-ID with or without angle brackets and white space, and only brackets that enclose the whole id', () => {
    const body =
      part('Content-Type: application/soap+xml', '<e/>') +
      part('Content-ID:  < a@x > ', '1') +
      part('Content-ID: b@x', '2') +
      part('Content-ID: x<c@x>', '3') +
      part('Content-ID: <d@x>x', '4') +
      '--b--';
    const read = readMultipartRelated(RELATED, Buffer.from(body));
    expect(read.attachments.map((a) => a.contentId)).to.deep.equal(['a@x', 'b@x', 'x<c@x>', '<d@x>x']);
  });

  it('without a start parameter the root is the first part, Content-ID or not', () => {
    const read = readMultipartRelated(
      RELATED,
      Buffer.from(part('Content-ID: <root@x>', '<e/>') + part('Content-ID: <a@x>', 'x') + '--b--'),
    );
    expect(read.root.contentId).to.equal('root@x');
    expect(read.rootType).to.equal(null);
    expect(read.attachments.map((a) => a.contentId)).to.deep.equal(['a@x']);
  });

  it('takes a start parameter with white space around its brackets, and refuses a body whose boundary is not at a line start', () => {
    const body = part('Content-ID: <a@x>', 'x') + part('Content-ID: <r@x>', '<e/>') + '--b--';
    expect(readMultipartRelated(`${RELATED}; start=" <r@x> "`, Buffer.from(body)).root.contentId).to.equal('r@x');
    // The delimiter must start the body or a line: `x--b` is no boundary, so the body has no parts.
    expect(
      refusal(() => readMultipartRelated(RELATED, Buffer.from(`x${part('Content-ID: <r@x>', '<e/>')}--b--`))),
    ).to.equal('the multipart body has no parts');
    // Without a delimiter at a line start anywhere, the body is given to the parser whole.
    expect(refusal(() => readMultipartRelated(RELATED, Buffer.from('x--b\r\nContent-ID: <r@x>\r\n\r\n<e/>')))).to.equal(
      'malformed multipart body: Invalid multipart stream: missing initial boundary',
    );
  });

  it('reads a part without Content-Type as text/plain, and 7bit, 8bit and a padded transfer encoding as they are', () => {
    const body =
      part('Content-ID: <r>', '<e/>') +
      part('Content-ID: <a>\r\nContent-Transfer-Encoding: 7bit', 'seven') +
      part('Content-ID: <b>\r\nContent-Transfer-Encoding: 8bit', 'eight') +
      part('Content-ID: <c>\r\nContent-Transfer-Encoding:  BASE64 ', 'aGk=') +
      '--b--';
    const read = readMultipartRelated(RELATED, Buffer.from(body));
    expect(read.root.mediaType).to.equal('text/plain');
    expect(read.attachments.map((a) => [a.contentId, a.body.toString()])).to.deep.equal([
      ['a', 'seven'],
      ['b', 'eight'],
      ['c', 'hi'],
    ]);
  });

  it('refuses with the exact reason: an unusable boundary, a body over the limit, no parts, an unknown transfer encoding', () => {
    const one = part('Content-Type: application/soap+xml', '<e/>') + '--b--';
    const b70 = 'b'.repeat(70);
    expect(
      readMultipartRelated(
        `multipart/related; boundary=${b70}`,
        Buffer.from(one.replaceAll('--b', `--${b70}`)),
      ).root.body.toString(),
    ).to.equal('<e/>');
    const b71 = 'b'.repeat(71);
    expect(
      refusal(() =>
        readMultipartRelated(`multipart/related; boundary=${b71}`, Buffer.from(one.replaceAll('--b', `--${b71}`))),
      ),
    ).to.equal('multipart/related without a usable boundary');
    const limits = { ...DEFAULT_MIME_LIMITS, maxTotalBytes: Buffer.byteLength(one) };
    expect(readMultipartRelated(RELATED, Buffer.from(one), limits).root.body.toString()).to.equal('<e/>');
    expect(refusal(() => readMultipartRelated(RELATED, Buffer.from(one + ' '), limits))).to.equal(
      `the message is larger than ${Buffer.byteLength(one)} bytes`,
    );
    expect(refusal(() => readMultipartRelated(RELATED, Buffer.from('--b--\r\n')))).to.equal(
      'the multipart body has no parts',
    );
    expect(
      refusal(() =>
        readMultipartRelated(
          RELATED,
          Buffer.from(part('Content-Transfer-Encoding: quoted-printable', '<e/>') + '--b--'),
        ),
      ),
    ).to.equal('Content-Transfer-Encoding quoted-printable is not supported');
  });

  it('splits a stored entity: folded lines joined, the first of a repeated header kept, names trimmed, the earlier of a CRLF or LF blank line', () => {
    const crlf = splitMimeEntity(Buffer.from('A : 1\r\nB: x\r\n\ty\r\na: 2\r\n\r\nbody\n\nmore'));
    expect(crlf.headers).to.deep.equal(headersOf({ a: '1', b: 'x y' }));
    expect(crlf.body.toString()).to.equal('body\n\nmore');
    const lf = splitMimeEntity(Buffer.from('A: 1\nB: 2\n\nbody\r\n\r\nmore'));
    expect(lf.headers).to.deep.equal(headersOf({ a: '1', b: '2' }));
    expect(lf.body.toString()).to.equal('body\r\n\r\nmore');
    // A continuation line with nothing above it is a line of its own (and here a malformed one).
    expect(refusal(() => splitMimeEntity(Buffer.from(' x\r\n\r\nbody')))).to.equal('malformed MIME header line:  x');
    expect(splitMimeEntity(Buffer.from('\r\n\r\nbody')).headers).to.deep.equal(headersOf({}));
    const noHeaders = splitMimeEntity(Buffer.from('\n\nbody\r\n\r\nmore'));
    expect([noHeaders.headers, noHeaders.body.toString()]).to.deep.equal([headersOf({}), 'body\r\n\r\nmore']);
  });

  it('refuses a stored entity with a header line without a name (its first 80 characters quoted) or without a blank line', () => {
    const long = ': ' + 'v'.repeat(100);
    expect(refusal(() => splitMimeEntity(Buffer.from(`A: 1\r\n${long}\r\n\r\nbody`)))).to.equal(
      `malformed MIME header line: ${long.slice(0, 80)}`,
    );
    expect(refusal(() => splitMimeEntity(Buffer.from('no colon\r\n\r\nbody')))).to.equal(
      'malformed MIME header line: no colon',
    );
    expect(refusal(() => splitMimeEntity(Buffer.from('A: 1\r\nbody')))).to.equal(
      'no blank line between MIME headers and body',
    );
  });

  it('draws another boundary while one is found in a body, and frames every part with CRLF', () => {
    const drawn = ['inside', 'inside', 'free'];
    const written = writeMultipartRelated(
      { contentType: 'application/soap+xml', body: Buffer.from('<e/>') },
      [{ contentId: 'a', contentType: 'application/octet-stream', body: Buffer.from('x--inside') }],
      () => drawn.shift()!,
    );
    expect(drawn).to.deep.equal([]);
    expect(written.contentType).to.equal('multipart/related; boundary="free"; type="application/soap+xml"');
    expect(written.body.toString('latin1')).to.equal(
      '--free\r\nContent-Type: application/soap+xml\r\nContent-Transfer-Encoding: binary\r\n\r\n<e/>\r\n' +
        '--free\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <a>\r\n\r\nx--inside\r\n' +
        '--free--\r\n',
    );
    const onlyRoot = ['inside', 'free'];
    writeMultipartRelated({ contentType: 'application/soap+xml', body: Buffer.from('--inside') }, [], () =>
      onlyRoot.shift()!,
    );
    expect(onlyRoot).to.deep.equal([]);
  });
});
