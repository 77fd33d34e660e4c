import { DocumentInputRejected, DocumentRejected } from '../../application/documents/documentCommands.js';
import { PdfUnreadable } from '../../application/documents/pdfPorts.js';
import { MalformedBody } from '../../application/documents/documentWork.js';
import { UblReadError } from '../../domain/document/ubl/ublReader.js';
import { DomainError } from '../../domain/errors.js';
import { XmlEncodingError, XmlInputError, XmlLimitExceeded } from '../../domain/validation/errors.js';

/*
 * A worker's errors cross the thread boundary as plain data and become the same classes again on
 * this side, so the HTTP layer maps an error from a worker exactly as one thrown in-thread.
 * Anything not listed here is an internal failure (a 500, logged with its message).
 */
const KNOWN: ReadonlyArray<new (...args: never[]) => Error> = [
  DomainError,
  DocumentRejected,
  DocumentInputRejected,
  MalformedBody,
  PdfUnreadable,
  UblReadError,
  XmlInputError,
  XmlLimitExceeded,
  XmlEncodingError,
];

export interface SerializedError {
  name: string;
  message: string;
  /** The error's own fields (kind, loc, issues, reason, limit, …). */
  fields: Record<string, unknown>;
  known: boolean;
}

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {}, known: false };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error))
    if (key !== 'name' && key !== 'message' && key !== 'stack') fields[key] = value;
  const known = KNOWN.some((type) => error instanceof type);
  return { name: error.name, message: error.message, fields, known };
}

/** The class an error was thrown as: the nearest known class by name, or a plain Error. */
export function reviveError(serialized: SerializedError): Error {
  const type = serialized.known ? BY_NAME.get(serialized.name) : undefined;
  const error = Object.create((type ?? Error).prototype) as Error;
  Object.assign(error, serialized.fields);
  Object.defineProperty(error, 'message', { value: serialized.message, writable: true, configurable: true });
  Object.defineProperty(error, 'name', { value: serialized.name, writable: true, configurable: true });
  Error.captureStackTrace(error, reviveError);
  return error;
}

const BY_NAME = new Map<string, new (...args: never[]) => Error>(KNOWN.map((type) => [type.name, type]));
