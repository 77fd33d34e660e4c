import * as t from 'io-ts';
import type { PersonalDataErasure } from '../../../application/personalData/personalDataErasure.js';
import { decode, Nullable } from '../../codecs.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { ErasureAnswer, TenantRetentionAnswer } from '../../codecs/accountAnswers.js';

const Erasure = t.intersection([t.type({ reason: t.string }), t.partial({ legal_basis: Nullable(t.string) })]);

/**
 * The operator's routes about a tenant's retention and the erasure of its personal data
 * (docs/operating/retention-and-erasure.md).
 */
export function erasureRoutes(
  routes: RouteRegistry,
  erasure: PersonalDataErasure,
  readYourWrites: () => Promise<void>,
): void {
  routes.add({
    method: 'get',
    path: '/api/operator/tenants/:tenantId/retention',
    summary:
      'Where a tenant stands with the retention of its accounting documents: {tenant_id, organization_id, retention_years, latest_document_date, retention_until (the first day none has to be kept), retention_over, personal_data_erased_at}',
    tag: 'operator',
    auth: 'operator',
    responses: { 200: 'The retention', 404: 'Not found' },
    answer: TenantRetentionAnswer,
    handler: async (req, res, answer) => {
      await readYourWrites();
      answer(await erasure.retention(String(req.params.tenantId)));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/operator/tenants/:tenantId/erasure',
    summary:
      'Erase a tenant\'s personal data (GDPR art. 17) by destroying its personal-data keys: e-mail addresses and contact names then read as "[erased]" everywhere, its UBL, attachments and rendered PDFs of documents recorded before are gone (410); documents, amounts, lists, history and the event log stay (the history chain still verifies). Body: reason (required), legal_basis (required within the retention period of its documents, which it overrides). Recorded as the event TenantPersonalDataErased',
    tag: 'operator',
    auth: 'operator',
    body: Erasure,
    responses: {
      200: 'The erasure as recorded, with the versions of the keys destroyed',
      404: 'Not found',
      409: 'Its documents are within their retention period and no legal_basis overrides it',
      422: 'No reason',
    },
    answer: ErasureAnswer,
    handler: async (req, res, answer) => {
      const body = decode(Erasure, req.body, 'body');
      await readYourWrites();
      answer(
        await erasure.erase(
          String(req.params.tenantId),
          { reason: body.reason, legal_basis: body.legal_basis ?? null },
          commandMetadata(req, res),
        ),
      );
    },
  });
}
