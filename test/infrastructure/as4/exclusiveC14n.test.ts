import { expect } from 'chai';
import { canonicalize } from '../../../src/infrastructure/as4/exclusiveC14n.js';
import { parseOwnXmlDom } from '../../../src/infrastructure/as4/xmlDom.js';

describe('Exclusive C14N of an element in its document', () => {
  it('declares a listed prefix that an ancestor binds, passes over one that no ancestor binds, and leaves the document as it was', () => {
    const doc = parseOwnXmlDom('<a xmlns:p="urn:p" xmlns:q="urn:q"><b><p:c/></b></a>');
    const b = doc.documentElement!.firstChild as Element;
    expect(canonicalize(b, ['unbound', 'p', 'q'])).to.equal('<b xmlns:p="urn:p" xmlns:q="urn:q"><p:c></p:c></b>');
    expect(canonicalize(b, ['unbound'])).to.equal('<b><p:c xmlns:p="urn:p"></p:c></b>');
    expect(b.attributes.length).to.equal(0);
  });
});
