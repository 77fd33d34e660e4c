import * as t from 'io-ts';
import type { DocumentCommands } from '../../../application/documents/documentCommands.js';
import { ruleSetsAsOf, type RuleSetClock } from '../../../application/documents/ruleSetChoice.js';
import { tenantOf } from '../../auth.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { uploadedFile } from '../../uploads.js';
import { DocumentCreateCodec } from '../../codecs/documentCodec.js';
import { XML_TYPES, XML_UPLOAD_TYPES } from './documentErrors.js';
import { RuleSetsAnswer, ValidationAnswer } from '../../codecs/documentAnswers.js';

/**
 * `rule_set`: check by that release instead of the one in force (e.g. the next one, ahead of its
 * day); an unknown name is a 422 at ['query', 'rule_set'].
 */
const RuleSetQuery = t.partial({ rule_set: t.string });
const requestedRuleSet = (query: unknown) => (query as { rule_set?: string }).rule_set;

/** Validation of a JSON document or a UBL file; records nothing. */
export function validateRoutes(
  routes: RouteRegistry,
  documents: DocumentCommands,
  uploadLimit: number,
  clock: RuleSetClock,
): void {
  routes.add({
    method: 'post',
    path: '/api/validate/json',
    summary:
      'Validate a JSON document (converted to UBL and checked with the EN 16931 and Peppol rules); creates nothing',
    tag: 'validation',
    auth: 'tenant',
    query: RuleSetQuery,
    body: DocumentCreateCodec,
    responses: { 200: 'Validation result, with ubl_document when valid and the rule set it was checked by' },
    documentBody: true,
    answer: ValidationAnswer,
    handler: async (req, res, answer) => {
      answer(await documents.validateJson(tenantOf(res).tenant, req.body, requestedRuleSet(req.query)));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/validate/ubl',
    summary:
      'Validate a UBL Invoice or CreditNote (multipart field "file", or an application/xml body); creates nothing',
    tag: 'validation',
    auth: 'tenant',
    query: RuleSetQuery,
    responses: {
      200: 'Validation result, with the rule set it was checked by',
      400: 'Not acceptable XML',
      413: 'Too large',
    },
    upload: { rawTypes: XML_UPLOAD_TYPES },
    answer: ValidationAnswer,
    handler: async (req, res, answer) => {
      const ruleSet = requestedRuleSet(req.query);
      // An unknown set is refused before the upload is read.
      documents.ruleSet(ruleSet);
      const file = await uploadedFile(req, res, uploadLimit, XML_TYPES);
      answer(await documents.validateUbl(tenantOf(res).tenantId, file.buffer, file.fileName, ruleSet));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/validate/rule-sets',
    summary:
      'The releases of the EN 16931 and Peppol BIS rules this service validates by, the day each comes into force, and the one in force today',
    tag: 'validation',
    auth: 'tenant',
    responses: { 200: 'today, in_force and rule_sets[] (id, name, peppol_bis, en16931_ubl, valid_from, in_force)' },
    answer: RuleSetsAnswer,
    handler: (_req, _res, answer) => {
      answer(ruleSetsAsOf(clock));
    },
  });
}
