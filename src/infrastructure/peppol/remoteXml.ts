import type libxmljs from 'libxmljs';
import type { RemoteXmlReader } from '../../application/ports/peppolNetwork.js';
import { DEFAULT_XML_LIMITS } from '../../domain/validation/xml/limits.js';
import { XmlInputError } from '../../domain/validation/errors.js';
import { MAX_SMP_RESPONSE_BYTES, SmpFormatError } from '../../domain/peppol/smpReader.js';
import type { XNode } from '../../domain/xml/xmlTree.js';
import { checkXmlLimits } from '../xml/xmlLimitsScan.js';
import { gateParse, MalformedXml, parseCheckedXml } from '../xml/xmlParser.js';

/*
 * XML from another server (SMP responses, business cards, the SML's SOAP answers): no DOCTYPE at
 * all, no entity substitution, no DTD loading, no network, as for uploads (xml/xmlParser.ts), and
 * refused as a SmpFormatError. A response is a few kB: it is held to MAX_SMP_RESPONSE_BYTES and to
 * the default element limits, whatever the service allows uploads.
 */

function checked(text: string): string {
  if (text.length > MAX_SMP_RESPONSE_BYTES) throw new SmpFormatError(`response too large (${text.length} characters)`);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text))
    throw new SmpFormatError('DTD / DOCTYPE declarations are not accepted');
  return text;
}

function asFormatError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof MalformedXml) throw new SmpFormatError(`malformed XML: ${error.detail.trim()}`);
    if (error instanceof XmlInputError) throw new SmpFormatError(error.message);
    throw error;
  }
}

/** libxml2's document, for what needs it: XML signatures (xmlSignatures.ts), SOAP faults (smlSoapPublisher.ts). */
export function parseRemoteXml(text: string): libxmljs.XMLDocument {
  return asFormatError(() => gateParse(checked(text)));
}

/** The tree the SMP readers take (domain/peppol/smpReader.ts). */
export function remoteXmlTree(text: string): XNode {
  return asFormatError(() => {
    checkXmlLimits(checked(text), DEFAULT_XML_LIMITS);
    return parseCheckedXml(text).root;
  });
}

export class SmpXmlReader implements RemoteXmlReader {
  read(xml: string): XNode {
    return remoteXmlTree(xml);
  }
}
