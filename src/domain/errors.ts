/**
 * Why a command was refused. The HTTP layer maps each kind to a status code
 * (not_found 404, conflict 409, invalid_state 409, invalid 422, gone 410), so the domain stays free of HTTP.
 */
export type DomainErrorKind = 'not_found' | 'conflict' | 'invalid_state' | 'invalid' | 'gone';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** For `invalid`: the offending input's path (e.g. ['query', 'receiver_peppol_id']). */
    readonly loc?: Array<string | number>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const invalidState = (message: string) => new DomainError('invalid_state', message);
export const invalid = (message: string, loc?: Array<string | number>) => new DomainError('invalid', message, loc);
/** What existed and can no longer be read (e.g. content whose personal data was erased). */
export const gone = (message: string) => new DomainError('gone', message);
