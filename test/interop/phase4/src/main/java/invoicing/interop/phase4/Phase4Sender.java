package invoicing.interop.phase4;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import com.helger.peppol.sbdh.EPeppolMLSType;
import com.helger.peppol.sbdh.PeppolSBDHData;
import com.helger.peppol.sbdh.PeppolSBDHDataReader;
import com.helger.peppolid.IDocumentTypeIdentifier;
import com.helger.peppolid.IParticipantIdentifier;
import com.helger.peppolid.IProcessIdentifier;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.helger.phase4.ebms3header.Ebms3Error;
import com.helger.phase4.ebms3header.Ebms3SignalMessage;
import com.helger.phase4.peppol.Phase4PeppolSender;
import com.helger.phase4.peppol.Phase4PeppolSender.AbstractPeppolUserMessageBuilder;
import com.helger.phase4.sender.EAS4UserMessageSendResult;
import com.helger.phase4.sender.IAS4SignalMessageValidationResultHandler;
import com.helger.phase4.util.Phase4Exception;
import com.helger.security.certificate.CertificateHelper;
import com.helger.xml.serialize.read.DOMReader;

/**
 * Sends documents with phase4's Peppol sender to a static endpoint (URL and certificate given; no
 * SML or SMP), and reports for each one JSON line: the outcome, the AS4 message id, and the
 * receipt (its message id, and whether its non-repudiation references match what was sent) or the
 * ebMS errors answered.
 */
final class Phase4Sender
{
  private static final String SBDH_NS = "http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader";

  private Phase4Sender ()
  {}

  /**
   * What to send, read once. A bare document is parsed again for each message: a DOM is not safe
   * to read from several threads at once, and phase4 serialises it while sending.
   */
  private record Payload (byte [] bytes, PeppolSBDHData sbdh)
  {}

  static int run (final Options aOptions) throws Exception
  {
    final AccessPointSetup aAP = AccessPointSetup.fromOptions (aOptions);
    final X509Certificate aReceiverCert = readCertificate (aOptions);
    final Payload aPayload = readPayload (aOptions);

    final int nCount = Math.max (1, aOptions.number ("count", 1));
    final int nConcurrency = Math.max (1, aOptions.number ("concurrency", 1));
    final ExecutorService aPool = Executors.newFixedThreadPool (nConcurrency);
    final long nStart = System.nanoTime ();
    final List <Future <Boolean>> aResults = new ArrayList <> ();
    for (int i = 0; i < nCount; i++)
      aResults.add (aPool.submit ( () -> sendOne (aOptions, aAP, aReceiverCert, aPayload)));
    int nOk = 0;
    for (final Future <Boolean> aResult : aResults)
      if (aResult.get ())
        nOk++;
    final double dSeconds = (System.nanoTime () - nStart) / 1e9;
    aPool.shutdown ();
    if (nCount > 1)
      System.out.println ("{\"summary\":{" +
                          Json.field ("count", nCount) + "," +
                          Json.field ("ok", nOk) + "," +
                          Json.field ("concurrency", nConcurrency) + "," +
                          Json.field ("seconds", Math.round (dSeconds * 1000) / 1000.0) + "," +
                          Json.field ("perSecond", Math.round (nCount / dSeconds * 10) / 10.0) +
                          "}}");
    AccessPointSetup.shutdown ();
    return nOk == nCount ? 0 : 1;
  }

  /**
   * Many sends in one JVM: phase4 takes seconds to start, a send a fraction of one. Jobs come one a
   * line on standard input (tab-separated --name and value fields), each answered by its report
   * line; a job that cannot even be tried is answered too, with ok false and the reason.
   */
  static int serve () throws Exception
  {
    AccessPointSetup.initGlobal ();
    final BufferedReader aIn = new BufferedReader (new InputStreamReader (System.in, StandardCharsets.UTF_8));
    System.out.println ("ready");
    System.out.flush ();
    String sLine;
    while ((sLine = aIn.readLine ()) != null)
    {
      if (sLine.isBlank ())
        continue;
      try
      {
        final Options aOptions = Options.parse (sLine.split ("\t"));
        sendOne (aOptions, AccessPointSetup.fromOptions (aOptions), readCertificate (aOptions), readPayload (aOptions));
      }
      catch (final Exception ex)
      {
        synchronized (System.out)
        {
          System.out.println ("{" + Json.field ("ok", false) + "," + Json.field ("result", "invalid-parameters") + "," +
                              Json.field ("exception", String.valueOf (ex.getMessage ())) + "}");
          System.out.flush ();
        }
      }
    }
    AccessPointSetup.shutdown ();
    return 0;
  }

