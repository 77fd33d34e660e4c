package invoicing.interop.phase4;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.helger.base.io.iface.IHasInputStream;
import com.helger.collection.commons.CommonsArrayList;
import com.helger.http.header.HttpHeaderMap;
import com.helger.mime.IMimeType;
import com.helger.phase4.attachment.IAS4IncomingAttachmentFactory;
import com.helger.phase4.incoming.AS4IncomingMessageMetadata;
import com.helger.phase4.incoming.AS4IncomingProfileSelectorConstant;
import com.helger.phase4.incoming.AS4IncomingReceiverConfiguration;
import com.helger.phase4.incoming.AS4RequestHandler;
import com.helger.phase4.incoming.IAS4ResponseAbstraction;
import com.helger.phase4.incoming.crypto.AS4IncomingSecurityConfiguration;
import com.helger.phase4.incoming.spi.IAS4IncomingMessageProcessorSPI;
import com.helger.phase4.model.pmode.resolve.AS4DefaultPModeResolver;
import com.helger.phase4.util.Phase4Exception;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A phase4 Peppol AS4 receiver on loopback: POST /as4. phase4's request handler does the AS4 work
 * (MIME, WS-Security signature and decryption, duplicate detection, signed receipt or ebMS error);
 * {@link PeppolInboxProcessor} does the Peppol checks and stores what arrives. It runs on the JDK's
 * own HTTP server rather than a servlet container: phase4's handler takes a stream, headers and a
 * response sink, which is all a test peer needs.
 */
final class Phase4Receiver
{
  private Phase4Receiver ()
  {}

  static int run (final Options aOptions) throws Exception
  {
    final AccessPointSetup aAP = AccessPointSetup.fromOptions (aOptions);
    final PeppolInboxProcessor aProcessor = new PeppolInboxProcessor (Path.of (aOptions.required ("out")),
                                                                      aAP.m_aAPCAChecker,
                                                                      aOptions.list ("serviced"));
    final HttpServer aServer = HttpServer.create (new InetSocketAddress (InetAddress.getLoopbackAddress (),
                                                                         aOptions.number ("port", 0)),
                                                  128);
    final ExecutorService aThreads = Executors.newFixedThreadPool (aOptions.number ("threads", 8));
    aServer.setExecutor (aThreads);
    aServer.createContext ("/as4", aExchange -> handle (aExchange, aAP, aProcessor));
    aServer.start ();
    System.out.println ("ready http://127.0.0.1:" + aServer.getAddress ().getPort () + "/as4");
    System.out.flush ();

    // Runs until the parent closes our standard input, so a test run that dies leaves no receiver.
    final InputStream aStdin = System.in;
    while (aStdin.read () >= 0)
    {
      // discard
    }
    aServer.stop (0);
    aThreads.shutdownNow ();
    AccessPointSetup.shutdown ();
    return 0;
  }

