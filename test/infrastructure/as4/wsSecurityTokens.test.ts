import { expect } from 'chai';
import { NS, TOKEN } from '../../../src/infrastructure/as4/namespaces.js';
import {
  certificateOfKeyInfo,
  idOf,
  readReference,
  referenceXml,
  SecurityHeaderError,
  securityHeader,
} from '../../../src/infrastructure/as4/wsSecurityTokens.js';
import { firstChild, parseUntrustedXmlDom } from '../../../src/infrastructure/as4/xmlDom.js';
import { thrownBy } from '../../support/rejection.js';

// The WS-Security helpers on hand-made elements: ids, the key reference, and ds:Reference read and written.

const refusal = (run: () => unknown): string => thrownBy(SecurityHeaderError, run).message;
const root = (xml: string) => parseUntrustedXmlDom(xml).documentElement!;

describe('WS-Security helpers: ids, key references, ds:Reference', () => {
  it('names an element by wsu:Id, else Id, ID or id', () => {
    const ids = [
      '<a xmlns:wsu="' + NS.wsu + '" wsu:Id="w" Id="x"/>',
      '<a Id="x" ID="y"/>',
      '<a ID="y" id="z"/>',
      '<a id="z"/>',
      '<a/>',
    ];
    expect(ids.map((xml) => idOf(root(xml)))).to.deep.equal(['w', 'x', 'y', 'z', null]);
  });

  it('refuses an envelope without a Header as having no wsse:Security header', () => {
    const doc = parseUntrustedXmlDom(`<S:Envelope xmlns:S="${NS.soap12}"><S:Body/></S:Envelope>`);
    expect(refusal(() => securityHeader(doc))).to.equal('the message has no wsse:Security header');
  });

  it('refuses a key reference to an element that is not a wsse:BinarySecurityToken', () => {
    const keyInfo = (target: string) => {
      const doc = parseUntrustedXmlDom(
        `<S:Envelope xmlns:S="${NS.soap12}" xmlns:wsse="${NS.wsse}" xmlns:wsu="${NS.wsu}"><S:Header>${target}` +
          `<ds:KeyInfo xmlns:ds="${NS.ds}"><wsse:SecurityTokenReference><wsse:Reference URI="#t"/></wsse:SecurityTokenReference></ds:KeyInfo>` +
          '</S:Header><S:Body/></S:Envelope>',
      );
      const header = firstChild(doc.documentElement!, NS.soap12, 'Header')!;
      return () => certificateOfKeyInfo(doc, firstChild(header, NS.ds, 'KeyInfo'));
    };
    const token = `ValueType="${TOKEN.x509v3}" wsu:Id="t"`;
    expect(
      refusal(keyInfo(`<x:BinarySecurityToken xmlns:x="urn:other" ${token}>AA==</x:BinarySecurityToken>`)),
    ).to.equal('#t is not a BinarySecurityToken');
    expect(refusal(keyInfo(`<wsse:SecurityToken ${token}>AA==</wsse:SecurityToken>`))).to.equal(
      '#t is not a BinarySecurityToken',
    );
  });

  it('reads a bare ds:Reference as empty texts, and a PrefixList without its extra white space', () => {
    const bare = root(`<ds:Reference xmlns:ds="${NS.ds}"/>`);
    expect(readReference(bare)).to.deep.equal({ uri: '', transforms: [], digestMethod: '', digestValue: '' });
    const partial = root(
      `<ds:Reference xmlns:ds="${NS.ds}" xmlns:ec="${NS.ec}"><ds:Transforms><ds:Transform/>` +
        `<ds:Transform Algorithm="c14n"><ec:InclusiveNamespaces PrefixList="  S12  eb "/></ds:Transform></ds:Transforms>` +
        '<ds:DigestMethod/><ds:DigestValue> AA\n== </ds:DigestValue></ds:Reference>',
    );
    expect(readReference(partial)).to.deep.equal({
      uri: '',
      transforms: [
        { algorithm: '', inclusivePrefixes: null },
        { algorithm: 'c14n', inclusivePrefixes: ['S12', 'eb'] },
      ],
      digestMethod: '',
      digestValue: 'AA==',
    });
  });

  it('writes a ds:Reference exactly: an InclusiveNamespaces only for a non-empty prefix list, its prefixes space-separated', () => {
    const written = referenceXml({
      uri: '#b',
      transforms: [
        { algorithm: 'a1', inclusivePrefixes: null },
        { algorithm: 'a2', inclusivePrefixes: [] },
        { algorithm: 'a3', inclusivePrefixes: ['S12', 'eb'] },
      ],
      digestMethod: 'sha',
      digestValue: 'AA==',
    });
    expect(written).to.equal(
      '<ds:Reference URI="#b"><ds:Transforms><ds:Transform Algorithm="a1"/><ds:Transform Algorithm="a2"/>' +
        `<ds:Transform Algorithm="a3"><ec:InclusiveNamespaces xmlns:ec="${NS.ec}" PrefixList="S12 eb"/></ds:Transform>` +
        '</ds:Transforms><ds:DigestMethod Algorithm="sha"/><ds:DigestValue>AA==</ds:DigestValue></ds:Reference>',
    );
  });
});
