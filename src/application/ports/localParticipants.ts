/** Peppol participants served by this instance: a receiver found here is delivered internally. */
export interface LocalParticipants {
  /** The tenant that receives for the participant id (`<scheme>:<identifier>`), or null. */
  tenantFor(peppolId: string): Promise<string | null>;
}

export const LOCAL_PARTICIPANTS = Symbol('LocalParticipants');
