import type { TransportEvidenceChecks } from '../application/evidence/verifyBundle.js';
import { checkAs4Evidence } from './as4/receiptEvidence.js';
import { readEmailAttachments } from './mail/emailEvidence.js';

/** How `npm run verify-evidence` reads a bundle's transport evidence: AS4 exchanges and e-mails as sent. */
export const transportEvidenceChecks: TransportEvidenceChecks = {
  as4: checkAs4Evidence,
  emailAttachments: readEmailAttachments,
};
