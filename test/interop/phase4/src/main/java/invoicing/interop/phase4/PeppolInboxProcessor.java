package invoicing.interop.phase4;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.w3c.dom.Node;

import com.helger.base.state.ETriState;
import com.helger.collection.commons.ICommonsList;
import com.helger.http.header.HttpHeaderMap;
import com.helger.peppol.sbdh.PeppolSBDHData;
import com.helger.peppol.sbdh.PeppolSBDHDataReadException;
import com.helger.peppol.sbdh.PeppolSBDHDataReader;
import com.helger.peppolid.IParticipantIdentifier;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.helger.peppolid.peppol.PeppolIdentifierHelper;
import com.helger.phase4.attachment.WSS4JAttachment;
import com.helger.phase4.ebms3header.Ebms3PartyId;
import com.helger.phase4.ebms3header.Ebms3Property;
import com.helger.phase4.ebms3header.Ebms3SignalMessage;
import com.helger.phase4.ebms3header.Ebms3UserMessage;
import com.helger.phase4.error.AS4ErrorList;
import com.helger.phase4.incoming.IAS4IncomingMessageMetadata;
import com.helger.phase4.incoming.IAS4IncomingMessageState;
import com.helger.phase4.incoming.spi.AS4MessageProcessorResult;
import com.helger.phase4.incoming.spi.AS4SignalMessageProcessorResult;
import com.helger.phase4.incoming.spi.IAS4IncomingMessageProcessorSPI;
import com.helger.phase4.model.error.EEbmsError;
import com.helger.phase4.model.pmode.IPMode;
import com.helger.security.certificate.ECertificateCheckResult;
import com.helger.security.certificate.TrustedCAChecker;
import com.helger.security.revocation.ERevocationCheckMode;

/**
 * The Peppol side of the receiver, run by phase4 once the message's signature verified and its
 * attachment decrypted: the checks a Peppol AP makes (the signing certificate is a Peppol AP
 * certificate, one payload that decompresses into an SBDH, SBDH consistent with the ebMS header,
 * party ids are seat ids, the receiver is one we serve) and then the message stored. phase4's own
 * module for this (phase4-peppol-servlet) is not served by the Maven repository here, so these
 * checks follow the Peppol AS4 profile and answer the error codes that module answers: EBMS:0101
 * for certificate failures, EBMS:0303 for decompression, EBMS:0004 for the rest, with
 * "PEPPOL:NOT_SERVICED" as detail for a receiver we do not serve.
 */
final class PeppolInboxProcessor implements IAS4IncomingMessageProcessorSPI
{
  private static final Pattern SEAT_ID = Pattern.compile (PeppolIdentifierHelper.REGEX_SEAT_ID);
  private static final String PARTY_ID_TYPE = "urn:fdc:peppol.eu:2017:identifiers:ap";

  private final Path m_aOutDir;
  private final TrustedCAChecker m_aAPCAChecker;
  private final List <IParticipantIdentifier> m_aServiced;

  PeppolInboxProcessor (final Path aOutDir, final TrustedCAChecker aAPCAChecker, final List <String> aServiced)
                                                                                                                 throws IOException
  {
    m_aOutDir = Files.createDirectories (aOutDir);
    m_aAPCAChecker = aAPCAChecker;
    m_aServiced = aServiced.stream ().map (PeppolInboxProcessor::participant).toList ();
  }

  /** "0088:123" (the Peppol default scheme) or "iso6523-actorid-upis::0088:123". */
  static IParticipantIdentifier participant (final String s)
  {
    final IParticipantIdentifier aID = s.contains ("::") ? PeppolIdentifierFactory.INSTANCE.parseParticipantIdentifier (s)
                                                         : PeppolIdentifierFactory.INSTANCE.createParticipantIdentifierWithDefaultScheme (s);
    if (aID == null)
      throw new IllegalArgumentException ("not a Peppol participant id: " + s);
    return aID;
  }

  /** Thrown by a check: becomes the ebMS error answered, and nothing is stored. */
  private static final class Rejection extends Exception
  {
    final EEbmsError m_eError;
    final String m_sDetail;

    Rejection (final EEbmsError eError, final String sDetail)
    {
      super (sDetail);
      m_eError = eError;
      m_sDetail = sDetail;
    }
  }

