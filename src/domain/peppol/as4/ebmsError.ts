/**
 * ebMS errors: the table of OASIS ebMS 3.0 Core 6.7 (EBMS:0001-0202) and the AS4 profile 2.1
 * (EBMS:0301-0303), and what each means to the sender that gets it back.
 */

export type EbmsSeverity = 'failure' | 'warning';
export type EbmsCategory = 'Content' | 'Communication' | 'Unpackaging' | 'Processing';

/**
 * What a sender does with an error answered to its UserMessage:
 * - retryable: the condition is on the receiver's side or in between and may pass (a connection,
 *   a reliability or storage problem, an unspecified "Other"); the same message, sent again later
 *   under the retry schedule, may be accepted (the receiver keys duplicates on MessageId).
 * - permanent: the message itself is what the receiver refuses (its header, security, payload, or
 *   a receiver or document type it does not serve); sending it again gets the same answer.
 */
export type SenderDisposition = 'retryable' | 'permanent';

export interface EbmsErrorDefinition {
  code: EbmsErrorCode;
  shortDescription: string;
  severity: EbmsSeverity;
  category: EbmsCategory;
  /** The specification's description, used when no more specific one is given. */
  description: string;
  sender: SenderDisposition;
}

const define = (
  code: string,
  shortDescription: string,
  severity: EbmsSeverity,
  category: EbmsCategory,
  sender: SenderDisposition,
  description: string,
) => ({ code, shortDescription, severity, category, sender, description }) as const;

export const EBMS_ERRORS = {
  valueNotRecognized: define(
    'EBMS:0001',
    'ValueNotRecognized',
    'failure',
    'Content',
    'permanent',
    'Although the message document is well formed and schema valid, some element/attribute contains a value that could not be recognized and therefore could not be used by the MSH.',
  ),
  featureNotSupported: define(
    'EBMS:0002',
    'FeatureNotSupported',
    'warning',
    'Content',
    'permanent',
    'Although the message document is well formed and schema valid, some element/attribute value cannot be processed as expected because the related feature is not supported by the MSH.',
  ),
  valueInconsistent: define(
    'EBMS:0003',
    'ValueInconsistent',
    'failure',
    'Content',
    'permanent',
    'Although the message document is well formed and schema valid, some element/attribute value is inconsistent either with the content of other element/attribute, or with the processing mode of the MSH, or with the normative requirements of the ebMS specification.',
  ),
  other: define('EBMS:0004', 'Other', 'failure', 'Content', 'retryable', 'An undefined error occurred.'),
  connectionFailure: define(
    'EBMS:0005',
    'ConnectionFailure',
    'failure',
    'Communication',
    'retryable',
    'The MSH is experiencing temporary or permanent failure in trying to open a transport connection with a remote MSH.',
  ),
  emptyMessagePartitionChannel: define(
    'EBMS:0006',
    'EmptyMessagePartitionChannel',
    'warning',
    'Communication',
    'retryable',
    'There is no message available for pulling from this MPC at this moment.',
  ),
  mimeInconsistency: define(
    'EBMS:0007',
    'MimeInconsistency',
    'failure',
    'Unpackaging',
    'permanent',
    'The use of MIME is not consistent with the required usage in this specification.',
  ),
  featureNotSupportedInconsistency: define(
    'EBMS:0008',
    'FeatureNotSupported',
    'failure',
    'Unpackaging',
    'permanent',
    'Although the message document is well formed and schema valid, the presence or absence of some element/attribute is not consistent with the capability of the MSH, with respect to supported features.',
  ),
  invalidHeader: define(
    'EBMS:0009',
    'InvalidHeader',
    'failure',
    'Unpackaging',
    'permanent',
    'The ebMS header is either not well formed as an XML document, or does not conform to the ebMS packaging rules.',
  ),
  processingModeMismatch: define(
    'EBMS:0010',
    'ProcessingModeMismatch',
    'failure',
    'Processing',
    'permanent',
    'The ebMS header or another header (e.g. reliability, security) expected by the MSH is not compatible with the expected content, based on the associated P-Mode.',
  ),
  externalPayloadError: define(
    'EBMS:0011',
    'ExternalPayloadError',
    'failure',
    'Content',
    'permanent',
    'The MSH is unable to resolve an external payload reference (i.e. a Part that is not contained within the ebMS Message, as identified by a PartInfo/href URI).',
  ),
  failedAuthentication: define(
    'EBMS:0101',
    'FailedAuthentication',
    'failure',
    'Processing',
    'permanent',
    'The signature in the Security header intended for the "ebms" SOAP actor, could not be validated by the Security module.',
  ),
  failedDecryption: define(
    'EBMS:0102',
    'FailedDecryption',
    'failure',
    'Processing',
    'permanent',
    'The encrypted data reference the Security header intended for the "ebms" SOAP actor could not be decrypted by the Security Module.',
  ),
  policyNoncompliance: define(
    'EBMS:0103',
    'PolicyNoncompliance',
    'failure',
    'Processing',
    'permanent',
    "The processor determined that the message's security methods, parameters, scope or other security policy-level requirements or agreements were not satisfied.",
  ),
  dysfunctionalReliability: define(
    'EBMS:0201',
    'DysfunctionalReliability',
    'failure',
    'Processing',
    'retryable',
    'Some reliability function as implemented by the Reliability module, is not operational, or the reliability state associated with this message sequence is not valid.',
  ),
  deliveryFailure: define(
    'EBMS:0202',
    'DeliveryFailure',
    'failure',
    'Communication',
    'retryable',
    'Although the message was sent under Guaranteed delivery requirement, the Reliability module could not get assurance that the message was properly delivered, in spite of resending efforts.',
  ),
  missingReceipt: define(
    'EBMS:0301',
    'MissingReceipt',
    'failure',
    'Communication',
    'retryable',
    'A Receipt has not been received for a message that was previously sent by the MSH generating this error.',
  ),
  invalidReceipt: define(
    'EBMS:0302',
    'InvalidReceipt',
    'failure',
    'Communication',
    'retryable',
    'A Receipt has been received for a message that was previously sent by the MSH generating this error, but the content does not match the message content (e.g. some part has not been acknowledged, or the digest associated does not match the signature digest, for NRR).',
  ),
  decompressionFailure: define(
    'EBMS:0303',
    'DecompressionFailure',
    'failure',
    'Communication',
    'permanent',
    'An error occurred during the decompression.',
  ),
} as const;

