import { XmlEncodingError, XmlInputError, XmlLimitExceeded } from '../../../domain/validation/index.js';
import { UblReadError } from '../../../domain/document/ubl/ublReader.js';
import { DocumentInputRejected, DocumentRejected } from '../../../application/documents/documentCommands.js';
import { MalformedBody, WorkRefused } from '../../../application/documents/documentWork.js';
import { HttpError, type FieldProblem } from '../../errors.js';

export const XML_TYPES = /^(application|text)\/([a-z.+-]*\+)?xml/i;
/** The media types of an XML body, as the OpenAPI document lists them (XML_TYPES takes any `+xml` too). */
export const XML_UPLOAD_TYPES = ['application/xml', 'text/xml'];

/** `items[0].tax_rate` → ['body', 'items', 0, 'tax_rate']. */
export function locOf(field: string | null): Array<string | number> {
  if (!field || field.startsWith('/')) return ['body'];
  const loc: Array<string | number> = ['body'];
  for (const part of field.split('.')) {
    const match = /^([^[]+)((\[\d+\])*)$/.exec(part);
    if (!match) return ['body', field];
    loc.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) loc.push(Number(index[1]));
  }
  return loc;
}

/** Errors of the document pipeline as the spec's HTTP answers. */
export function documentErrorToHttp(error: unknown): unknown {
  // Too many bytes is the request's size (413); the other limits are about what the XML holds.
  if (error instanceof XmlLimitExceeded && error.limit === 'maxBytes') return new HttpError(413, error.message);
  if (error instanceof XmlLimitExceeded)
    return new HttpError(422, [{ loc: ['body'], msg: error.message, type: 'limit_exceeded' }]);
  if (error instanceof XmlEncodingError)
    return new HttpError(422, [{ loc: ['body'], msg: error.message, type: 'encoding_error' }]);
  if (error instanceof XmlInputError) return new HttpError(400, error.message);
  if (error instanceof DocumentInputRejected) return new HttpError(422, error.errors);
  if (error instanceof MalformedBody) return new HttpError(400, error.message);
  if (error instanceof WorkRefused) {
    if (error.reason === 'busy') return new HttpError(429, error.message, { 'Retry-After': '1' });
    // The service's fault, not the input's: a later try may well succeed.
    if (error.reason === 'worker_failed') return new HttpError(503, error.message, { 'Retry-After': '5' });
    return new HttpError(422, [{ loc: ['body'], msg: error.message, type: 'limit_exceeded' }]);
  }
  if (error instanceof UblReadError)
    return new HttpError(422, [{ loc: ['body'], msg: error.message, type: 'ubl_error' }]);
  if (error instanceof DocumentRejected) {
    const detail: FieldProblem[] = error.issues.map((issue) => ({
      loc: locOf(issue.location),
      msg: issue.rule_id ? `[${issue.rule_id}] ${issue.message.replace(/^\[[^\]]+\]\s*/, '')}` : issue.message,
      type: issue.rule_id ?? 'value_error',
    }));
    return new HttpError(422, detail);
  }
  return error;
}
