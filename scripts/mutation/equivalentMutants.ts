/**
 * Every mutant the mutation job (`npm run mutation`, scripts/mutation-report.ts) lets survive,
 * each named exactly, with why it changes no behaviour a user could see. The modules and their
 * thresholds are in scripts/mutation/modules.json.
 */
export interface ExplainedMutant {
  file: string;
  /** Where the mutant starts, `line:column` (1-based), as docs/mutation.md lists it. */
  at: string;
  /** Stryker's mutator name, e.g. ConditionalExpression. */
  mutator: string;
  /** The text the mutant replaces, in full, white space collapsed. */
  original: string;
  /** The replacement Stryker made, white space collapsed. */
  replacement: string;
  reason: string;
}

const MLS_STATUS = 'src/domain/peppol/mls/messageLevelStatus.ts';
const SPID = 'src/domain/peppol/mls/serviceProviderId.ts';
const SENDER = 'src/domain/peppol/senderIdentity.ts';
const OCSP_CHECKER = 'src/infrastructure/peppol/ocspChecker.ts';

/** senderIdentity's issuer of a parsed document: the defaults of an absent type code or CustomizationID. */
const NOT_SELF_BILLED =
  'Equivalent. The default for an absent type code or CustomizationID: `"Stryker was here!"` is not 389 or 261 and does not contain `:selfbilling:`, so the document is read as not self-billed, as with `\'\'`.';
/** senderIdentity's `own.length > 0` guard before the search. */
const NO_IDS_NO_MATCH =
  'Equivalent. With no ids, `ownIdMatching([], issuer)` finds nothing and answers null, so the condition is false either way and a tenant without ids is blocked: the length test only saves the search.';

/** Reasons shared by several mutants of the domain and AS4 modules. */
const ASSERT_NEVER =
  'Harmless: the switches over a command, an event and an attempt outcome are exhaustive over closed unions (`assertNever` takes `never`, so tsc rejects a missing case), and only a value outside the union reaches the default. With the mutant such a value still fails and nothing is recorded: decide returns undefined, on which the command handler fails (`newEvents.length`), and evolve returns undefined, on which whatever reads the state next fails (`state.status`); only the error is a TypeError instead of "Unexpected value: …".';
const PRESENT_NARROWS =
  "Equivalent: the status check only narrows the type before a field that present states alone carry (`state.delivery` in withDelivery, `state.inbound?.message_id` in ReceiveDocument's repeat check). An absent or deleted state has neither field, so the read gives undefined and the condition stays false (a message id is a string).";
const SENT_CLEARS =
  "Harmless: DocumentSent is only decided together with the delivered attempt's DeliveryAttempted, recorded just before it with `next_attempt_at` null (a settled attempt schedules nothing), so clearing it again changes nothing; and the recovery that reads `next_attempt_at` looks only at TRANSIT documents.";
const RULES_MODE_SOURCE =
  "Equivalent: `sourceOf` names `tax_details` only for an exempt VAT breakdown entry that no line, document allowance or charge has. In strict mode (the API) there is none: every entry comes from one of them (an entry of the caller's `tax_details` without any is refused as a mismatch and left out of the breakdown). In rules mode (a received or uploaded UBL, CII or PDF, whose breakdown is kept as its sender wrote it) the problems are discarded (`mode === 'strict' ? problems : []`), so the field and text named there are never seen.";
const PARSER_ERRORS =
  'Harmless: the guarded calls throw only the error class tested here (the parsers wrap whatever their library throws in it); the rethrow is for a programming error, which the mutant would answer as a refusal of the message instead of a server error. No input reaches it.';
const NO_PREFIX_STRING =
  'Equivalent: `Stryker was here` (with spaces) cannot be a namespace prefix, so as an inclusive prefix no ancestor declares it (`inheritedDeclarations` finds nothing) and xml-crypto renders no declaration for it: the canonical form is the same as with no prefix.';
const ASCII_FRAMING =
  "Equivalent: `Buffer.from(text, '')` encodes as UTF-8, and what is encoded here is ASCII (the base64url boundary, the header names, the media types and the Content-IDs the service writes, CRLF), for which UTF-8 and latin1 give the same bytes.";

/** calculations.ts's BR-CO-09 prefix test looked up as text only. */
const PREFIX_AS_TEXT =
  'Equivalent: every prefix is then looked up as text in ` 1A AD AE … ZW ` (the list with spaces around). The listed prefixes are two letters each, separated by spaces, so a two-character prefix without a space is found in that text exactly when it is one of them: the same answer as `prefixes.has`; other prefixes are looked up as text already.';
