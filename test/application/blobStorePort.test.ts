import { expect } from 'chai';
import { blobMediaType, InvalidBlobMediaTypeError, isBlobKey } from '../../src/application/ports/blobStore.js';

describe('Blob store port: keys and media types', () => {
  it('takes exactly 64 lowercase hex digits for a key', () => {
    expect(isBlobKey('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')).to.equal(true);
    expect(isBlobKey('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855')).to.equal(false);
    expect(isBlobKey('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n')).to.equal(false);
    expect(isBlobKey(String(0x1n))).to.equal(false);
  });

  it('lower-cases type and subtype, keeps parameters as given, and defaults to application/octet-stream', () => {
    expect(blobMediaType(undefined)).to.equal('application/octet-stream');
    expect(blobMediaType('')).to.equal('application/octet-stream');
    expect(blobMediaType(' Application/PDF ')).to.equal('application/pdf');
    expect(blobMediaType('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).to.equal(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(blobMediaType('text/xml;charset=UTF-8')).to.equal('text/xml;charset=UTF-8');
    expect(blobMediaType('multipart/related; type="application/soap+xml"; boundary=MIMEBoundary_4a')).to.equal(
      'multipart/related; type="application/soap+xml"; boundary=MIMEBoundary_4a',
    );
    expect(blobMediaType('application/soap+xml')).to.equal('application/soap+xml');
  });

  it('refuses what could not go into a Content-Type header as it is', () => {
    for (const bad of [
      'text',
      'text/',
      'text/plain/x',
      'text/plain\nX: y',
      'text/plain; a="b\r\nc"',
      'text/plain;',
      'text /plain',
      `a/${'b'.repeat(260)}`,
    ]) {
      expect(() => blobMediaType(bad), JSON.stringify(bad)).to.throw(InvalidBlobMediaTypeError);
    }
  });
});
