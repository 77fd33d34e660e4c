import { expect } from 'chai';
import { formatAddress, parseAddress } from '../../../src/domain/document/invoice/addressParser.js';

describe('Address parsing', () => {
  const cases: Array<[string, Record<string, string | null>]> = [
    [
      'Rue de la Loi 16, 1000 Brussels, Belgium',
      {
        street: 'Rue de la Loi 16',
        additional_street: null,
        city: 'Brussels',
        postal_code: '1000',
        country_code: 'BE',
      },
    ],
    [
      'Keizersgracht 1\n1015 CJ Amsterdam\nNL',
      {
        street: 'Keizersgracht 1',
        additional_street: null,
        city: 'Amsterdam',
        postal_code: '1015 CJ',
        country_code: 'NL',
      },
    ],
    [
      'Friedrichstraße 123, 10117 Berlin, Deutschland',
      {
        street: 'Friedrichstraße 123',
        additional_street: null,
        city: 'Berlin',
        postal_code: '10117',
        country_code: 'DE',
      },
    ],
    [
      'Marienplatz 8\nD-80331 München',
      { street: 'Marienplatz 8', additional_street: null, city: 'München', postal_code: '80331', country_code: 'DE' },
    ],
    [
      'Bâtiment B\n3 avenue Jean Jaurès\n69007 Lyon\nFrance',
      {
        street: 'Bâtiment B',
        additional_street: '3 avenue Jean Jaurès',
        city: 'Lyon',
        postal_code: '69007',
        country_code: 'FR',
      },
    ],
    [
      '12 rue de Rivoli, 75001 Paris, France',
      { street: '12 rue de Rivoli', additional_street: null, city: 'Paris', postal_code: '75001', country_code: 'FR' },
    ],
    [
      'Rue de la Loi 16 1000 Brussel',
      { street: 'Rue de la Loi 16', additional_street: null, city: 'Brussel', postal_code: '1000', country_code: null },
    ],
    [
      '10 Downing Lane, London SW1A 2AA, United Kingdom',
      {
        street: '10 Downing Lane',
        additional_street: null,
        city: 'London',
        postal_code: 'SW1A 2AA',
        country_code: 'GB',
      },
    ],
    [
      'Kortrijksesteenweg 200\n9000 Gent\nBelgique',
      {
        street: 'Kortrijksesteenweg 200',
        additional_street: null,
        city: 'Gent',
        postal_code: '9000',
        country_code: 'BE',
      },
    ],
  ];
  for (const [input, want] of cases) {
    it(`parses ${JSON.stringify(input)}`, () => expect(parseAddress(input)).to.deep.equal(want));
  }
  it('leaves what it cannot recognise null, and an empty address is all null', () => {
    expect(parseAddress('')).to.deep.equal({
      street: null,
      additional_street: null,
      city: null,
      postal_code: null,
      country_code: null,
    });
    expect(parseAddress('Somewhere, Atlantis').country_code).to.equal(null);
  });
  it('formatAddress and parseAddress are inverse for structured addresses (including odd postal prefixes)', () => {
    for (const a of [
      {
        street: 'Bjerkåsholmen 125',
        additional_street: null,
        city: 'Slemmestad',
        postal_code: 'NO-3470',
        country_code: 'DK',
      },
      {
        street: 'Main Street 1',
        additional_street: 'Building A',
        city: 'Dublin',
        postal_code: null,
        country_code: 'IE',
      },
      { street: null, additional_street: null, city: 'London', postal_code: 'SW1A 2AA', country_code: 'GB' },
    ]) {
      expect(parseAddress(formatAddress(a))).to.deep.equal(a);
    }
  });
});