export const EQUIVALENT_MUTANTS: readonly ExplainedMutant[] = [
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '507:12',
    mutator: 'ConditionalExpression',
    original: 'charge >= 0',
    replacement: 'true',
    reason: RULES_MODE_SOURCE,
  },
  {
    file: 'src/domain/validation/rules/cen/calculations.ts',
    at: '178:7',
    mutator: 'ConditionalExpression',
    original: "prefix.length === 2 && !prefix.includes(' ')",
    replacement: 'false',
    reason: PREFIX_AS_TEXT,
  },
  {
    file: 'src/infrastructure/as4/wsSecuritySignature.ts',
    at: '203:47',
    mutator: 'MethodExpression',
    original: String.raw`prefixList.split(/\s/).filter(Boolean)`,
    replacement: String.raw`prefixList.split(/\s/)`,
    reason:
      "Equivalent: the empty strings a padded PrefixList leaves match nothing. No namespace declaration has an empty prefix (the default one is the attribute `xmlns`, and xmldom gives an unprefixed node a null prefix), so `inheritedDeclarations` finds none for '' and xml-crypto renders none; a test verifies a SignedInfo with a padded PrefixList.",
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '109:64',
    mutator: 'StringLiteral',
    original: "'-'",
    replacement: '""',
    reason:
      'Equivalent: the grouping key of a category without a rate. Keys are only compared with one another, and `rate.toFixed(4)` is never empty, so `S|` is as distinct from `S|21.0000` as `S|-` is.',
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '366:103',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason:
      'Equivalent: in rules mode the exemption problems are collected into a throw-away array (the rule engine reports what the sender wrote); an array with an element in it is thrown away just the same.',
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '491:7',
    mutator: 'ConditionalExpression',
    original: 'exempt.length === 0',
    replacement: 'false',
    reason:
      'Equivalent: without an exempt entry the early return only saves work. Without it, `preferred` and `stated` are computed (pure), `target` is undefined (`exempt[0]`, the `!` is only a type assertion), and the loop over the empty `exempt` does nothing.',
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '499:18',
    mutator: 'MethodExpression',
    original: "(doc.vatex ?? '').trim()",
    replacement: "doc.vatex ?? ''",
    reason:
      'Equivalent: `vatex` is null or a VATEX code, never blank text: the API accepts only a code of the list, the UBL and CII readers read blank text as null (xmlPath), and the PDF reader takes only a listed code. Trimming a code changes nothing.',
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '507:49',
    mutator: 'StringLiteral',
    original: "'tax_details'",
    replacement: '""',
    reason: RULES_MODE_SOURCE,
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '524:16',
    mutator: 'ConditionalExpression',
    original: "source === 'tax_details'",
    replacement: 'false',
    reason: RULES_MODE_SOURCE,
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '524:27',
    mutator: 'StringLiteral',
    original: "'tax_details'",
    replacement: '""',
    reason: RULES_MODE_SOURCE,
  },
  {
    file: 'src/domain/document/invoice/documentTotals.ts',
    at: '524:43',
    mutator: 'StringLiteral',
    original: "'tax_details'",
    replacement: '""',
    reason: RULES_MODE_SOURCE,
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '431:53',
    mutator: 'OptionalChaining',
    original: 'state.delivery?.delivery_id',
    replacement: 'state.delivery.delivery_id',
    reason:
      'Equivalent: `state.delivery` is read only when the state has an MLS rejection, which is recorded (RecordMls) only for a document with a delivery whose message it names; a delivery is never removed afterwards (a new send replaces it), so `state.delivery` is never undefined there.',
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '529:5',
    mutator: 'ConditionalExpression',
    original: 'default: return assertNever(attempt.outcome);',
    replacement: 'default:',
    reason: ASSERT_NEVER,
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '738:7',
    mutator: 'ConditionalExpression',
    original: 'default: return assertNever(command);',
    replacement: 'default:',
    reason: ASSERT_NEVER,
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '903:7',
    mutator: 'ConditionalExpression',
    original: 'default: return assertNever(event);',
    replacement: 'default:',
    reason: ASSERT_NEVER,
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '554:3',
    mutator: 'LogicalOperator',
    original: "state.status === 'present' && state.delivery",
    replacement: "state.status === 'present' || state.delivery",
    reason:
      'Harmless: it differs only for a present document without a delivery receiving a delivery event (DeliveryAttempted, DocumentSent, DocumentFailed). The decider never records one: those events come only from RecordAttempt, CancelDelivery and RecordMls, which decide nothing unless the document has a delivery (SendRequested creates it), and no stored stream predates SendRequested (the delivery events came with it).',
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '554:3',
    mutator: 'ConditionalExpression',
    original: "state.status === 'present'",
    replacement: 'true',
    reason: PRESENT_NARROWS,
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '649:13',
    mutator: 'ConditionalExpression',
    original: "state.status === 'present'",
    replacement: 'true',
    reason: PRESENT_NARROWS,
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '730:60',
    mutator: 'ConditionalExpression',
    original: 'retry_at === null',
    replacement: 'false',
    reason:
      'Equivalent: with `retry_at` null the attempt records `settles ? null : retry_at`, which is null either way.',
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '815:56',
    mutator: 'ArrowFunction',
    original: '() => ({ next_attempt_at: null })',
    replacement: '() => undefined',
    reason: SENT_CLEARS,
  },
  {
    file: 'src/domain/document/lifecycle/documentAggregate.ts',
    at: '815:63',
    mutator: 'ObjectLiteral',
    original: '{ next_attempt_at: null }',
    replacement: '{}',
    reason: SENT_CLEARS,
  },
  {
    file: 'src/domain/validation/rules/cen/calculations.ts',
    at: '178:47',
    mutator: 'StringLiteral',
    original: "' '",
    replacement: '""',
    reason:
      "Equivalent: with `includes('')` every prefix is looked up as text in ` 1A AD AE … ZW ` (the list with spaces around). The listed prefixes are two letters each, separated by spaces, so a two-character prefix without a space is found in that text exactly when it is one of them: the same answer as `prefixes.has`.",
  },
  {
    file: 'src/domain/validation/rules/cen/calculations.ts',
    at: '229:9',
    mutator: 'OptionalChaining',
    original: 'st.parent?.name',
    replacement: 'st.parent.name',
    reason:
      'Equivalent: the TaxSubtotal elements come from `ctx.desc()`, which lists the descendants of the document root and never the root itself, so each has a parent and the optional chain never meets null.',
  },
  {
    file: 'src/domain/validation/rules/cen/calculations.ts',
    at: '260:78',
    mutator: 'OptionalChaining',
    original: 'n.parent?.name',
    replacement: 'n.parent.name',
    reason:
      'Equivalent: the notes come from `ctx.desc()`, the descendants of the document root, so each has a parent and the optional chain never meets null.',
  },
  {
    file: 'src/infrastructure/as4/as4Inbound.ts',
    at: '96:9',
    mutator: 'ConditionalExpression',
    original: 'error instanceof MimeError',
    replacement: 'true',
    reason: PARSER_ERRORS,
  },
  {
    file: 'src/infrastructure/as4/as4Inbound.ts',
    at: '111:9',
    mutator: 'ConditionalExpression',
    original: 'error instanceof UntrustedXmlError',
    replacement: 'true',
    reason: PARSER_ERRORS,
  },
  {
    file: 'src/infrastructure/as4/as4Inbound.ts',
    at: '155:24',
    mutator: 'ConditionalExpression',
    original: 'contentId === null',
    replacement: 'false',
    reason:
      "Equivalent: for an href that is not `cid:` the mutant looks up `attachments.get(null)`, which is undefined as the original's `undefined` is, and the next line refuses the payload the same way.",
  },
  {
    file: 'src/infrastructure/as4/as4Inbound.ts',
    at: '156:9',
    mutator: 'ConditionalExpression',
    original: 'contentId === null',
    replacement: 'false',
    reason:
      'Equivalent: when the content id is null the attachment is undefined (the line above), so `!attachment` refuses the payload the same way without the null test.',
  },
  {
    file: 'src/infrastructure/as4/as4MessageCodec.ts',
    at: '134:21',
    mutator: 'BlockStatement',
    original: '{ return { ok: false, reason: (error as Error).message }; }',
    replacement: '{}',
    reason:
      'Equivalent: the catch is not reached. The Invoice Response text is the business document `readSbdh` has just parsed from the payload and serialized with libxml2, within the same untrusted-XML limits, so parsing it again does not throw; a document that cannot be read as an Invoice Response is answered by `readInvoiceResponse` itself (tested: EBMS:0004 with the reason).',
  },
  {
    file: 'src/infrastructure/as4/as4MessageCodec.ts',
    at: '135:14',
    mutator: 'ObjectLiteral',
    original: '{ ok: false, reason: (error as Error).message }',
    replacement: '{}',
    reason:
      'Equivalent: the catch is not reached. The Invoice Response text is the business document `readSbdh` has just parsed from the payload and serialized with libxml2, within the same untrusted-XML limits, so parsing it again does not throw; a document that cannot be read as an Invoice Response is answered by `readInvoiceResponse` itself (tested: EBMS:0004 with the reason).',
  },
  {
    file: 'src/infrastructure/as4/as4MessageCodec.ts',
    at: '135:20',
    mutator: 'BooleanLiteral',
    original: 'false',
    replacement: 'true',
    reason:
      'Equivalent: the catch is not reached. The Invoice Response text is the business document `readSbdh` has just parsed from the payload and serialized with libxml2, within the same untrusted-XML limits, so parsing it again does not throw; a document that cannot be read as an Invoice Response is answered by `readInvoiceResponse` itself (tested: EBMS:0004 with the reason).',
  },
  {
    file: 'src/infrastructure/as4/exclusiveC14n.ts',
    at: '84:54',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason:
      "Equivalent: the second argument of xml-crypto's `processInner` is the list of namespace bindings already rendered, objects `{ prefix, namespaceURI }` that it searches by `prefix`; a string has no `prefix` property (undefined), and xmldom gives every node and attribute a string or null prefix, so the extra entry never matches and changes no output.",
  },
  {
    file: 'src/infrastructure/as4/mimeMultipart.ts',
    at: '86:20',
    mutator: 'MethodExpression',
    original: "(headers['content-transfer-encoding'] ?? 'binary').trim()",
    replacement: "headers['content-transfer-encoding'] ?? 'binary'",
    reason:
      'Equivalent: @remix-run/multipart-parser hands header values over trimmed (a test sends `Content-Transfer-Encoding:  BASE64 ` and it is decoded), so the trim never changes one.',
  },
  {
    file: 'src/infrastructure/as4/mimeMultipart.ts',
    at: '142:69',
    mutator: 'ConditionalExpression',
    original: 'value !== undefined',
    replacement: 'true',
    reason:
      "Equivalent: a header whose value is undefined would be kept as a key with the value undefined, and every read of a header (`content-id`, `content-type`, `content-transfer-encoding`, the attachment's headers handed on) treats undefined as absent.",
  },
  {
    file: 'src/infrastructure/as4/mimeMultipart.ts',
    at: '147:9',
    mutator: 'ConditionalExpression',
    original: 'error instanceof MultipartParseError',
    replacement: 'true',
    reason:
      "Harmless: inside that try only the parser throws (its MultipartParseError for a malformed body, and its Max…ExceededErrors for the limits, which extend it); copying a part's headers and wrapping its bytes in a Buffer view cannot. With the mutant any other error would become the same refusal of a malformed body, and there is none.",
  },
  {
    file: 'src/infrastructure/as4/mimeMultipart.ts',
    at: '189:30',
    mutator: 'EqualityOperator',
    original: 'lf < end',
    replacement: 'lf <= end',
    reason:
      'Equivalent: `lf` and `end` cannot be equal: at `end` the text has `\\r` (the start of `\\r\\n\\r\\n`), at `lf` it has `\\n`.',
  },
  {
    file: 'src/infrastructure/as4/mimeMultipart.ts',
    at: '225:61',
    mutator: 'StringLiteral',
    original: "'latin1'",
    replacement: '""',
    reason: ASCII_FRAMING,
  },
  {
    file: 'src/infrastructure/as4/mimeMultipart.ts',
    at: '225:98',
    mutator: 'StringLiteral',
    original: "'latin1'",
    replacement: '""',
    reason: ASCII_FRAMING,
  },
  {
    file: 'src/infrastructure/as4/mimeMultipart.ts',
    at: '239:50',
    mutator: 'StringLiteral',
    original: "'latin1'",
    replacement: '""',
    reason: ASCII_FRAMING,
  },
  {
    file: 'src/infrastructure/as4/sbdhXml.ts',
    at: '82:64',
    mutator: 'MethodExpression',
    original: 'node.text.trim()',
    replacement: 'node.text',
    reason:
      "Equivalent: the domain's reading of the header fields (`src/domain/peppol/as4/sbdh.ts`) trims every value again where it checks and keeps it, so untrimmed text gives the same header (a test reads padded values back).",
  },
  {
    file: 'src/infrastructure/as4/sbdhXml.ts',
    at: '96:9',
    mutator: 'ConditionalExpression',
    original: 'error instanceof UntrustedXmlError || error instanceof XmlInputError',
    replacement: 'true',
    reason: PARSER_ERRORS,
  },
  {
    file: 'src/infrastructure/as4/sbdhXml.ts',
    at: '118:78',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      'Equivalent: the value defaults only when the party has no Identifier, and then it has no Authority either: the reader refuses such a party for its Authority (`INVALID_SENDER_AUTHORITY`, naming the Authority, not the value) before the value is used.',
  },
  {
    file: 'src/infrastructure/as4/sbdhXml.ts',
    at: '166:19',
    mutator: 'Regex',
    original: '/^<[^\\s/>]+/',
    replacement: '/<[^\\s/>]+/',
    reason:
      "Equivalent: the text is libxml2's serialization of an element, which always starts with `<`, so the anchor never decides.",
  },
  {
    file: 'src/infrastructure/as4/wsSecurityEncryption.ts',
    at: '135:35',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      "Equivalent: the default for an EncryptedKey without CipherValue. Neither `''` nor the base64 reading of `Strykerwashere!` (ten bytes) is an RSA-size ciphertext, so the key transport fails either way with the same refusal (the wrapped key does not decrypt).",
  },
  {
    file: 'src/infrastructure/as4/wsSecurityEncryption.ts',
    at: '135:47',
    mutator: 'Regex',
    original: '/\\s+/g',
    replacement: '/\\s/g',
    reason: 'Equivalent: replacing each white-space character removes the same characters as replacing runs of them.',
  },
  {
    file: 'src/infrastructure/as4/wsSecurityEncryption.ts',
    at: '161:96',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      "Equivalent: the default for a CipherReference without URI. `contentIdOfHref` answers null for any text that does not start with `cid:`, `''` and `Stryker was here!` alike, and the EncryptedData is refused as referencing no attachment.",
  },
  {
    file: 'src/infrastructure/as4/wsSecuritySignature.ts',
    at: '80:59',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason: NO_PREFIX_STRING,
  },
  {
    file: 'src/infrastructure/as4/wsSecuritySignature.ts',
    at: '111:67',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason: NO_PREFIX_STRING,
  },
  {
    file: 'src/infrastructure/as4/wsSecuritySignature.ts',
    at: '203:42',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason: NO_PREFIX_STRING,
  },
  {
    file: 'src/infrastructure/as4/wsSecuritySignature.ts',
    at: '301:47',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      'Equivalent: the envelope with an empty SignatureValue is parsed only to digest the referenced elements (the ebMS header and the Body, never the Signature) and to canonicalize SignedInfo, which does not contain the SignatureValue; the envelope sent is written again with the computed value.',
  },
  {
    file: 'src/infrastructure/as4/xmlDom.ts',
    at: '54:9',
    mutator: 'ConditionalExpression',
    original: 'error instanceof XmlInputError',
    replacement: 'true',
    reason: PARSER_ERRORS,
  },
  {
    file: 'src/infrastructure/as4/xmlDom.ts',
    at: '73:28',
    mutator: 'StringLiteral',
    original: "'text/xml'",
    replacement: '""',
    reason:
      'Equivalent: @xmldom/xmldom 0.8 reads the MIME type only to tell HTML (`/\\/x?html?$/`); any other value, the empty one included, parses as XML.',
  },
  {
    file: 'src/infrastructure/as4/xmlDom.ts',
    at: '82:9',
    mutator: 'ConditionalExpression',
    original: 'child.nodeType === ELEMENT_NODE',
    replacement: 'true',
    reason:
      'Equivalent: only elements have children among the nodes walked (text, comments and processing instructions have none), so descending into another node finds nothing.',
  },
  {
    file: 'src/infrastructure/as4/xmlDom.ts',
    at: '108:102',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      'Equivalent: `textContent` of an element is always a string (it is null only for documents and doctypes), so the default is never used.',
  },
  {
    file: 'src/infrastructure/as4/xmlDom.ts',
    at: '112:7',
    mutator: 'ConditionalExpression',
    original: 'ns === null',
    replacement: 'false',
    reason:
      'Equivalent: `hasAttributeNS(null, name)` and `hasAttribute(name)` agree for an attribute name without a prefix (an unprefixed attribute has no namespace), and every call without a namespace names one (`Id`, `URI`, `Algorithm`, `PrefixList`, `ValueType`, `href`, …).',
  },
  {
    file: MLS_STATUS,
    at: '114:7',
    mutator: 'ConditionalExpression',
    original: '!node',
    replacement: 'false',
    reason:
      "Equivalent. Without the early return, `str(undefined)` is `''` (xmlTree's `str` answers an absent node so), which normalises to `''` and is answered null: the same.",
  },
  {
    file: MLS_STATUS,
    at: '121:21',
    mutator: 'OptionalChaining',
    original: 'id?.attrs',
    replacement: 'id.attrs',
    reason:
      'Equivalent. `id?.attrs` is read only after `value(id)` gave a non-empty text, which it does only for a present node: `id` is never undefined there.',
  },
  {
    file: SPID,
    at: '21:7',
    mutator: 'ConditionalExpression',
    original: 'colon < 0',
    replacement: 'false',
    reason:
      'Equivalent. Without a colon, `slice(0, -1)` is the text less its last character; it equals `0242` only for a five-character text such as `0242x`, whose SPID part (the whole text, trimmed) is not six digits, so `isSpid` refuses it and the answer is null as before.',
  },
  {
    file: SPID,
    at: '21:7',
    mutator: 'EqualityOperator',
    original: 'colon < 0',
    replacement: 'colon <= 0',
    reason:
      'Equivalent. A colon at 0 leaves an empty scheme, which is not `0242`, so the next test answers null anyway.',
  },
  {
    file: SENDER,
    at: '104:7',
    mutator: 'ConditionalExpression',
    original: 'own.length > 0',
    replacement: 'true',
    reason: NO_IDS_NO_MATCH,
  },
  {
    file: SENDER,
    at: '104:7',
    mutator: 'EqualityOperator',
    original: 'own.length > 0',
    replacement: 'own.length >= 0',
    reason: NO_IDS_NO_MATCH,
  },
  {
    file: SENDER,
    at: '174:17',
    mutator: 'StringLiteral',
    original: "'Invoice'",
    replacement: '""',
    reason:
      'Equivalent. The root name given to `documentTypeOf` only tells a credit note from an invoice; the issuing party depends on self-billing alone, which `documentTypeOf` reads from the CustomizationID and the type code (389, 261), never from the root.',
  },
  {
    file: SENDER,
    at: '174:29',
    mutator: 'StringLiteral',
    original: "'CreditNote'",
    replacement: '""',
    reason:
      'Equivalent, as `\'Invoice\'` → `""` at 174:17: with `""` a credit note is typed as an invoice of the same self-billing, so its issuing party (seller, or buyer when self-billed) is the same.',
  },
  {
    file: SENDER,
    at: '175:85',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason: NOT_SELF_BILLED,
  },
  {
    file: SENDER,
    at: '176:46',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason: NOT_SELF_BILLED,
  },
  {
    file: OCSP_CHECKER,
    at: '78:49',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      "Equivalent. The default for a certificate without Authority Information Access: the text `Stryker was here!` has no `OCSP - URI:` line either, so no responder is found, as with `''` (the CA certificate of ocspCache.test.ts is such a certificate).",
  },
  {
    file: OCSP_CHECKER,
    at: '79:19',
    mutator: 'Regex',
    original: String.raw`/^OCSP - URI:(https?:\/\/\S+)$/i`,
    replacement: String.raw`/OCSP - URI:(https?:\/\/\S+)$/i`,
    reason:
      "Equivalent. Node writes `infoAccess` one access description per line, `<method> - URI:<uri>`; no other method's line contains `OCSP - URI:`, so the anchor at the start never decides.",
  },
  {
    file: OCSP_CHECKER,
    at: '79:19',
    mutator: 'Regex',
    original: String.raw`/^OCSP - URI:(https?:\/\/\S+)$/i`,
    replacement: String.raw`/^OCSP - URI:(https?:\/\/\S+)/i`,
    reason:
      'Equivalent. `\\S+` already runs to the end of the trimmed line (a URI in `infoAccess` has no white space), so the end anchor never decides.',
  },
  {
    file: OCSP_CHECKER,
    at: '79:57',
    mutator: 'MethodExpression',
    original: 'line.trim()',
    replacement: 'line',
    reason:
      "Equivalent. Node's `infoAccess` lines carry no leading or trailing white space (the trim is a guard for other formats), so the line is matched the same.",
  },
  {
    file: 'src/infrastructure/peppol/ocspResponseCheck.ts',
    at: '61:31',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason:
      'Equivalent (and not reached: every CA-issued certificate of the test PKI has an extended key usage). For a responder certificate without one, `[]` and `["Stryker was here"]` both lack id-kp-OCSPSigning, so it is refused as not for OCSP signing either way.',
  },
];