  public AS4MessageProcessorResult processAS4UserMessage (final IAS4IncomingMessageMetadata aMetadata,
                                                          final HttpHeaderMap aHttpHeaders,
                                                          final Ebms3UserMessage aUserMessage,
                                                          final IPMode aPMode,
                                                          final Node aPayload,
                                                          final ICommonsList <WSS4JAttachment> aAttachments,
                                                          final IAS4IncomingMessageState aState,
                                                          final AS4ErrorList aErrors)
  {
    final String sMessageID = aUserMessage.getMessageInfo ().getMessageId ();
    final Locale aLocale = aState.getLocale ();
    try
    {
      final Accepted aAccepted = check (aUserMessage, aAttachments, aState);
      store (sMessageID, aUserMessage, aAccepted, aState.getSigningCertificate ());
      return AS4MessageProcessorResult.createSuccess ();
    }
    catch (final Rejection ex)
    {
      System.err.println ("phase4-harness: rejected " + sMessageID + ": " + ex.m_eError.getErrorCode () + " " + ex.m_sDetail);
      aErrors.add (ex.m_eError.errorBuilder (aLocale).refToMessageInError (sMessageID).errorDetail (ex.m_sDetail).build ());
      return AS4MessageProcessorResult.createFailure ();
    }
    catch (final IOException ex)
    {
      // Not stored, so no receipt: the sender will try again.
      System.err.println ("phase4-harness: could not store " + sMessageID + ": " + ex);
      aErrors.add (EEbmsError.EBMS_OTHER.errorBuilder (aLocale)
                                        .refToMessageInError (sMessageID)
                                        .errorDetail ("The message could not be stored")
                                        .build ());
      return AS4MessageProcessorResult.createFailure ();
    }
  }

  /** A message that passed the checks: its SBDH, read, and the payload bytes as they came. */
  private record Accepted (PeppolSBDHData sbdh, byte [] payload)
  {}

  private Accepted check (final Ebms3UserMessage aUserMessage,
                                final ICommonsList <WSS4JAttachment> aAttachments,
                                final IAS4IncomingMessageState aState) throws Rejection
  {
    if (!aState.isSoapSignatureChecked ())
      throw new Rejection (EEbmsError.EBMS_FAILED_AUTHENTICATION, "The message is not signed");
    if (!aState.isSoapDecrypted ())
      throw new Rejection (EEbmsError.EBMS_FAILED_DECRYPTION, "The message is not encrypted");

    final X509Certificate aSigningCert = aState.getSigningCertificate ();
    final ECertificateCheckResult eCertResult = m_aAPCAChecker.checkCertificate (aSigningCert,
                                                                                  OffsetDateTime.now (),
                                                                                  ETriState.FALSE,
                                                                                  ERevocationCheckMode.NONE);
    if (eCertResult.isInvalid ())
      throw new Rejection (EEbmsError.EBMS_FAILED_AUTHENTICATION,
                           "The signing certificate is not a valid Peppol AP certificate: " + eCertResult.getReason ());

    if (aAttachments == null || aAttachments.size () != 1)
      throw new Rejection (EEbmsError.EBMS_OTHER,
                           "A Peppol message has exactly one payload, this one has " +
                                                  (aAttachments == null ? 0 : aAttachments.size ()));
    final byte [] aPayload;
    // The attachment's stream decompresses (CompressionType application/gzip).
    try (InputStream aIS = aAttachments.getFirstOrNull ().getSourceStream ())
    {
      aPayload = aIS.readAllBytes ();
    }
    catch (final Exception ex)
    {
      throw new Rejection (EEbmsError.EBMS_DECOMPRESSION_FAILURE, "The payload could not be decompressed: " + ex.getMessage ());
    }

    final PeppolSBDHData aSBDH;
    try
    {
      aSBDH = new PeppolSBDHDataReader (PeppolIdentifierFactory.INSTANCE).extractData (new ByteArrayInputStream (aPayload));
    }
    catch (final PeppolSBDHDataReadException ex)
    {
      throw new Rejection (EEbmsError.EBMS_OTHER, "The payload is not a valid Peppol SBDH: " + ex.getMessage ());
    }

    checkProperty (aUserMessage, "originalSender", aSBDH.getSenderAsIdentifier ());
    checkProperty (aUserMessage, "finalRecipient", aSBDH.getReceiverAsIdentifier ());
    checkParty ("From", aUserMessage.getPartyInfo ().getFrom ().getPartyId ());
    checkParty ("To", aUserMessage.getPartyInfo ().getTo ().getPartyId ());

    if (!m_aServiced.isEmpty () && m_aServiced.stream ().noneMatch (x -> x.hasSameContent (aSBDH.getReceiverAsIdentifier ())))
      throw new Rejection (EEbmsError.EBMS_OTHER, "PEPPOL:NOT_SERVICED");
    return new Accepted (aSBDH, aPayload);
  }

  private static void checkProperty (final Ebms3UserMessage aUserMessage,
                                     final String sName,
                                     final IParticipantIdentifier aFromSBDH) throws Rejection
  {
    final Ebms3Property aProperty = aUserMessage.getMessageProperties () == null ? null
                                                                                 : aUserMessage.getMessageProperties ()
                                                                                               .getProperty ()
                                                                                               .stream ()
                                                                                               .filter (x -> sName.equals (x.getName ()))
                                                                                               .findFirst ()
                                                                                               .orElse (null);
    if (aProperty == null || aProperty.getType () == null)
      throw new Rejection (EEbmsError.EBMS_OTHER, "The message property '" + sName + "' or its type is missing");
    final IParticipantIdentifier aFromHeader = PeppolIdentifierFactory.INSTANCE.createParticipantIdentifier (aProperty.getType (),
                                                                                                            aProperty.getValue ());
    if (aFromHeader == null || !aFromHeader.hasSameContent (aFromSBDH))
      throw new Rejection (EEbmsError.EBMS_OTHER,
                           "The message property '" + sName + "' (" + aProperty.getType () + "::" + aProperty.getValue () +
                                                  ") differs from the SBDH (" + aFromSBDH.getURIEncoded () + ")");
  }