  private static void handle (final HttpExchange aExchange,
                              final AccessPointSetup aAP,
                              final IAS4IncomingMessageProcessorSPI aProcessor) throws IOException
  {
    final CollectedResponse aResponse = new CollectedResponse ();
    try
    {
      if (!"POST".equals (aExchange.getRequestMethod ()))
      {
        aResponse.plain (405, "POST an AS4 message here");
      }
      else
      {
        final HttpHeaderMap aHeaders = new HttpHeaderMap ();
        for (final Map.Entry <String, List <String>> aEntry : aExchange.getRequestHeaders ().entrySet ())
          for (final String sValue : aEntry.getValue ())
            aHeaders.addHeader (aEntry.getKey (), sValue);
        final AS4IncomingMessageMetadata aMetadata = AS4IncomingMessageMetadata.createForRequest ()
                                                                               .setRemoteAddr (aExchange.getRemoteAddress ()
                                                                                                        .getAddress ()
                                                                                                        .getHostAddress ())
                                                                               .setRemotePort (aExchange.getRemoteAddress ()
                                                                                                        .getPort ())
                                                                               .setHttpHeaders (aHeaders);
        try (AS4RequestHandler aHandler = new AS4RequestHandler (aMetadata))
        {
          aHandler.setCryptoFactory (aAP.m_aCryptoFactory);
          aHandler.setPModeResolver (new AS4DefaultPModeResolver (AccessPointSetup.PROFILE_ID));
          aHandler.setIncomingProfileSelector (new AS4IncomingProfileSelectorConstant (AccessPointSetup.PROFILE_ID, true));
          aHandler.setIncomingAttachmentFactory (IAS4IncomingAttachmentFactory.DEFAULT_INSTANCE);
          aHandler.setIncomingSecurityConfiguration (AS4IncomingSecurityConfiguration.createDefaultInstance ());
          aHandler.setIncomingReceiverConfiguration (new AS4IncomingReceiverConfiguration ());
          aHandler.setProcessorSupplier ( () -> new CommonsArrayList <> (aProcessor));
          aHandler.handleRequest (aExchange.getRequestBody (), aHeaders, aResponse);
        }
      }
    }
    catch (final Phase4Exception ex)
    {
      // What phase4's own servlet answers for a request it cannot read as AS4 at all.
      aResponse.plain (400, "Bad Request: " + ex.getMessage ());
    }
    catch (final Exception ex)
    {
      System.err.println ("phase4-harness: error handling a request: " + ex);
      aResponse.plain (500, "Internal error processing AS4 request");
    }
    aResponse.writeTo (aExchange);
  }

  /** What phase4's handler answers, held until it is done, then written to the exchange. */
  private static final class CollectedResponse implements IAS4ResponseAbstraction
  {
    private int m_nStatus = 200;
    private String m_sContentType;
    private Charset m_aCharset;
    private byte [] m_aBytes;
    private IHasInputStream m_aStream;
    private final HttpHeaderMap m_aHeaders = new HttpHeaderMap ();

    public void setContent (final byte [] aBytes, final Charset aCharset)
    {
      m_aBytes = aBytes;
      m_aCharset = aCharset;
    }

    public void setContent (final HttpHeaderMap aHeaderMap, final IHasInputStream aHasIS)
    {
      m_aHeaders.addAllHeaders (aHeaderMap);
      m_aStream = aHasIS;
    }

    public void setMimeType (final IMimeType aMimeType)
    {
      m_sContentType = aMimeType.getAsString ();
    }

    public void setStatus (final int nStatusCode)
    {
      m_nStatus = nStatusCode;
    }

    void plain (final int nStatus, final String sText)
    {
      m_nStatus = nStatus;
      m_sContentType = "text/plain";
      m_aCharset = java.nio.charset.StandardCharsets.UTF_8;
      m_aBytes = sText.getBytes (m_aCharset);
      m_aStream = null;
    }

    void writeTo (final HttpExchange aExchange) throws IOException
    {
      try (aExchange)
      {
        m_aHeaders.forEachSingleHeader ( (sName, sValue) -> {
          // The content type is set below, once; the length by the server.
          if (!sName.equalsIgnoreCase ("Content-Type") && !sName.equalsIgnoreCase ("Content-Length"))
            aExchange.getResponseHeaders ().add (sName, sValue);
        }, false);
        if (m_sContentType != null)
          aExchange.getResponseHeaders ()
                   .set ("Content-Type",
                         m_aCharset != null && !m_sContentType.contains ("charset=") ? m_sContentType +
                                                                                       "; charset=" +
                                                                                       m_aCharset.name ()
                                                                                     : m_sContentType);
        if (m_aBytes == null && m_aStream == null)
        {
          aExchange.sendResponseHeaders (m_nStatus, -1);
          return;
        }
        final byte [] aBody = m_aBytes != null ? m_aBytes : m_aStream.getInputStream ().readAllBytes ();
        aExchange.sendResponseHeaders (m_nStatus, aBody.length == 0 ? -1 : aBody.length);
        try (OutputStream aOS = aExchange.getResponseBody ())
        {
          aOS.write (aBody);
        }
      }
    }
  }
}