  private static X509Certificate readCertificate (final Options aOptions) throws Exception
  {
    try (InputStream aIS = Files.newInputStream (Path.of (aOptions.required ("receiver-cert"))))
    {
      return (X509Certificate) CertificateFactory.getInstance ("X.509").generateCertificate (aIS);
    }
  }

  private static Payload readPayload (final Options aOptions) throws Exception
  {
    final byte [] aBytes = Files.readAllBytes (Path.of (aOptions.required ("payload")));
    final Document aDoc = DOMReader.readXMLDOM (aBytes);
    if (aDoc == null)
      throw new IllegalArgumentException ("--payload is not XML");
    final Element aRoot = aDoc.getDocumentElement ();
    final boolean bIsSBDH = "StandardBusinessDocument".equals (aRoot.getLocalName ()) && SBDH_NS.equals (aRoot.getNamespaceURI ());
    return new Payload (aBytes,
                        bIsSBDH ? new PeppolSBDHDataReader (PeppolIdentifierFactory.INSTANCE).extractData (new ByteArrayInputStream (aBytes))
                                : null);
  }

  /** Collects what phase4 found comparing the receipt's references with the message sent. */
  private static final class ReceiptCheck implements IAS4SignalMessageValidationResultHandler
  {
    volatile String m_sResult = "not-checked";
    final List <String> m_aProblems = new ArrayList <> ();

    public void onSuccess ()
    {
      m_sResult = "verified";
    }

    public synchronized void onError (final String sMessage)
    {
      m_sResult = "failed";
      m_aProblems.add (sMessage);
    }

    public void onNotApplicable ()
    {
      m_sResult = "not-applicable";
    }
  }

  private static boolean sendOne (final Options aOptions,
                                  final AccessPointSetup aAP,
                                  final X509Certificate aReceiverCert,
                                  final Payload aPayload)
  {
    // A given id lets a test send the same message twice, as a sender's retry does.
    final String sMessageID = aOptions.optional ("message-id", UUID.randomUUID () + "@phase4-harness");
    final AtomicReference <Ebms3SignalMessage> aSignal = new AtomicReference <> ();
    final AtomicReference <Phase4Exception> aException = new AtomicReference <> ();
    final ReceiptCheck aReceiptCheck = new ReceiptCheck ();
    final long nStart = System.nanoTime ();
    EAS4UserMessageSendResult eResult;
    try
    {
      final AbstractPeppolUserMessageBuilder <?> aBuilder = builder (aOptions, aPayload);
      eResult = aBuilder.cryptoFactory (aAP.m_aCryptoFactory)
                        .peppolAP_CAChecker (aAP.m_aAPCAChecker)
                        .receiverEndpointDetails (aReceiverCert, aOptions.required ("endpoint"))
                        .senderPartyID (aOptions.optional ("sender-party", CertificateHelper.getSubjectCN (aAP.m_aOwnCertificate)))
                        .messageID (sMessageID)
                        .signalMsgConsumer ( (aSignalMsg, aMetadata, aState) -> aSignal.set (aSignalMsg))
                        .signalMsgValidationResultHdl (aReceiptCheck)
                        .sendMessageAndCheckForReceipt (aException::set);
    }
    catch (final Exception ex)
    {
      // Bad arguments, or a receiver certificate phase4 refuses before sending.
      eResult = EAS4UserMessageSendResult.INVALID_PARAMETERS;
      aException.set (new Phase4Exception (ex.getMessage (), ex));
    }
    final long nMillis = (System.nanoTime () - nStart) / 1_000_000;
    final boolean bOk = eResult == EAS4UserMessageSendResult.SUCCESS && "verified".equals (aReceiptCheck.m_sResult);

    final StringBuilder aLine = new StringBuilder ("{");
    aLine.append (Json.field ("ok", bOk)).append (',');
    aLine.append (Json.field ("result", eResult.getID ())).append (',');
    aLine.append (Json.field ("messageId", sMessageID)).append (',');
    aLine.append (Json.field ("millis", nMillis));
    final Ebms3SignalMessage aSignalMsg = aSignal.get ();
    if (aSignalMsg != null)
    {
      aLine.append (',').append (Json.field ("signalMessageId", aSignalMsg.getMessageInfo ().getMessageId ()));
      aLine.append (',').append (Json.field ("refToMessageId", aSignalMsg.getMessageInfo ().getRefToMessageId ()));
      aLine.append (',').append (Json.field ("receipt", aSignalMsg.getReceipt () != null));
      aLine.append (',').append (Json.field ("receiptCheck", aReceiptCheck.m_sResult));
      if (!aReceiptCheck.m_aProblems.isEmpty ())
        aLine.append (',').append (Json.field ("receiptProblems", String.join ("; ", aReceiptCheck.m_aProblems)));
      final List <String> aErrors = new ArrayList <> ();
      for (final Ebms3Error aError : aSignalMsg.getError ())
        aErrors.add ("{" +
                     Json.field ("code", aError.getErrorCode ()) + "," +
                     Json.field ("severity", aError.getSeverity ()) + "," +
                     Json.field ("shortDescription", aError.getShortDescription ()) + "," +
                     Json.field ("description", aError.getDescriptionValue ()) + "," +
                     Json.field ("detail", aError.getErrorDetail ()) + "}");
      aLine.append (",\"errors\":[").append (String.join (",", aErrors)).append (']');
    }
    if (aException.get () != null)
      aLine.append (',').append (Json.field ("exception", String.valueOf (aException.get ().getMessage ())));
    aLine.append ('}');
    synchronized (System.out)
    {
      System.out.println (aLine);
      System.out.flush ();
    }
    return bOk;
  }

