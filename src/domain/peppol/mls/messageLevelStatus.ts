import { APPLICATION_RESPONSE_NS } from '../../document/ubl/invoiceResponse.js';
import {
  MLS_CUSTOMIZATION_ID,
  MLS_PROFILE_ID,
  SPIS_ICD,
  type MlsResponseCode,
  type MlsStatusReason,
} from '../../validation/rules/mls/mlsCodes.js';
import { NS } from '../../document/ubl/ublNames.js';
import { writeXml, xmlBuilder } from '../../xml/xmlWriter.js';
import { normSpace, str, type XNode } from '../../xml/xmlTree.js';

/**
 * Peppol Message Level Status (eDEC MLS 1.0): the receiving provider (C3) tells the sending one (C2)
 * what became of a business document, as a UBL ApplicationResponse between the two providers' SPIDs.
 */
export {
  MLS_CUSTOMIZATION_ID,
  MLS_PROFILE_ID,
  MLS_RESPONSE_CODES,
  MLS_STATUS_REASONS,
  type MlsResponseCode,
  type MlsStatusReason,
} from '../../validation/rules/mls/mlsCodes.js';
export const MLS_DOCUMENT_TYPE = `${APPLICATION_RESPONSE_NS}::ApplicationResponse##${MLS_CUSTOMIZATION_ID}::2.1`;
export const MLS_PROCESS = MLS_PROFILE_ID;

/** The Issue Location when there is none ("not applicable"). */
export const MLS_NO_LOCATION = 'NA';

export interface MlsIssue {
  /** Where in the document (an XPath), or NA. */
  location: string;
  description: string;
  reason: MlsStatusReason;
}

export interface MessageLevelStatus {
  id: string;
  /** YYYY-MM-DD, no zone. */
  issueDate: string;
  /** hh:mm:ss with its zone (Z or ±hh:mm). */
  issueTime: string;
  /** SPIDs (without the 0242 scheme) of the provider that sends the status and the one it goes to. */
  sender: string;
  receiver: string;
  /** The SBDH InstanceIdentifier of the business document it is about. */
  referenceId: string;
  code: MlsResponseCode;
  /** The overall text; required for RE. */
  description: string | null;
  issues: MlsIssue[];
}

/** Whether an MLS response code says the document reached its receiver. */
export const isPositiveMls = (code: MlsResponseCode): boolean => code !== 'RE';

const UBL = { '': APPLICATION_RESPONSE_NS, cac: NS.cac, cbc: NS.cbc };
const { agg, leaf } = xmlBuilder(UBL);

const endpoint = (spid: string) => leaf('cbc:EndpointID', spid, { schemeID: SPIS_ICD });

/** The MLS document (UBL ApplicationResponse 2.1), in the element order of the specification. */
export function writeMls(mls: MessageLevelStatus): string {
  return writeXml('ApplicationResponse', UBL, [
    leaf('cbc:CustomizationID', MLS_CUSTOMIZATION_ID),
    leaf('cbc:ProfileID', MLS_PROFILE_ID),
    leaf('cbc:ID', mls.id),
    leaf('cbc:IssueDate', mls.issueDate),
    leaf('cbc:IssueTime', mls.issueTime),
    agg('cac:SenderParty', endpoint(mls.sender)),
    agg('cac:ReceiverParty', endpoint(mls.receiver)),
    agg(
      'cac:DocumentResponse',
      agg('cac:Response', leaf('cbc:ResponseCode', mls.code), leaf('cbc:Description', mls.description)),
      agg('cac:DocumentReference', leaf('cbc:ID', mls.referenceId)),
      mls.issues.map((issue) =>
        agg(
          'cac:LineResponse',
          agg('cac:LineReference', leaf('cbc:LineID', issue.location || MLS_NO_LOCATION)),
          agg(
            'cac:Response',
            leaf('cbc:Description', issue.description),
            agg('cac:Status', leaf('cbc:StatusReasonCode', issue.reason)),
          ),
        ),
      ),
    ),
  ]);
}

/** The issue date and time of an MLS issued at `instant` (ISO 8601), in UTC. */
export function mlsIssueMoment(instant: string): { issueDate: string; issueTime: string } {
  const iso = new Date(instant).toISOString();
  return { issueDate: iso.slice(0, 10), issueTime: `${iso.slice(11, 19)}Z` };
}

/** What a received MLS says, as far as recording it goes (values whitespace-normalised; absent as null). */
export interface ReceivedMls {
  id: string | null;
  code: string | null;
  description: string | null;
  referenceId: string | null;
  sender: string | null;
  receiver: string | null;
  issues: Array<{ location: string | null; description: string | null; reason: string | null }>;
}

const child = (node: XNode | undefined | null, name: string): XNode | undefined =>
  node?.children.find((c) => c.name === name);
const children = (node: XNode | undefined | null, name: string): XNode[] =>
  node ? node.children.filter((c) => c.name === name) : [];
const value = (node: XNode | undefined): string | null => {
  if (!node) return null;
  const text = normSpace(str(node));
  return text === '' ? null : text;
};
const participant = (party: XNode | undefined): string | null => {
  const id = child(party, 'cbc:EndpointID');
  const spid = value(id);
  return spid ? `${(id?.attrs.schemeID ?? '').trim()}:${spid}` : null;
};

/** Whether a parsed tree is a UBL ApplicationResponse that says it is an MLS. */
export function isMlsTree(root: XNode): boolean {
  return (
    root.ns === APPLICATION_RESPONSE_NS &&
    root.local === 'ApplicationResponse' &&
    value(child(root, 'cbc:CustomizationID')) === MLS_CUSTOMIZATION_ID
  );
}

/** Reads what an MLS tree says; the rules (mlsRules.ts) judge whether it is a valid one. */
export function readMls(root: XNode): ReceivedMls {
  const response = child(root, 'cac:DocumentResponse');
  return {
    id: value(child(root, 'cbc:ID')),
    code: value(child(child(response, 'cac:Response'), 'cbc:ResponseCode')),
    description: value(child(child(response, 'cac:Response'), 'cbc:Description')),
    referenceId: value(child(child(response, 'cac:DocumentReference'), 'cbc:ID')),
    sender: participant(child(root, 'cac:SenderParty')),
    receiver: participant(child(root, 'cac:ReceiverParty')),
    issues: children(response, 'cac:LineResponse').map((line) => {
      const lineResponse = child(line, 'cac:Response');
      return {
        location: value(child(child(line, 'cac:LineReference'), 'cbc:LineID')),
        description: value(child(lineResponse, 'cbc:Description')),
        reason: value(child(child(lineResponse, 'cac:Status'), 'cbc:StatusReasonCode')),
      };
    }),
  };
}
