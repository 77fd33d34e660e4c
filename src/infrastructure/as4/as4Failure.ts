import type { EbmsErrorName } from '../../domain/peppol/as4/ebmsError.js';

/**
 * A message this AP cannot accept, with the ebMS error it answers: each step of opening a message
 * knows which error its own failure is (MIME → EBMS:0007, security → 0101/0102, gzip → 0303 …).
 */
export class As4Failure extends Error {
  constructor(
    readonly ebms: EbmsErrorName,
    message: string,
  ) {
    super(message);
    this.name = 'As4Failure';
  }
}
