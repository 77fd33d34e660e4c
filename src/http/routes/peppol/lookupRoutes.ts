import * as t from 'io-ts';
import type { ParticipantLookup } from '../../../application/peppol/participantLookup.js';
import type { ParticipantSearch } from '../../../application/peppol/participantSearch.js';
import { validationOf } from '../../../application/peppol/lookupResult.js';
import { isCountryCode } from '../../../domain/document/invoice/codeLists.js';
import { parsePeppolId } from '../../../domain/document/invoice/peppolId.js';
import { decode, NonEmptyString } from '../../codecs.js';
import { HttpError } from '../../errors.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { requestBase } from './requestBase.js';
import { LookupAnswer, ParticipantSearchAnswer, PeppolIdValidationAnswer } from '../../codecs/peppolAnswers.js';

const PeppolIdQuery = t.type({ peppol_id: t.string });
const SearchQuery = t.intersection([t.type({ query: NonEmptyString }), t.partial({ country_code: t.string })]);

function participantOf(query: unknown) {
  const parsed = parsePeppolId(decode(PeppolIdQuery, query, 'query').peppol_id);
  if (!parsed.ok) throw new HttpError(422, [{ loc: ['query', 'peppol_id'], msg: parsed.message, type: 'value_error' }]);
  return parsed.value;
}

/** Peppol lookups for tenants, in the e-invoice-api client's shapes. */
export function lookupRoutes(
  routes: RouteRegistry,
  lookup: ParticipantLookup,
  search: ParticipantSearch,
  readYourWrites: () => Promise<void>,
  version: string,
): void {
  routes.add({
    method: 'get',
    path: '/api/lookup',
    summary:
      'Look up a Peppol participant (`<scheme>:<id>`) the way Peppol does: SML DNS (U-NAPTR), SMP service metadata with signature and certificate checks, business card; each step reported. Participants of this service answer locally',
    tag: 'lookup',
    auth: 'tenant',
    query: PeppolIdQuery,
    responses: { 200: "Lookup result (status 'error' with the reason when the participant is not found)" },
    answer: LookupAnswer,
    handler: async (req, _res, answer) => {
      const id = participantOf(req.query);
      await readYourWrites();
      answer(await lookup.lookup(id, requestBase(req), version));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/validate/peppol-id',
    summary:
      'Check that a Peppol id is well-formed, registered in the network (SML + SMP) and which document types it receives',
    tag: 'validation',
    auth: 'tenant',
    query: PeppolIdQuery,
    responses: { 200: 'is_valid, dns_valid, business_card_valid, business_card, supported_document_types' },
    answer: PeppolIdValidationAnswer,
    handler: async (req, _res, answer) => {
      const id = participantOf(req.query);
      await readYourWrites();
      answer(validationOf(await lookup.lookup(id, requestBase(req), version)));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/lookup/participants',
    summary:
      "Search Peppol participants by name or id: this service's registry, and the Peppol Directory when PEPPOL_DIRECTORY_URL is set",
    tag: 'lookup',
    auth: 'tenant',
    query: SearchQuery,
    responses: { 200: 'query_terms, search_date, total_count, used_count, participants' },
    answer: ParticipantSearchAnswer,
    handler: async (req, _res, answer) => {
      const query = decode(SearchQuery, req.query, 'query');
      const country = query.country_code?.trim().toUpperCase() || null;
      if (country !== null && !isCountryCode(country)) {
        throw new HttpError(422, [
          {
            loc: ['query', 'country_code'],
            msg: 'country_code must be an ISO 3166-1 alpha-2 code',
            type: 'value_error',
          },
        ]);
      }
      await readYourWrites();
      answer(await search.search(query.query.trim(), country));
    },
  });
}
