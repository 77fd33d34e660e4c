import type { MlsType, ScopedId } from '../as4/sbdh.js';
import { MLS_NO_LOCATION, type MlsIssue, type MlsResponseCode } from './messageLevelStatus.js';
import { acceptableMlsTo, spidOf, spidParticipantOfSeat } from './serviceProviderId.js';

/** What became of a business document received over AS4, as far as its MLS goes. */
export type ReceivedOutcome =
  /** In the receiver's inbox (or, for an Invoice Response, taken in). */
  | { kind: 'delivered' }
  /** Refused by the business rules: not delivered. `issues`: the fatal rules that fired. */
  | { kind: 'refused'; issues: Array<{ rule_id: string | null; message: string; location: string | null }> }
  /** An MLS itself: never answered by one. */
  | { kind: 'mls' };

export interface MlsRequest {
  /** The SBDH's MLS_TO and MLS_TYPE, as received (absent: null). */
  mlsTo: ScopedId | null;
  mlsType: MlsType | null;
  /** The sending access point's seat id (the AS4 signer). */
  senderAp: string;
}

export interface OwedMls {
  /** `0242:<SPID>`: where the MLS goes. */
  to: string;
  code: MlsResponseCode;
  description: string | null;
  issues: MlsIssue[];
}

/** An RE lists at most this many issues (and says how many more there were). */
export const MLS_MAX_ISSUES = 100;

/**
 * Whether, and which, MLS this access point (C3) owes the sending provider (C2) for a received
 * document. None for an MLS (MLS is never answered by MLS); none for a delivered document unless the
 * sender asked ALWAYS_SEND (an absent MLS_TYPE is FAILURE_ONLY, the Peppol Network Policy's default).
 * A delivered document is AP: it is in its receiver's inbox on this platform, there is no hop after
 * it that could still fail. A document the business rules refuse is RE, one BV issue per fatal rule.
 * It goes to MLS_TO when that names the sending provider's own SPID, else to the SPID of the
 * sender's seat; none when neither can be named.
 */
export function mlsOwed(outcome: ReceivedOutcome, request: MlsRequest): OwedMls | null {
  if (outcome.kind === 'mls') return null;
  const to =
    request.mlsTo && acceptableMlsTo(request.mlsTo, request.senderAp)
      ? `0242:${spidOf(request.mlsTo.value)}`
      : spidParticipantOfSeat(request.senderAp);
  if (!to) return null;
  if (outcome.kind === 'delivered')
    return request.mlsType === 'ALWAYS_SEND' ? { to, code: 'AP', description: null, issues: [] } : null;
  const shown = outcome.issues.slice(0, MLS_MAX_ISSUES);
  const issues: MlsIssue[] = shown.map((issue) => ({
    location: issue.location || MLS_NO_LOCATION,
    description: issue.rule_id ? `[${issue.rule_id}] ${issue.message}` : issue.message,
    reason: 'BV',
  }));
  const rest = outcome.issues.length - shown.length;
  if (rest > 0)
    issues.push({ location: MLS_NO_LOCATION, description: `${rest} more business rule failures`, reason: 'BV' });
  const count = outcome.issues.length;
  return {
    to,
    code: 'RE',
    description: `The document was not delivered: it fails ${count} business rule${count === 1 ? '' : 's'}`,
    issues,
  };
}
