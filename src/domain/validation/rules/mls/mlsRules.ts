import { NS } from '../../../xml/xmlNames.js';
import {
  isSpid,
  MLS_CUSTOMIZATION_ID,
  MLS_PROFILE_ID,
  MLS_RESPONSE_CODES,
  MLS_STATUS_REASONS,
  SPIS_ICD,
} from './mlsCodes.js';
import { all, locationOf, norm, type XNode } from '../../../xml/xmlTree.js';
import type { ValidationIssue } from '../../types.js';

/**
 * The Peppol MLS rules SCH-MLS-01 … 31 (OpenPeppol eDEC MLS 1.0.1), over a parsed tree. Each rule
 * reads as the official Schematron's assert does, in its XPath terms: a path's value is that of its
 * first node in document order, normalize-space() applied; `exists` is any node; a comparison with
 * an attribute holds when any of them matches. Every rule is fatal.
 */
const MESSAGES: Record<string, string> = {
  'SCH-MLS-01': `The customization ID MUST use the value '${MLS_CUSTOMIZATION_ID}'`,
  'SCH-MLS-02': `The profile ID MUST use the value '${MLS_PROFILE_ID}'`,
  'SCH-MLS-03': 'The ID MUST NOT be empty',
  'SCH-MLS-04': 'The Issue Date MUST NOT contain timezone information',
  'SCH-MLS-05': 'The Issue Time MUST be present',
  'SCH-MLS-06': 'The Issue Time MUST contain timezone information',
  'SCH-MLS-07': 'The Sender Party Endpoint ID MUST be present',
  'SCH-MLS-08': 'The Sender Party Endpoint ID MUST NOT be empty',
  'SCH-MLS-09': 'The Sender Party Endpoint ID MUST be a valid Peppol Service Provider ID',
  'SCH-MLS-10': 'The Sender Party Endpoint ID scheme ID MUST be present',
  'SCH-MLS-11': 'The Sender Party Endpoint ID scheme ID MUST be the SPIS Participant Identifier Scheme',
  'SCH-MLS-12': 'The Receiver Party Endpoint ID MUST be present',
  'SCH-MLS-13': 'The Receiver Party Endpoint ID MUST NOT be empty',
  'SCH-MLS-14': 'The Receiver Party Endpoint ID MUST be a valid Peppol Service Provider ID',
  'SCH-MLS-15': 'The Receiver Party Endpoint ID scheme ID MUST be present',
  'SCH-MLS-16': 'The Receiver Party Endpoint ID scheme ID MUST be the SPIS Participant Identifier Scheme',
  'SCH-MLS-17': 'Exactly one Document Response MUST be present',
  'SCH-MLS-18': 'The Overall Response Code MUST be present',
  'SCH-MLS-19': 'The Response Code MUST be coded according to the code list',
  'SCH-MLS-20': 'A negative MLS MUST contain a Description',
  'SCH-MLS-21': 'A negative MLS MUST contain a non-empty Description',
  'SCH-MLS-22': 'Exactly one Document Reference MUST be present',
  'SCH-MLS-23': 'A negative MLS MUST contain at least one Issue',
  'SCH-MLS-24': 'A negative MLS MUST contain at least one Issue with a failure',
  'SCH-MLS-25': 'A positive MLS MUST NOT contain Issues with failures',
  'SCH-MLS-26': 'The Referenced Document ID MUST NOT be empty',
  'SCH-MLS-27': 'The Issue Location MUST NOT be empty',
  'SCH-MLS-28': 'The Issue Description MUST be present',
  'SCH-MLS-29': 'The Issue Description MUST NOT be empty',
  'SCH-MLS-30': 'The Status element MUST be present',
  'SCH-MLS-31': 'The Status Reason Code MUST be coded according to the code list',
};

/** Every rule id, in order (the tests check each one fires on its vectors). */
export const MLS_RULE_IDS: readonly string[] = Object.keys(MESSAGES);

/** Reasons that make an issue a failure (BW, a warning, may come with a positive MLS). */
const FAILURES: ReadonlySet<string> = new Set(['BV', 'FD', 'SV']);
const CODES: ReadonlySet<string> = new Set(MLS_RESPONSE_CODES);
const REASONS: ReadonlySet<string> = new Set(MLS_STATUS_REASONS);
const WITH_ZONE = /([+-]\d{2}:\d{2}|Z)$/;

