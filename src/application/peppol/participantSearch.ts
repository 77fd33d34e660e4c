import { PARTICIPANT_SCHEME } from '../../domain/peppol/participantId.js';
import { DOCUMENT_ID_SCHEME, RECEIVED_DOCUMENT_TYPES } from '../../domain/peppol/smpDocuments.js';
import { PEPPOL_DIRECTORY, type PeppolDirectory } from '../ports/peppolNetwork.js';
import { ParticipantRegistry } from './participantRegistry.js';
import { inject, injectable } from '../injection.js';
import { participantKey } from '../../domain/peppol/participantId.js';

/** One participant in the e-invoice-api client's LookupRetrieveParticipantsResponse.Participant shape. */
export interface ParticipantMatch {
  peppol_id: string;
  peppol_scheme: string;
  document_types: Array<{ scheme: string; value: string }>;
  entities: Array<{
    name: string | null;
    country_code: string | null;
    registration_date: string | null;
    identifiers: Array<{ scheme: string; value: string }>;
    website: string | null;
    geo_info: string | null;
    additional_info: string | null;
  }>;
}

export interface ParticipantSearchResult {
  query_terms: string;
  search_date: string;
  total_count: number;
  used_count: number;
  participants: ParticipantMatch[];
  /** Ours: the Peppol Directory's failure, when it was asked and failed (local results are still given). */
  directory_error?: string;
}

/**
 * Searches this instance's registry, then the Peppol Directory when one is configured. A
 * participant found in both is listed once, from our registry (which is current for it).
 */
@injectable()
export class ParticipantSearch {
  constructor(
    @inject(ParticipantRegistry) private readonly registry: ParticipantRegistry,
    @inject(PEPPOL_DIRECTORY) private readonly directory: PeppolDirectory | null,
  ) {}

  async search(query: string, countryCode: string | null): Promise<ParticipantSearchResult> {
    const local = await this.registry.search(query, countryCode);
    const participants: ParticipantMatch[] = local.participants.map((p) => ({
      peppol_id: p.peppol_id,
      peppol_scheme: PARTICIPANT_SCHEME,
      document_types: RECEIVED_DOCUMENT_TYPES.map((value) => ({ scheme: DOCUMENT_ID_SCHEME, value })),
      entities: [
        {
          name: p.company_name,
          country_code: p.country_code,
          registration_date: p.registered_at.slice(0, 10),
          identifiers: [],
          website: null,
          geo_info: null,
          additional_info: null,
        },
      ],
    }));
    let total = local.total;
    let directoryError: string | undefined;
    if (this.directory) {
      try {
        const found = await this.directory.search(query, countryCode);
        const known = new Set(participants.map((p) => participantKey(p.peppol_id)));
        let duplicates = 0;
        for (const match of found.matches) {
          if (known.has(participantKey(match.participantID.value))) {
            duplicates++;
            continue;
          }
          participants.push({
            peppol_id: match.participantID.value,
            peppol_scheme: match.participantID.scheme || PARTICIPANT_SCHEME,
            document_types: match.docTypes,
            entities: match.entities.map((entity) => ({
              name: entity.name[0]?.name ?? null,
              country_code: entity.countryCode,
              registration_date: entity.regDate,
              identifiers: entity.identifiers,
              website: entity.websites[0] ?? null,
              geo_info: entity.geoInfo,
              additional_info: entity.additionalInfo,
            })),
          });
        }
        total += Math.max(0, found.total - duplicates);
      } catch (error) {
        directoryError = error instanceof Error ? error.message : String(error);
      }
    }
    return {
      query_terms: query,
      search_date: new Date().toISOString(),
      total_count: total,
      used_count: participants.length,
      participants,
      ...(directoryError ? { directory_error: directoryError } : {}),
    };
  }
}
