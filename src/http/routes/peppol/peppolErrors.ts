import { RegistrationFieldError, SmlUnavailableError } from '../../../application/peppol/peppolRegistration.js';
import { HttpError } from '../../errors.js';

/** Peppol registration failures as the spec's HTTP answers; anything else passes through unchanged. */
export function peppolErrorToHttp(error: unknown): unknown {
  if (error instanceof RegistrationFieldError)
    return new HttpError(422, [{ loc: ['body', error.field], msg: error.message, type: 'value_error' }]);
  if (error instanceof SmlUnavailableError) return new HttpError(502, error.message);
  return error;
}