  private static AbstractPeppolUserMessageBuilder <?> builder (final Options aOptions, final Payload aPayload)
  {
    final PeppolSBDHData aSBDH = aPayload.sbdh ();
    if (aSBDH != null)
    {
      // Sent as it is, byte for byte; ids given on the command line override the SBDH's, so that
      // a test can make the ebMS header disagree with it on purpose.
      return Phase4PeppolSender.sbdhBuilder ()
                               .payload (aPayload.bytes ())
                               .senderParticipantID (participant (aOptions, "from", aSBDH.getSenderAsIdentifier ()))
                               .receiverParticipantID (participant (aOptions, "to", aSBDH.getReceiverAsIdentifier ()))
                               .documentTypeID (documentType (aOptions, aSBDH.getDocumentTypeAsIdentifier ()))
                               .processID (process (aOptions, aSBDH.getProcessAsIdentifier ()))
                               .countryC1 (aOptions.optional ("country-c1", aSBDH.getCountryC1 ()));
    }
    // A bare business document: phase4 wraps it in an SBDH of its making (asking for MLS when told).
    final String sMlsTo = aOptions.optional ("mls-to", null);
    final String sMlsType = aOptions.optional ("mls-type", null);
    return Phase4PeppolSender.builder ()
                             .payload (DOMReader.readXMLDOM (aPayload.bytes ()).getDocumentElement ())
                             .senderParticipantID (participant (aOptions, "from", null))
                             .receiverParticipantID (participant (aOptions, "to", null))
                             .documentTypeID (documentType (aOptions, null))
                             .processID (process (aOptions, null))
                             .countryC1 (aOptions.optional ("country-c1", "BE"))
                             .mlsTo (sMlsTo == null ? null : PeppolIdentifierFactory.INSTANCE.createParticipantIdentifierWithDefaultScheme (sMlsTo))
                             .mlsType (sMlsType == null ? null : EPeppolMLSType.getFromIDOrNull (sMlsType));
  }

  private static IParticipantIdentifier participant (final Options aOptions, final String sName, final IParticipantIdentifier aDefault)
  {
    final String s = aDefault == null ? aOptions.required (sName) : aOptions.optional (sName, null);
    return s == null ? aDefault : PeppolInboxProcessor.participant (s);
  }

  /** A document type id with its scheme ("busdox-docid-qns::…") or without (then that default scheme). */
  private static IDocumentTypeIdentifier documentType (final Options aOptions, final IDocumentTypeIdentifier aDefault)
  {
    final String s = aDefault == null ? aOptions.required ("doctype") : aOptions.optional ("doctype", null);
    if (s == null)
      return aDefault;
    // Document type values contain "::" themselves, so only a known scheme prefix counts as one.
    final IDocumentTypeIdentifier aID = s.startsWith ("busdox-docid-qns::") || s.startsWith ("peppol-doctype-wildcard::")
                                                                                                                    ? PeppolIdentifierFactory.INSTANCE.parseDocumentTypeIdentifier (s)
                                                                                                                    : PeppolIdentifierFactory.INSTANCE.createDocumentTypeIdentifierWithDefaultScheme (s);
    if (aID == null)
      throw new IllegalArgumentException ("not a Peppol document type id: " + s);
    return aID;
  }

  private static IProcessIdentifier process (final Options aOptions, final IProcessIdentifier aDefault)
  {
    final String s = aDefault == null ? aOptions.required ("process") : aOptions.optional ("process", null);
    if (s == null)
      return aDefault;
    final IProcessIdentifier aID = s.startsWith ("cenbii-procid-ubl::") ? PeppolIdentifierFactory.INSTANCE.parseProcessIdentifier (s)
                                                                        : PeppolIdentifierFactory.INSTANCE.createProcessIdentifierWithDefaultScheme (s);
    if (aID == null)
      throw new IllegalArgumentException ("not a Peppol process id: " + s);
    return aID;
  }
}