  private static void checkParty (final String sWhich, final List <Ebms3PartyId> aPartyIds) throws Rejection
  {
    if (aPartyIds.size () != 1)
      throw new Rejection (EEbmsError.EBMS_OTHER, "PartyInfo/" + sWhich + " must have exactly one PartyId");
    final Ebms3PartyId aParty = aPartyIds.get (0);
    if (!PARTY_ID_TYPE.equals (aParty.getType ()) || !SEAT_ID.matcher (aParty.getValue ()).matches ())
      throw new Rejection (EEbmsError.EBMS_OTHER,
                           "PartyInfo/" + sWhich + "/PartyId must be a Peppol seat id of type " + PARTY_ID_TYPE);
  }

  /**
   * The payload as MESSAGE.sbd.xml, then MESSAGE.json describing it: each written to a temporary
   * name and renamed, so a reader that sees the JSON sees both files whole.
   */
  private void store (final String sMessageID,
                      final Ebms3UserMessage aUserMessage,
                      final Accepted aAccepted,
                      final X509Certificate aSigningCert) throws IOException
  {
    final PeppolSBDHData aSBDH = aAccepted.sbdh ();
    // AS4 message ids are RFC 2822 msg-ids (local@domain): keep what is safe in a file name.
    final String sBase = sMessageID.replaceAll ("[^A-Za-z0-9._@-]", "_");
    final Path aPayloadFile = m_aOutDir.resolve (sBase + ".sbd.xml");
    writeAtomically (aPayloadFile, aAccepted.payload ());
    final String sJson = "{" +
                         Json.field ("messageId", sMessageID) + "," +
                         Json.field ("conversationId", aUserMessage.getCollaborationInfo ().getConversationId ()) + "," +
                         Json.field ("fromPartyId", aUserMessage.getPartyInfo ().getFrom ().getPartyId ().get (0).getValue ()) + "," +
                         Json.field ("toPartyId", aUserMessage.getPartyInfo ().getTo ().getPartyId ().get (0).getValue ()) + "," +
                         Json.field ("action", aUserMessage.getCollaborationInfo ().getAction ()) + "," +
                         Json.field ("sender", aSBDH.getSenderAsIdentifier ().getURIEncoded ()) + "," +
                         Json.field ("receiver", aSBDH.getReceiverAsIdentifier ().getURIEncoded ()) + "," +
                         Json.field ("documentType", aSBDH.getDocumentTypeAsIdentifier ().getURIEncoded ()) + "," +
                         Json.field ("process", aSBDH.getProcessAsIdentifier ().getURIEncoded ()) + "," +
                         Json.field ("instanceIdentifier", aSBDH.getInstanceIdentifier ()) + "," +
                         Json.field ("countryC1", aSBDH.getCountryC1 ()) + "," +
                         Json.field ("signingCertificate", aSigningCert.getSubjectX500Principal ().getName ()) + "," +
                         Json.field ("payloadFile", aPayloadFile.getFileName ().toString ()) +
                         "}\n";
    writeAtomically (m_aOutDir.resolve (sBase + ".json"), sJson.getBytes (StandardCharsets.UTF_8));
    System.out.println ("received " + sMessageID);
    System.out.flush ();
  }

  private static void writeAtomically (final Path aTarget, final byte [] aBytes) throws IOException
  {
    final Path aTemp = aTarget.resolveSibling (aTarget.getFileName () + ".tmp");
    Files.write (aTemp, aBytes);
    Files.move (aTemp, aTarget, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public AS4SignalMessageProcessorResult processAS4SignalMessage (final IAS4IncomingMessageMetadata aMetadata,
                                                                  final HttpHeaderMap aHttpHeaders,
                                                                  final Ebms3SignalMessage aSignalMessage,
                                                                  final IPMode aPMode,
                                                                  final IAS4IncomingMessageState aState,
                                                                  final AS4ErrorList aErrors)
  {
    // Peppol is one-way push: a signal never arrives on its own here.
    aErrors.add (EEbmsError.EBMS_FEATURE_NOT_SUPPORTED.errorBuilder (aState.getLocale ())
                                                      .errorDetail ("This receiver accepts Peppol user messages only")
                                                      .build ());
    return AS4SignalMessageProcessorResult.createFailure ();
  }

  public void processAS4ResponseMessage (final IAS4IncomingMessageMetadata aMetadata,
                                         final IAS4IncomingMessageState aState,
                                         final String sResponseMessageID,
                                         final byte [] aResponseBytes,
                                         final boolean bResponsePayloadIsAvailable,
                                         final AS4ErrorList aErrors)
  {
    // Nothing to do once the receipt or error is built.
  }
}
