import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  SmpFormatError,
  readBusinessCard,
  readServiceGroup,
  readServiceMetadata,
} from '../../../src/domain/peppol/smpReader.js';
import { businessCardXml, serviceGroupXml } from '../../../src/domain/peppol/smpDocuments.js';
import { sharedDir } from '../document/sharedDir.js';
import { everyElement } from '../../../src/domain/xml/xmlTree.js';
import { remoteXmlTree } from '../../../src/infrastructure/peppol/remoteXml.js';

const examples = path.join(sharedDir(), 'peppol-vectors', 'peppol-commons', 'businesscard', 'examples');

describe('SMP and business card readers', () => {
  it('refuses DOCTYPEs, entities, malformed XML and unexpected roots', () => {
    const cases = [
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      '<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"',
    ];
    for (const xml of cases) expect(() => remoteXmlTree(xml)).to.throw(SmpFormatError);
    expect(() => readServiceGroup(remoteXmlTree('<ServiceGroup/>'))).to.throw(SmpFormatError, /ServiceGroup/);
    expect(() =>
      readServiceMetadata(remoteXmlTree('<x xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"/>')),
    ).to.throw(SmpFormatError);
    expect(() => readBusinessCard(remoteXmlTree('<BusinessCard xmlns="urn:other"/>'))).to.throw(SmpFormatError);
  });

  it('reads back the ServiceGroup and business card we write, with escaped text', () => {
    const group = readServiceGroup(
      remoteXmlTree(
        serviceGroupXml({ scheme: 'iso6523-actorid-upis', value: '0208:0123456749' }, ['http://a.test/x?a=1&b=2']),
      ),
    );
    expect(group).to.deep.equal({
      participant: { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' },
      references: ['http://a.test/x?a=1&b=2'],
    });
    const card = {
      participant: { scheme: 'iso6523-actorid-upis', value: '0208:0123456749' },
      entities: [
        {
          names: ['A & B <NV>'],
          countryCode: 'BE',
          registrationDate: '2026-01-02',
          geographicalInformation: null,
          identifiers: [{ scheme: 'VAT', value: 'BE0123456749' }],
          websites: [],
          additionalInformation: null,
        },
      ],
    };
    expect(readBusinessCard(remoteXmlTree(businessCardXml(card)))).to.deep.equal(card);
  });

  describe('peppol-commons business card examples (v1, v2, v3)', () => {
    before(function () {
      if (fs.existsSync(examples)) return;
      if (process.env.CI === 'true') throw new Error(`business card examples missing at ${examples}`);
      console.log(`  [skipped] business card examples not found at ${examples} (set SHARED_DIR)`);
      this.skip();
    });

    it('reads every example, one entity per BusinessEntity, with a trimmed participant id', () => {
      let files = 0;
      for (const version of ['v1', 'v2', 'v3']) {
        for (const file of fs.readdirSync(path.join(examples, version))) {
          const doc = remoteXmlTree(fs.readFileSync(path.join(examples, version, file), 'utf8'));
          const card = readBusinessCard(doc);
          const entities = everyElement(doc).filter((e) => e.local === 'BusinessEntity').length;
          expect(card.entities, `${version}/${file}`).to.have.length(entities);
          expect(card.participant.value, `${version}/${file}`).to.match(/^\S+$/);
          files++;
        }
      }
      expect(files).to.be.greaterThan(15);
    });

    it('reads the specification examples field by field', () => {
      for (const version of ['v1', 'v2', 'v3']) {
        const card = readBusinessCard(
          remoteXmlTree(
            fs.readFileSync(path.join(examples, version, `business-card-example-spec-${version}.xml`), 'utf8'),
          ),
        );
        expect(card.participant).to.deep.equal({ scheme: 'iso6523-actorid-upis', value: '0088:example' });
        const [entity] = card.entities;
        expect(entity!.names[0]).to.equal('ACME Inc.');
        expect(entity).to.deep.include({
          countryCode: 'AT',
          registrationDate: '2010-07-06',
          geographicalInformation: 'ACME street 123',
        });
        expect(entity!.identifiers).to.deep.equal([
          { scheme: 'VAT', value: 'ATU12345678' },
          { scheme: 'OrgNr', value: 'hjdh7as9ds' },
        ]);
        // Version 2 dropped WebsiteURI and AdditionalInformation; versions 1 and 3 have them.
        if (version === 'v2') {
          expect(entity).to.deep.include({ websites: [], additionalInformation: null });
        } else {
          expect(entity!.websites).to.deep.equal(['https://www.acme.org']);
          expect(entity!.additionalInformation).to.match(
            /^This is the free text of the business entity\. You can write anything/,
          );
        }
      }
      const v3 = readBusinessCard(
        remoteXmlTree(fs.readFileSync(path.join(examples, 'v3', 'business-card-example-spec-v3.xml'), 'utf8')),
      );
      expect(v3.entities[0]!.names).to.deep.equal(['ACME Inc.', 'Whatsoever Inc.']);
      const trimmed = readBusinessCard(
        remoteXmlTree(fs.readFileSync(path.join(examples, 'v2', 'bc-0088-5033466000005.xml'), 'utf8')),
      );
      expect(trimmed.participant.value).to.equal('0088:5033466000005');
    });
  });
});
