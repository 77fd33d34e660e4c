import type { MlsType } from '../../domain/peppol/as4/sbdh.js';

/**
 * This access point as a Peppol service provider, beyond its AS4 key: the SPIS participant id it
 * receives MLS at and sends MLS and reports from, its country, and what it does about MLS and the
 * Peppol Reporting. Built from the settings at start (composition/peppol.ts).
 */
export interface ServiceProvider {
  /** `0242:<SPID>`; null when this instance has no AS4 identity (then it sends nothing on its own account). */
  participant: string | null;
  /** COUNTRY_C1 of the messages it sends as the provider; null when neither set nor in its certificate. */
  country: string | null;
  /** The MLS_TYPE the SBDH of the documents we send asks for (MLS_TO is `participant`). */
  mlsType: MlsType;
  /** As the receiving provider: whether the MLS the senders ask for is sent. */
  mlsSend: boolean;
  /** The monthly reports: their receiver (OpenPeppol), and whether they are sent at all. */
  reporting: { receiver: string; submit: boolean };
}

export const SERVICE_PROVIDER = Symbol('ServiceProvider');