/** normalize-space() of a path's first node ('' when there is none). */
const first = (n: XNode, path: string): string => norm(all(n, path)[0]);
const exists = (n: XNode, path: string): boolean => all(n, path).length > 0;

export function validateMls(root: XNode): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const check = (id: string, holds: boolean, at: XNode) => {
    if (!holds)
      issues.push({ rule_id: id, type: 'error', flag: 'fatal', message: MESSAGES[id]!, location: locationOf(at) });
  };
  if (root.ns !== NS.applicationResponse || root.local !== 'ApplicationResponse') return issues;

  check('SCH-MLS-01', first(root, 'cbc:CustomizationID') === MLS_CUSTOMIZATION_ID, root);
  check('SCH-MLS-02', first(root, 'cbc:ProfileID') === MLS_PROFILE_ID, root);
  check('SCH-MLS-03', first(root, 'cbc:ID') !== '', root);
  check('SCH-MLS-04', first(root, 'cbc:IssueDate').length === 10, root);
  check('SCH-MLS-05', exists(root, 'cbc:IssueTime'), root);
  check('SCH-MLS-06', WITH_ZONE.test(first(root, 'cbc:IssueTime')), root);
  const party = (path: string, [present, notEmpty, spid, scheme, spis]: string[]) => {
    const endpoints = all(root, `${path}/cbc:EndpointID`);
    check(present!, endpoints.length > 0, root);
    check(notEmpty!, first(root, `${path}/cbc:EndpointID`) !== '', root);
    check(spid!, isSpid(first(root, `${path}/cbc:EndpointID`)), root);
    check(
      scheme!,
      endpoints.some((e) => e.attrs.schemeID !== undefined),
      root,
    );
    check(
      spis!,
      endpoints.some((e) => e.attrs.schemeID === SPIS_ICD),
      root,
    );
  };
  party('cac:SenderParty', ['SCH-MLS-07', 'SCH-MLS-08', 'SCH-MLS-09', 'SCH-MLS-10', 'SCH-MLS-11']);
  party('cac:ReceiverParty', ['SCH-MLS-12', 'SCH-MLS-13', 'SCH-MLS-14', 'SCH-MLS-15', 'SCH-MLS-16']);
  const responses = all(root, 'cac:DocumentResponse');
  check('SCH-MLS-17', responses.length === 1, root);
  for (const response of responses) documentResponse(response, check);
  return issues;
}

function documentResponse(response: XNode, check: (id: string, holds: boolean, at: XNode) => void): void {
  const code = first(response, 'cac:Response/cbc:ResponseCode');
  const negative = code === 'RE';
  const lines = all(response, 'cac:LineResponse');
  const failure = lines.some((line) =>
    all(line, 'cac:Response').some((r) => FAILURES.has(first(r, 'cac:Status/cbc:StatusReasonCode'))),
  );
  check('SCH-MLS-18', exists(response, 'cac:Response/cbc:ResponseCode'), response);
  check('SCH-MLS-19', CODES.has(code), response);
  check('SCH-MLS-20', !negative || exists(response, 'cac:Response/cbc:Description'), response);
  check('SCH-MLS-21', !negative || first(response, 'cac:Response/cbc:Description') !== '', response);
  const references = all(response, 'cac:DocumentReference');
  check('SCH-MLS-22', references.length === 1, response);
  check('SCH-MLS-23', !negative || lines.length > 0, response);
  check('SCH-MLS-24', !negative || failure, response);
  check('SCH-MLS-25', negative || !failure, response);
  for (const reference of references) check('SCH-MLS-26', first(reference, 'cbc:ID') !== '', reference);
  for (const line of lines) {
    check('SCH-MLS-27', first(line, 'cac:LineReference/cbc:LineID') !== '', line);
    for (const lineResponse of all(line, 'cac:Response')) {
      check('SCH-MLS-28', exists(lineResponse, 'cbc:Description'), lineResponse);
      check('SCH-MLS-29', first(lineResponse, 'cbc:Description') !== '', lineResponse);
      check('SCH-MLS-30', exists(lineResponse, 'cac:Status'), lineResponse);
      for (const status of all(lineResponse, 'cac:Status'))
        check('SCH-MLS-31', REASONS.has(first(status, 'cbc:StatusReasonCode')), status);
    }
  }
}
