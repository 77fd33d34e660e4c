import { ownEntry } from '../ownEntry.js';

/**
 * The country an identifier scheme belongs to, for the business card's mandatory CountryCode.
 * National registers and VAT schemes have one; international schemes (GLN 0088, DUNS 0060/9999,
 * ...) have none, and the country must then come from elsewhere.
 */
const SCHEME_COUNTRY: Readonly<Record<string, string>> = {
  '0002': 'FR', '0009': 'FR', '0007': 'SE', '0037': 'FI', '0096': 'DK', '0106': 'NL', '0130': 'EU',
  '0135': 'IT', '0142': 'IT', '0151': 'AU', '0183': 'CH', '0184': 'DK', '0188': 'JP', '0190': 'NL',
  '0192': 'NO', '0195': 'SG', '0196': 'IS', '0198': 'DK', '0200': 'LT', '0201': 'IT', '0204': 'DE',
  '0208': 'BE', '0209': 'BE', '0210': 'IT', '0211': 'IT', '0212': 'FI', '0213': 'FI', '0215': 'FI',
  '0216': 'FI', '0221': 'JP', '0225': 'FR', '0230': 'MY', '0235': 'AE', '0240': 'LU', '0242': 'SE',
  '0244': 'LU', '0246': 'DE', '9901': 'DK', '9906': 'IT', '9907': 'IT', '9910': 'HU', '9914': 'AT',
  '9915': 'AT', '9918': 'IT', '9919': 'AT', '9920': 'ES', '9922': 'AD', '9923': 'AL', '9924': 'BA',
  '9925': 'BE', '9926': 'BG', '9927': 'CH', '9928': 'CY', '9929': 'CZ', '9930': 'DE', '9931': 'EE',
  '9932': 'GB', '9933': 'GR', '9934': 'HR', '9935': 'IE', '9936': 'LI', '9937': 'LT', '9938': 'LU',
  '9939': 'LV', '9940': 'MC', '9941': 'ME', '9942': 'MK', '9943': 'MT', '9944': 'NL', '9945': 'PL',
  '9946': 'PT', '9947': 'RO', '9948': 'RS', '9949': 'SI', '9950': 'SK', '9951': 'SM', '9952': 'TR',
  '9953': 'VA', '9956': 'BE', '9957': 'FR', '9959': 'US',
};

/** null for international schemes and for 0130 (EU institutions: not a country code). */
export function countryOfScheme(scheme: string): string | null {
  const country = ownEntry(SCHEME_COUNTRY, scheme);
  return country && country !== 'EU' ? country : null;
}