export type EbmsErrorName = keyof typeof EBMS_ERRORS;
export type EbmsErrorCode = (typeof EBMS_ERRORS)[EbmsErrorName]['code'];

/**
 * The Peppol AS4 profile's ErrorDetail for EBMS:0004 when the receiving AP does not serve the
 * final recipient or the document type: the sender must not try again.
 */
export const PEPPOL_NOT_SERVICED = 'PEPPOL:NOT_SERVICED';

/** eb:Error as it travels: every attribute but errorCode and severity is optional in the schema. */
export interface EbmsError {
  errorCode: string;
  severity: string;
  category: string | null;
  origin: string | null;
  shortDescription: string | null;
  refToMessageInError: string | null;
  description: string | null;
  errorDetail: string | null;
}

const byCode = new Map<string, EbmsErrorDefinition>(Object.values(EBMS_ERRORS).map((d) => [d.code, d]));

export const ebmsErrorDefinition = (code: string): EbmsErrorDefinition | null => byCode.get(code) ?? null;

/** An error of the table, about message `refToMessageInError` (null when its id could not be read). */
export function ebmsError(
  name: EbmsErrorName,
  refToMessageInError: string | null,
  description: string | null = null,
  errorDetail: string | null = null,
): EbmsError {
  const d = EBMS_ERRORS[name];
  return {
    errorCode: d.code,
    severity: d.severity,
    category: d.category,
    origin: 'ebMS',
    shortDescription: d.shortDescription,
    refToMessageInError,
    description: description ?? d.description,
    errorDetail,
  };
}

/** The Peppol "not serviced" answer: EBMS:0004 with ErrorDetail PEPPOL:NOT_SERVICED. */
export const notServiced = (refToMessageInError: string | null, description: string): EbmsError =>
  ebmsError('other', refToMessageInError, description, PEPPOL_NOT_SERVICED);

/**
 * What the sender of a UserMessage does with this error. A code outside the table is judged by its
 * severity: a warning is no refusal, so the message may be sent again; a failure is final.
 */
export function senderDisposition(error: EbmsError): SenderDisposition {
  if (error.errorDetail?.trim() === PEPPOL_NOT_SERVICED) return 'permanent';
  const definition = ebmsErrorDefinition(error.errorCode.trim());
  if (definition) return definition.sender;
  return error.severity.trim().toLowerCase() === 'warning' ? 'retryable' : 'permanent';
}

/** A one-line account of an error for logs and transmission reports. */
export function describeEbmsError(error: EbmsError): string {
  const parts = [error.errorCode, error.shortDescription, error.errorDetail, error.description].filter(
    (p): p is string => !!p && p.trim() !== '',
  );
  return parts.join(': ');
}
