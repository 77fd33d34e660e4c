/** README.txt of an evidence bundle: what is in it and how to check it (docs/internals/proving-history.md says more). */
export const BUNDLE_README = `Evidence bundle of one document (peppol-document-evidence, version 1)

manifest.json               every file with its SHA-256, size and what it is
SHA256SUMS                  the same digests, for: sha256sum -c SHA256SUMS
document/invoice.xml        the UBL as stored (put together from document/stored-parts/)
document/                   the document as stored (JSON), its attachments (PDFs) as stored
transport/                  the AS4 message as sent or received and its signed receipt,
                            or email.eml (the e-mail as sent in test mode, RFC 5322),
                            and delivery-record.json (how it travelled, from its events)
responses/                  Invoice Responses and Message Level Statuses, when any
history/events.jsonl        every event of the document as recorded, in log order
history/proofs.json         the hash chain from those events to a signed checkpoint
history/actors.json         who caused each event
validation/report.json      the UBL checked by the rule set its validation ran by

Check it all, offline:     npm run verify-evidence THIS.zip
Check the files:            sha256sum -c SHA256SUMS
Check the checkpoint's signature with openssl, and recompute the chain with the script of
"Proving what happened" (docs/internals/proving-history.md).
`;
